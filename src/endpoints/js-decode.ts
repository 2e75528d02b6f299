// The decode spec of an API whose SSE events the native decoder cannot read by field paths: the
// Responses API and Anthropic Messages tell content from reasoning (and from the full text that
// closes a stream) by each event's `type` value, not by where the text sits. The `error` path
// names the `type` every event of these APIs carries (or an `error`), so the native decoder leaves
// each such event, and every one after it, to the adapter's parse() (the record's tail): the
// records are the same on both transports, and no C++ knows these shapes. An event with neither
// key is read as carrying nothing, as parse() reads it. The cost is one JS parse per event on the
// sending thread.
import type { DecodeSpec } from '../model/decoded.js';

export const JS_DECODE: DecodeSpec = {
  choices: '(type|error)',
  message: '',
  content: [],
  reasoning: [],
  usage: [],
  error: '(type|error)',
  spec_decode: [],
  // Their parse() reads the finish reason by event type too (message_delta, response.completed).
  finish: [],
};

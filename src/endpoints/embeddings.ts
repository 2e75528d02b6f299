// OpenAI embeddings: /v1/embeddings. One body per request, never streamed; a batch of inputs per
// request (--batch-size-text: the turn's prompt and its `inputs`). No text comes back, so there are
// no output tokens; input tokens come from the usage or the tokenizer.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import { PayloadParseError } from '../errors.js';
import type { Turn } from '../model/turn.js';
import { decodeJson, errorPayload } from './common.js';
import { JS_DECODE } from './js-decode.js';
import { inputUsage } from './usage.js';

export const embeddingsAdapter: EndpointAdapter = {
  type: 'embeddings',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'extra_inputs'>) {
    return { model: cfg.model, input: [turn.prompt, ...(turn.inputs ?? [])], encoding_format: 'float', ...cfg.extra_inputs };
  },
  parse(data: string): Payload {
    const o = decodeJson(data);
    const err = errorPayload(o);
    if (err) return err;
    if (!Array.isArray(o.data)) throw new PayloadParseError('embeddings response has no `data` array');
    return { kind: 'data', content: '', reasoning: '', has_choices: false, usage: inputUsage(o) };
  },
  decodeSpec: JS_DECODE,
  generates: false,
};

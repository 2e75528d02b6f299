// An endpoint adapter knows one API's request and response shapes, and nothing about transport.
import type { EndpointType, RunConfig } from '../config/types.js';
import type { Turn, Usage } from '../records/types.js';
import type { SpecDecodeChunk } from './spec-decode.js';

/** One decoded payload: an SSE event's data or a whole non-streaming body. */
export type Payload =
  | { kind: 'done' }
  | { kind: 'error'; message: string }
  | {
      kind: 'data';
      content: string;
      reasoning: string;
      has_choices: boolean;
      usage: Usage | null;
      /** Speculative-decoding acceptance carried by this payload, if any (see spec-decode.ts). */
      spec_decode?: SpecDecodeChunk | null;
    };

/** A value the native decoder looks for: the first source whose path reaches an object (`present`: anything but null). */
export interface DecodeSource {
  path: string;
  test: 'object' | 'present';
}

/**
 * What parse() reads from an SSE event, as field paths, for the native decoder (native/sse_decode.h),
 * which decodes events where they are framed and must give exactly what parse() gives. Paths are
 * dot-separated steps: `key`, `key[*]` (each array element, the first match wins), `(a|b)` (the
 * first of these keys whose value is not null, as `a ?? b`).
 */
export interface DecodeSpec {
  /** The choices array; has_choices: it is a non-empty array. */
  choices: string;
  /** Within each choice, the object holding its texts ('' for the choice itself). */
  message: string;
  /** Within that object: the first non-empty string is the choice's content / reasoning text. */
  content: string[];
  reasoning: string[];
  /** The payload's usage: its JSON text goes to usageOfPayload as `{<path>: value}`. */
  usage: DecodeSource[];
  /** Present and not null: an error event (decided by parse()). */
  error: string;
  /** The payload's spec-decode stats: its JSON text goes to specDecodeOfPayload, wrapped in its path. */
  spec_decode: DecodeSource[];
}

export interface EndpointAdapter {
  readonly type: EndpointType;
  /** The JSON request body for a turn. */
  buildBody(turn: Turn, cfg: RunConfig): Record<string, unknown>;
  /** Decode one payload; throws PayloadParseError when it is not valid JSON of the expected shape. */
  parse(data: string): Payload;
  /** parse()'s reading of an SSE event, for the native decoder. */
  readonly decodeSpec: DecodeSpec;
}

export class PayloadParseError extends Error {
  readonly code = 'SB_PAYLOAD_PARSE';
}

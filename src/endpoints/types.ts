// An endpoint adapter knows one API's request and response shapes, and nothing about transport.
import type { EndpointType, RunConfig } from '../config/types.js';
import type { Turn, Usage } from '../records/types.js';
import type { DecodeSpec } from '../native-decode.js';
import type { SpecDecodeChunk } from './spec-decode.js';

export type { DecodeSource, DecodeSpec } from '../native-decode.js';

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

export interface EndpointAdapter {
  readonly type: EndpointType;
  /** The JSON request body for a turn. */
  buildBody(turn: Turn, cfg: RunConfig): Record<string, unknown>;
  /** Decode one payload; throws PayloadParseError (src/errors.ts) when it is not valid JSON of the expected shape. */
  parse(data: string): Payload;
  /** parse()'s reading of an SSE event, for the native decoder. */
  readonly decodeSpec: DecodeSpec;
  /** The usage of a native usage slice (decodeSpec.usage[source] matched `text`); absent: usageOfPayload at its path. */
  usageOfSlice?(source: number, text: string): Usage | null;
}

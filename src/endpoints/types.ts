// An endpoint adapter knows one API's request and response shapes, and nothing about transport.
import type { ResponseMedia } from '../model/media.js';
import type { Turn } from '../model/turn.js';
import type { Usage } from '../model/usage.js';
import type { DecodeSpec } from '../model/decoded.js';
import type { AuthSettings } from './auth.js';
import type { EndpointSettings } from './settings.js';
import type { SpecDecodeChunk } from './spec-decode.js';

export type EndpointType =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'rankings'
  | 'responses'
  | 'messages'
  | 'transcriptions'
  | 'image_generation'
  | 'video_generation'
  | 'template'
  | 'realtime';

/**
 * Every run setting an adapter may read to build a body (config/types.ts RunConfig has them all,
 * under the same names). Each adapter declares the Pick of it that it reads.
 */
export interface BodySettings {
  readonly model: string;
  readonly streaming: boolean;
  /** Ask for cumulative usage on every chunk (--per-chunk-usage). */
  readonly per_chunk_usage: boolean;
  /** Merged into every request body (--extra-inputs). */
  readonly extra_inputs: Readonly<Record<string, unknown>>;
  readonly endpoint_settings: EndpointSettings;
  /** The generation endpoints' image size and count (dataset/media-config.ts, --image-*). */
  readonly media: { readonly image: { readonly width_mean: number; readonly height_mean: number; readonly batch_size: number } };
}

/** What an API's own auth scheme reads (adapter.authHeaders). */
export type AdapterAuthSettings = Pick<AuthSettings, 'api_key'> & Pick<BodySettings, 'endpoint_settings'>;

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
      /** The usage updates only the fields it reports (Anthropic's message_delta after message_start). */
      usage_partial?: boolean;
      /** Why the response ended ("stop", "length", "end_turn"…), when this payload says; a later one wins. */
      finish_reason?: string | null;
      /** Images generated, server-reported video figures (generation endpoints). */
      media?: ResponseMedia;
    };

export interface EndpointAdapter {
  readonly type: EndpointType;
  /** The JSON request body for a turn. */
  buildBody(turn: Turn, cfg: BodySettings): Record<string, unknown>;
  /** A body that is not JSON (multipart uploads): its bytes and content type; used instead of buildBody when present. */
  buildRawBody?(turn: Turn, cfg: BodySettings): { body: Buffer; contentType: string };
  /** Decode one payload; throws PayloadParseError (src/errors.ts) when it is not valid JSON of the expected shape. */
  parse(data: string): Payload;
  /** false: the prompt is not sent as text (transcriptions) / the output is not text (generation): no ISL / OSL then. */
  readonly textInput?: boolean;
  readonly textOutput?: boolean;
  /** false: the request asks for no output length (no max_tokens), so there is no OSL to miss. */
  readonly sendsMaxTokens?: boolean;
  /** parse()'s reading of an SSE event, for the native decoder. */
  readonly decodeSpec: DecodeSpec;
  /** Headers this API needs beyond the run's (Anthropic's x-api-key and anthropic-version); they replace Authorization. */
  authHeaders?(cfg: AdapterAuthSettings): Record<string, string>;
  /** False: the API generates no text (embeddings, rankings), so output token counts have no value. */
  readonly generates?: boolean;
  /** The usage of a native usage slice (decodeSpec.usage[source] matched `text`); absent: usageOfPayload at its path. */
  usageOfSlice?(source: number, text: string): Usage | null;
}

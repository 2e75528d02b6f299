// The transport contract: send one prepared request, always resolve with a RawRecord.
import type { DecodeSpec } from '../model/decoded.js';
import type { Credit } from '../model/credit.js';
import type { RawRecord } from '../model/raw-record.js';

/** Native decode of SSE payloads where they are framed (RawRecord.decoded). */
export interface StreamDecode {
  /** The endpoint adapter's field paths. */
  spec: DecodeSpec;
  /** Keep every payload string too (--export-level raw writes them); else only the tail. */
  keepPayloads: boolean;
}

/** Caps on what one response may make the client hold (--max-response-bytes, --max-event-bytes). */
export interface SizeLimits {
  maxResponseBytes: number;
  maxEventBytes: number;
}

export interface PreparedRequest {
  /** Path appended to the target's base URL. */
  path: string;
  /** Header names lower-cased; already includes auth and X-Request-ID. */
  headers: Record<string, string>;
  /** The rendered JSON body. */
  body: Buffer;
  streaming: boolean;
}

/** What a preconnect did (--preconnect): connections asked for, opened, and how long it waited (ms). */
export interface PreconnectResult {
  asked: number;
  opened: number;
  ms: number;
}

export interface Transport {
  readonly name: string;
  /** Never rejects: every outcome, including errors and cancellation, is a RawRecord. */
  /** `signal` cancels this one request (it resolves as `cancelled`), e.g. --request-cancellation-rate. */
  send(credit: Credit, request: PreparedRequest, signal?: AbortSignal | null): Promise<RawRecord>;
  /** Cancel every request in flight (they resolve as `cancelled`). */
  cancelAll(reason: string): void;
  close(): Promise<void>;
}

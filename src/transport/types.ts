// The transport contract: send one rendered request, always resolve with a RawRecord.
import type { RenderedRequest } from '../endpoints/request.js';
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
export interface SizeCaps {
  maxResponseBytes: number;
  maxEventBytes: number;
}

/**
 * The caps' defaults: far above any real completion, low enough that a runaway server cannot
 * exhaust memory (config/defaults.ts DEFAULTS gives them to the flags).
 */
export const DEFAULT_SIZE_CAPS: Readonly<SizeCaps> = { maxResponseBytes: 64 * 1024 * 1024, maxEventBytes: 16 * 1024 * 1024 };

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
  send(credit: Credit, request: RenderedRequest, signal?: AbortSignal | null): Promise<RawRecord>;
  /** Cancel every request in flight (they resolve as `cancelled`). */
  cancelAll(reason: string): void;
  close(): Promise<void>;
}

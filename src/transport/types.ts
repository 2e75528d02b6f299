// The transport contract: send one prepared request, always resolve with a RawRecord.
import type { Credit, RawRecord } from '../records/types.js';

export interface PreparedRequest {
  /** Path appended to the target's base URL. */
  path: string;
  /** Header names lower-cased; already includes auth and X-Request-ID. */
  headers: Record<string, string>;
  /** The rendered JSON body. */
  body: Buffer;
  streaming: boolean;
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

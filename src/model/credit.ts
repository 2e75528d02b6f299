// A credit: one request as the scheduler hands it to the transport, and where it went.
import type { Phase } from './phase.js';
import type { Turn } from './turn.js';

/** A request as the scheduler hands it to the transport. */
export interface Credit {
  index: number;
  phase: Phase;
  x_request_id: string;
  credit_issued_ns: bigint;
  /** When the schedule wanted the request sent; null for closed-loop (concurrency) modes. */
  targeted_start_ns: bigint | null;
  turn: Turn;
  /** Fixed-schedule replay: the trace timestamp (ms) this request was scheduled at; absent otherwise. */
  trace_timestamp_ms?: number;
  /** A conversation's first turn: ns the load generator spent producing the conversation (GuideLLM's generation delay). */
  generation_delay_ns?: number;
  /** The URL (without credentials) and model the request went to (transport/router.ts); absent: not known. */
  target?: RequestTarget;
}

/** Where one request went: a --url (credentials removed) and a --model. */
export interface RequestTarget {
  url: string;
  model: string;
}

// What a transport returns for one request, transport-neutral. All *_ns values are
// CLOCK_MONOTONIC nanoseconds (process.hrtime.bigint()).
import type { Credit } from './credit.js';
import type { DecodedStream } from './decoded.js';

export type RecordStatus = 'ok' | 'error' | 'cancelled';
export type ErrorType =
  | 'http_4xx'
  | 'http_5xx'
  | 'timeout'
  | 'connection'
  | 'parse_error'
  | 'sse_error'
  | 'cancelled'
  /** Anything the reference's error.type table does not name (AIPerf's `_OTHER`): e.g. a 3xx, a processing bug. */
  | '_OTHER';

export interface RecordError {
  type: ErrorType;
  message: string;
  http_status: number | null;
  /** `tls` for a connection error that is a TLS failure (handshake, verification). */
  subtype?: 'tls';
  /** With subtype: the plain reason (unknown CA, expired, hostname mismatch, …). */
  reason?: string;
}

/** What a transport returns for one request. Transport-neutral. */
export interface RawRecord {
  credit: Credit;
  start_ns: bigint;
  /** Arrival stamp of the last byte of the response, or the time the error was seen. */
  end_ns: bigint;
  http_status: number | null;
  status: RecordStatus;
  error: RecordError | null;
  streaming: boolean;
  /** SSE `data:` payloads in arrival order (streaming), each with the stamp of the chunk that completed it. */
  event_data: string[];
  event_ns: bigint[];
  /** SSE `event:` names, parallel to event_data ('' for the default `message`). */
  event_type: string[];
  /** Whole response body for non-streaming responses (or an error body). */
  body: string | null;
  bytes_sent: number;
  bytes_received: number;
  /** HTTP lifecycle stamps, when the transport collects them (see HttpTrace). */
  trace?: HttpTrace | null;
  /**
   * The SSE events as the native decoder read them (streaming 2xx responses, when the transport
   * decodes). event_data then holds only the last `decoded.tail` events, which the endpoint
   * adapter decodes, or every event (--export-level raw) with those last.
   */
  decoded?: DecodedStream | null;
  /** Realtime (WebSocket): the stamps of the client events sent, in order (GuideLLM's round-trip metrics). */
  sent_ns?: bigint[];
  /**
   * Never sent: it waited at a slot gate (load/types.ts SlotGate) when the run stopped. The
   * scheduler counts it unsent, as a credit that never left its queue, and no record is kept.
   */
  unsent?: true;
}

/**
 * One request's HTTP lifecycle, transport-neutral (k6 phase names are derived from it in
 * metrics/families/http-trace.ts). Stamps are CLOCK_MONOTONIC ns; null when the phase did not happen or
 * was not observed. The request's own start_ns/end_ns bound it.
 */
export interface HttpTrace {
  /** True when the request went out on a connection that an earlier request had already used. */
  connection_reused: boolean;
  /** New connection only: connection setup began (after any wait for a pool slot). */
  connect_start_ns: bigint | null;
  /** New connection only: name resolution finished (null when the host was an IP literal). */
  dns_end_ns: bigint | null;
  /** New connection only: TCP (and TLS) handshake finished. */
  connect_end_ns: bigint | null;
  /** New https connection only: the TLS handshake began and finished (absent or null: no TLS). */
  tls_start_ns?: bigint | null;
  tls_end_ns?: bigint | null;
  /** The first byte of the request is about to be written. */
  send_start_ns: bigint | null;
  /** The whole request (headers and body) has been handed to the socket. */
  send_end_ns: bigint | null;
  /** The response head arrived. */
  first_byte_ns: bigint | null;
  /** Bytes written to / read from the connection for this request, framing included. */
  bytes_sent: number | null;
  bytes_received: number | null;
  /** Write calls for the request; body chunks delivered for the response. */
  chunks_sent: number | null;
  chunks_received: number | null;
}

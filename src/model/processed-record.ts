// A processed record: the raw stamps plus parsed output, the metric input and per-record metrics.
import type { MediaMetricInput } from './media.js';
import type { HttpTrace, RawRecord, RecordError, RecordStatus } from './raw-record.js';
import type { SpecDecodeRecord } from './spec-decode.js';
import type { Usage } from './usage.js';

/** One parsed response (SSE event or whole body). */
export interface ParsedResponse {
  ns: bigint;
  content: string;
  reasoning: string;
  /** True when the payload carried a non-empty `choices` array (even role-only). */
  has_choices: boolean;
}

/**
 * The input to per-record metric functions: everything a metric needs, nothing about transport.
 * Token counts are the run's choice (local tokenizer, or server usage with --use-server-token-count).
 */
export interface MetricRecord {
  valid: boolean;
  streaming: boolean;
  credit_issued_ns: bigint;
  start_ns: bigint;
  end_ns: bigint;
  /** Stamps of responses with non-empty content or reasoning, in order. */
  token_ns: bigint[] | BigInt64Array;
  /** Stamp of the first response with non-empty (non-reasoning) content, or null. */
  first_output_ns: bigint | null;
  /**
   * Where request_latency ends (AIPerf: `content_responses[-1]`): the last response with non-empty
   * content or reasoning when streaming (a usage-only chunk, [DONE] and the stream's close come
   * after it), the body when not. Null: a stream without any. end_ns stays the last byte.
   */
  last_content_ns: bigint | null;
  input_tokens: number | null;
  output_tokens: number | null;
  reasoning_tokens: number | null;
  /** The server's usage (last reported), whatever the token-count source. Absent: unknown. */
  usage?: Usage | null;
  /** Requested output length (max_tokens) of the turn, or null when none was asked. */
  requested_osl?: number | null;
  /** --per-chunk-usage: server-reported cumulative completion tokens through the first token-bearing chunk. */
  first_chunk_tokens?: number | null;
  spec_decode?: SpecDecodeRecord | null;
  trace?: HttpTrace | null;
  /** When the schedule wanted the request sent (rate and replay modes); null/absent in closed loop. */
  targeted_start_ns?: bigint | null;
  /** True when the request was sent at a trace timestamp (fixed-schedule replay). */
  trace_scheduled?: boolean;
  /** Stamp of the first response whose `choices` was non-empty, even role-only (EvalScope's TTFT); null/absent: none. */
  first_choice_ns?: bigint | null;
  /** Multi-turn: when the previous turn of the same session ended; null/absent for a first turn or single-turn request. */
  predecessor_end_ns?: bigint | null;
  /** Images, audio and video figures; absent: a text-only request. */
  media?: MediaMetricInput | null;
  /** A conversation's first turn: ns spent producing the conversation before it could be scheduled; absent for later turns. */
  generation_delay_ns?: number | null;
  /** Realtime (WebSocket): stamps of the client events sent; absent on HTTP. */
  sent_ns?: bigint[];
}

/** A metric value for one record: a scalar, or a list (e.g. inter_chunk_latency). */
export type MetricValue = number | number[];

/** A finished record: the raw stamps plus parsed output and its per-record metrics. */
export interface ProcessedRecord {
  raw: RawRecord;
  /** Final outcome: the transport's, or an error found while parsing the payloads (parse_error, sse_error). */
  status: RecordStatus;
  error: RecordError | null;
  metric_input: MetricRecord;
  /** The adapter's responses, one per payload (empty when the native decoder read the events). */
  responses: ParsedResponse[];
  /** The response's content text, all payloads concatenated. */
  content?: string;
  usage: Usage | null;
  /** Why the response ended, in the API's words ("stop", "length", "end_turn"…): record data, not a metric. Null: none said. */
  finish_reason: string | null;
  /** tag → value, only metrics that could be computed for this record. */
  metrics: ReadonlyMap<string, MetricValue>;
  /** --convention all: the same record's metrics under each other convention (metrics/conventions.ts), only the tags they compare. */
  convention_metrics?: Map<string, Map<string, MetricValue>>;
}

// Record types shared by transport → records → metrics → export.
// All *_ns values are CLOCK_MONOTONIC nanoseconds (process.hrtime.bigint()).

/** 'cooldown': load kept on after the measured part (--cooldown-duration); never in the metrics. */
export type Phase = 'warmup' | 'profiling' | 'cooldown';
export type RecordStatus = 'ok' | 'error' | 'cancelled';
export type ErrorType =
  | 'http_4xx'
  | 'http_5xx'
  | 'timeout'
  | 'connection'
  | 'parse_error'
  | 'sse_error'
  | 'cancelled';

export interface RecordError {
  type: ErrorType;
  message: string;
  http_status: number | null;
}

/** What the dataset produces and the endpoint adapter turns into a request body. */
export interface Turn {
  /** Prompt text (single user message for chat; raw prompt for completions). */
  prompt: string;
  /** Prompt length in tokens under the run's tokenizer, when known at synthesis time. */
  isl: number | null;
  /** Requested output length (sent as max_tokens), or null to let the server decide. */
  max_tokens: number | null;
  /** Full message list for chat (history of a multi-turn session, or messages from a dataset). */
  messages?: { role: 'system' | 'user' | 'assistant'; content: string }[];
  /** Multi-turn: which conversation and which turn of it. */
  session_id?: string;
  turn_index?: number;
}

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
}

/** Server-reported usage, normalised. Fields absent from the response are null. */
export interface Usage {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  reasoning_tokens: number | null;
}

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
  token_ns: bigint[];
  /** Stamp of the first response with non-empty (non-reasoning) content, or null. */
  first_output_ns: bigint | null;
  input_tokens: number | null;
  output_tokens: number | null;
  reasoning_tokens: number | null;
  /** When the schedule wanted the request sent (rate and replay modes); null/absent in closed loop. */
  targeted_start_ns?: bigint | null;
  /** True when the request was sent at a trace timestamp (fixed-schedule replay). */
  trace_scheduled?: boolean;
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
  responses: ParsedResponse[];
  usage: Usage | null;
  /** tag → value, only metrics that could be computed for this record. */
  metrics: Map<string, MetricValue>;
}

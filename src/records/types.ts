// Record types shared by transport → records → metrics → export.
// All *_ns values are CLOCK_MONOTONIC nanoseconds (process.hrtime.bigint()).
import type { DecodedStream } from '../native-decode.js';

export type { DecodedSlice, DecodedStream } from '../native-decode.js';

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
  /** Trace block hashes of the prompt (mooncake `hash_ids`), for the theoretical prefix-cache hit rate. */
  hash_ids?: readonly number[];
  /** Texts sent with the prompt: the rest of an embeddings batch, or the passages ranked against it (dataset/endpoint-inputs.ts). */
  inputs?: readonly string[];
  /** Images and audio sent with the prompt (dataset/media-source.ts). */
  media?: TurnMedia;
}

/** A WAV clip sent as a request input. */
export interface AudioClip {
  format: 'wav';
  data: Buffer;
  duration_s: number;
}

/** Non-text inputs of a turn: image URLs (http(s) or base64 data URLs) and audio clips. */
export interface TurnMedia {
  images?: string[];
  audio?: AudioClip[];
}

/** What a response says about media (endpoints/image-generation.ts, video-generation.ts). */
export interface ResponseMedia {
  /** Images in the response (image generation). */
  images?: number;
  /** Server-reported generation time and peak GPU memory (SGLang video generation). */
  video_inference_time_s?: number;
  video_peak_memory_mb?: number;
}

/** The media figures of one record, request side and response side (metrics/families/media.ts). */
export interface MediaMetricInput {
  num_images: number | null;
  audio_duration_s: number | null;
  video_inference_time_s: number | null;
  video_peak_memory_mb: number | null;
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

/**
 * Server-reported usage, normalised across vendors (see endpoints/usage.ts for the field map).
 * Fields absent from the response, or of the wrong type, are null. The fields after
 * reasoning_tokens are optional so older producers of Usage stay valid.
 */
export interface Usage {
  /** Every prompt token the server processed, cached or not (Anthropic's disjoint counts are re-totalled). */
  prompt_tokens: number | null;
  /** Output tokens including reasoning (Gemini's candidates + thoughts). */
  completion_tokens: number | null;
  total_tokens: number | null;
  reasoning_tokens: number | null;
  prompt_cache_read_tokens?: number | null;
  prompt_cache_write_tokens?: number | null;
  prompt_cache_miss_tokens?: number | null;
  prompt_audio_tokens?: number | null;
  completion_audio_tokens?: number | null;
  /** Mistral: seconds of audio in the prompt (a duration, not a count). */
  prompt_audio_seconds?: number | null;
  /** Gemini: prompt tokens spent on tool declarations. */
  tool_use_prompt_tokens?: number | null;
  accepted_prediction_tokens?: number | null;
  rejected_prediction_tokens?: number | null;
}

/**
 * Speculative decoding acceptance of one request, engine-neutral. `histogram[j]` is the number of
 * verify steps that accepted exactly j draft tokens, so sum(histogram) = steps and
 * sum(j · histogram[j]) = accepted_draft_tokens.
 */
export interface SpecDecodeRecord {
  steps: number;
  accepted_draft_tokens: number;
  draft_tokens: number;
  histogram: number[];
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

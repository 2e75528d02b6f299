// The addon's typed surface: what each native call takes and returns (src/native.ts loads it).
import type { DecodeSpec, DecodedStream } from './model/decoded.js';

export interface SseFrames {
  /** `data:` payload of each complete event, in order. */
  data: string[];
  /** Arrival stamp of the chunk that completed each event. */
  stamps: BigInt64Array;
  /** `event:` name of each event ('' when absent). */
  types: string[];
  /**
   * Bytes after the last blank line (event boundary): an unterminated final
   * event, or trailing comments. 0 for a cleanly ended stream; BOM not counted.
   */
  trailing_bytes: number;
}

export interface Http1ParseResult {
  /** Final status (0 until its header block is complete). */
  status: number;
  /** The response ended (its body framing is satisfied). */
  complete: boolean;
  /** The connection could carry another request (only when complete). */
  keep_alive: boolean;
  /** Bytes consumed: stops at the end of the response. */
  consumed: number;
  /** Decoded body (chunk framing removed). */
  body: Buffer;
  /** One stamp per body piece handed on: the index of the chunk that held it. */
  body_stamps: BigInt64Array;
  error: { type: 'parse_error' | 'connection'; message: string } | null;
}

/** Options of the native stream engine (native/engine/engine.h). */
export interface EngineOptions {
  /** Numeric IPv4 or IPv6 address of the target (names are resolved in TS). */
  address: string;
  port: number;
  /** I/O threads, each with its own epoll set and connection pool (default 1). */
  threads?: number;
  /** Connections across all threads; 0 or absent: one per request in flight. */
  maxConnections?: number;
  /** Body bytes of one response; beyond it the request fails as parse_error (default 64 MiB). */
  maxResponseBytes?: number;
  /** Bytes of one SSE event as received; beyond it the request fails as parse_error (default 16 MiB). */
  maxEventBytes?: number;
  /**
   * How hard the I/O threads ask to run promptly (native/engine/engine_sched.h): realtime (default; SCHED_FIFO
   * while lightly loaded, where allowed), raised (short slice, nice -10), normal.
   */
  priority?: 'normal' | 'raised' | 'realtime';
  /**
   * Read coalescing, µs (0–10000; default 0: eager): an I/O thread that has just read looks at its
   * sockets again no sooner than this after its last wake-up, so each recv() takes more bytes (and
   * the kernel sends fewer ACKs). Stamps are still taken when recv() returns.
   */
  readCoalesceUs?: number;
  kernelStamps?: boolean;
  /** Decode SSE payloads on the I/O threads (native/wire/sse_decode.h): EngineBatch.decoded. */
  decode?: DecodeSpec;
  /** With `decode`: every payload string comes back too (else only the tail left to TS). */
  keepPayloads?: boolean;
  /** https:// targets: TLS on every connection (native/engine/engine_tls.h); absent: plain TCP. */
  tls?: EngineTlsOptions;
}

/** The engine's TLS client: file paths only (OpenSSL reads them; no key bytes cross to C++ through JS). */
export interface EngineTlsOptions {
  /** SNI and the name the certificate must match (an IP literal is matched as an IP). */
  servername: string;
  /** false: --insecure (no verification). */
  verify: boolean;
  caFile?: string;
  extraCaFile?: string;
  systemCaFile?: string;
  certFile?: string;
  keyFile?: string;
}

/** One response framed and decoded by SseDecoder.decode. */
export interface SseDecoded {
  decoded: DecodedStream;
  /** The payloads kept (the tail, or all with keepPayloads), their stamps and `event:` names. */
  data: string[];
  stamps: BigInt64Array;
  types: string[];
  trailing_bytes: number;
}

export interface NativeSseDecoder {
  decode(chunks: Uint8Array[], stamps: BigInt64Array, keepPayloads: boolean): SseDecoded;
}

/**
 * Finished requests, in columns: record i is `ids[i]`, its events are the next
 * `event_count[i]` entries of the event columns (records in order).
 */
export interface EngineBatch {
  ids: Uint32Array;
  /** Final HTTP status; 0 when no response head arrived. */
  status: Int32Array;
  /** When the I/O thread took the request up (CLOCK_MONOTONIC ns). */
  start_ns: BigInt64Array;
  /** Stamp of the read that held the last body byte, or when the request failed. */
  end_ns: BigInt64Array;
  /** Under the slot gate (setGate): when the slot the request went out on came free; 0n: not gated. */
  planned_ns: BigInt64Array;
  bytes_sent: Float64Array;
  /** Decoded body bytes. */
  bytes_received: Float64Array;
  event_count: Uint32Array;
  /** Arrival stamp of the read that completed each SSE event. */
  event_ns: BigInt64Array;
  /** 7 per record: connect start, connect end, send start, send end, first byte, TLS start, TLS end (CLOCK_MONOTONIC ns; 0: none). */
  trace_ns: BigInt64Array;
  /** 5 per record: connection reused (0/1), request bytes written, response bytes read, writes, reads with body bytes. */
  trace_counts: Float64Array;
  event_data: string[];
  /** With EngineOptions.decode: per record, its decoded SSE events (null for a record not decoded); else null. */
  decoded: (DecodedStream | null)[] | null;
  /** `event:` names ('' when absent), or null when no event in the batch had one. */
  event_type: string[] | null;
  /** The body when it was not framed as SSE (non-streaming, or a non-2xx status), else null. */
  body: (string | null)[];
  /** 'unsent': it waited at the slot gate and cancelWaiting() ended it; nothing was sent. */
  error: ({ type: 'connection' | 'parse_error' | 'timeout' | 'cancelled' | 'unsent'; message: string } | null)[];
}

/** The native stream engine; src/transport/native.ts wraps it. */
export interface NativeEngine {
  /**
   * Hands requests to the I/O threads. Request i is `requests[ends[i-1] .. ends[i])`, a whole
   * rendered HTTP/1.1 request; `timeoutMs[i]` 0 means none; `targetNs[i]` > 0 holds the request
   * until that CLOCK_MONOTONIC time. Throws SB_NATIVE_ENGINE_CLOSED after close().
   */
  submit(
    ids: Uint32Array,
    requests: Uint8Array,
    ends: Uint32Array,
    streaming: Uint8Array,
    timeoutMs: Float64Array,
    targetNs: BigInt64Array,
  ): void;
  cancel(ids: Uint32Array): void;
  cancelAll(): void;
  /** Opens n connections ahead of the first requests (each thread its share, within the cap). */
  preconnect(n: number): void;
  /**
   * The slot gate: at most `slots` requests run at once, those submitted beyond wait in order and
   * start the moment one ends, on the I/O thread (0: off; anything waiting starts at once).
   * `held`: no slot is free until the next call without it (a first wave starts together).
   */
  setGate(slots: number, held?: boolean): void;
  /** Ends every request still waiting for a slot of the gate, unsent (its error type 'unsent'). */
  cancelWaiting(): void;
  /** Cancels what is in flight, joins the threads, and delivers the last records before returning. */
  close(): void;
  stats(): {
    requests_started: number;
    requests_completed: number;
    requests_live: number;
    connections_opened: number;
    connections_live: number;
    reads: number;
    /** epoll_wait calls that returned a ready socket: the I/O threads' wake-ups that read. */
    polls: number;
    retries: number;
    /** I/O threads running SCHED_FIFO now (needs root or CAP_SYS_NICE). */
    realtime_threads: number;
    /** I/O threads running with a short slice or nice -10 now. */
    raised_threads: number;
    /** Times an I/O thread left SCHED_FIFO because it was busy over 75% of 100 ms. */
    realtime_demotions: number;
    /**
     * Per read: its stamp − when the loop could first have read it (the start of a coalescing
     * sleep, else the return of epoll_wait); percentiles to within 1 µs below 64 µs, 12.5 % above.
     */
    read_delay_count: number;
    read_delay_mean_ns: number;
    read_delay_p50_ns: number;
    read_delay_p99_ns: number;
    read_delay_max_ns: number;
    /** Times an I/O thread held off its next look at its sockets (read coalescing). */
    coalesce_sleeps: number;
    /**
     * Reads stamped with the kernel's receive time (kernelStamps), and per such read recv() return −
     * that time: how late the client read, which those stamps do not carry. Same percentile precision.
     */
    kernel_stamped_reads: number;
    arrival_lag_mean_ns: number;
    arrival_lag_p50_ns: number;
    arrival_lag_p99_ns: number;
    arrival_lag_max_ns: number;
    /** TLS handshakes completed, and how many of them resumed a cached session. */
    tls_handshakes: number;
    tls_resumed: number;
    /** Connections asked for by preconnect() and not yet up; those that failed leave the count too. */
    connections_warming: number;
    /** Connections preconnect() opened and put in the idle pool. */
    connections_preconnected: number;
    /** Submitted requests waiting for a slot of the gate. */
    gate_waiting: number;
  };
}

/** What opening one GPU vendor library gave (see native/gpu/telemetry_backend.h). */
export interface PowerLibraryStatus {
  state: 'off' | 'ok' | 'not_found' | 'invalid' | 'init_failed' | 'no_devices';
  /** The path loaded, or the last one tried. */
  path: string;
  /** One line; empty when state is 'ok'. */
  message: string;
}

export interface PowerDeviceStatus {
  vendor: 'nvidia' | 'amd';
  /** The vendor's own GPU index (as nvidia-smi / amd-smi number them). */
  index: number;
  has_energy: boolean;
  failed: boolean;
  error: string;
  samples: number;
}

/** Drained samples as columns; `device` indexes devices(). Unreadable fields are NaN. */
export interface PowerBatch {
  device: Uint32Array;
  /** CLOCK_MONOTONIC ns: the midpoint of the energy-counter read (of the power read without a counter). */
  t_ns: BigInt64Array;
  power_mw: Float64Array;
  /** Total-energy counter (mJ); NaN where the GPU has none or the read failed. */
  energy_mj: Float64Array;
  gpu_util_pct: Float64Array;
  mem_util_pct: Float64Array;
  mem_used_bytes: Float64Array;
  temp_c: Float64Array;
  sm_clock_mhz: Float64Array;
}

export interface PowerPollerOptions {
  /** Candidate paths for libnvidia-ml, tried in order; empty: NVIDIA off. */
  nvml?: string[];
  /** Candidate paths for libamd_smi; empty: AMD off. */
  amdsmi?: string[];
  /** Sampling interval, ns (>= 1 ms). */
  interval_ns?: number;
  /** Ring-buffer slots; when full the oldest sample is dropped (counted in stats().dropped). */
  capacity?: number;
}

/** The native GPU power poller (native/gpu/power.h); src/telemetry/poller.ts wraps it. */
export interface NativePowerPoller {
  libraries(): { nvidia: PowerLibraryStatus; amd: PowerLibraryStatus };
  devices(): PowerDeviceStatus[];
  start(): void;
  drain(max?: number): PowerBatch;
  /** Joins the polling thread, then closes the libraries. Idempotent. */
  stop(): void;
  stats(): { ticks: number; dropped: number; thread_cpu_ns: number; running: boolean };
}

/**
 * One HDR histogram (native/hdr/hdr.h): lowest discernible value 1, 1–5 significant digits, int64
 * counts, auto-resizing. Values are multiplied by `scale` and rounded half up to integers; a
 * negative value is recorded as 0 and counted in `clamped`. count/min/max/mean/std/sum are exact
 * statistics of the recorded (scaled, pre-rounding) values; only percentiles are bucketed. After
 * `decode` they are estimated from the buckets. src/metrics/core/histogram.ts is the validating wrapper.
 */
export interface NativeHistogram {
  /** Records one value times `scale` (default 1); NaN, ±Infinity or ≥ 2^62 after scaling throw. */
  record(value: number, scale?: number): void;
  /** Records every value times `scale`, all or nothing (a refused value throws and records none). */
  recordValues(values: Float64Array | BigInt64Array, scale?: number): void;
  /** Records values[i] times `scale`, weights[i] times each (whole numbers 0 to 2^53), all or nothing. */
  recordWeighted(values: Float64Array, weights: Float64Array, scale?: number): void;
  /** HdrHistogram's value at percentile p ∈ [0, 100], clamped to [min, max]; 0 when empty. */
  valueAtPercentile(p: number): number;
  /** Many percentiles in one walk over the counts. */
  valuesAtPercentiles(ps: Float64Array): Float64Array;
  /** The most populated bucket (the lowest on ties): its median-equivalent value, clamped to [min, max], and its count; {0, 0} when empty. */
  mode(): { value: number; count: number };
  /** Adds other's counts and statistics (same significant digits). */
  merge(other: NativeHistogram): void;
  reset(): void;
  /** The uncompressed HdrHistogram V2 encoding (histogram-codec.ts adds the zlib/base64 envelope). */
  encode(): Buffer;
  readonly count: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  /** Population standard deviation. */
  readonly std: number;
  readonly sum: number;
  readonly clamped: number;
  readonly significantDigits: number;
  readonly highestTrackableValue: number;
}

export interface NativeHistogramClass {
  new (significantDigits?: number, highestTrackableValue?: number): NativeHistogram;
  /** Parses an uncompressed V2 encoding; a bad one throws an Error with code SB_HDR_DECODE. */
  decode(data: Uint8Array): NativeHistogram;
}

/** Options of the fast mock (native/mockserver/mockserver.h); src/mock/fast.ts wraps it. */
export interface MockServerOptions {
  /** Numeric IPv4 or IPv6 address to bind. */
  host?: string;
  /** 0: a free port. */
  port?: number;
  /** Serving threads, each with its own socket on the port (SO_REUSEPORT). */
  workers?: number;
  ttftMs?: number;
  itlMs?: number;
  /** Output vocabulary: one token each, needing no JSON escaping. */
  words?: string[];
  model?: string;
  /** Output length when a request sets no max_tokens. */
  defaultTokens?: number;
  /** Each event carries "sb_send_ns": the CLOCK_MONOTONIC time of the write() that sent it (19 digits, a string). */
  stampEvents?: boolean;
  /** Serve TLS with this PEM certificate chain and key (native/mockserver/mockserver_tls.h); with tlsClientCa, client certificates are required. */
  tlsCert?: string;
  tlsKey?: string;
  tlsClientCa?: string;
}

export interface NativeMockServer {
  port(): number;
  stats(): { connections: number; requests: number; events: number };
  /** Closes every socket and joins the threads. Idempotent. */
  close(): void;
}

export interface NativeAddon {
  abiVersion: number;
  /**
   * Frames one response body (see src/transport/sse.ts, the validating
   * wrapper). Wrong argument types throw a TypeError with code SB_NATIVE_BAD_ARG.
   */
  frameSse(chunks: Uint8Array[], stamps: BigInt64Array): SseFrames;
  /** Frames and decodes one response per call (see src/transport/sse.ts); a malformed spec throws SB_NATIVE_BAD_ARG. */
  SseDecoder: new (spec: DecodeSpec) => NativeSseDecoder;
  /**
   * The time-weighted (Effective / Active) metrics of a run, in one call over per-request columns
   * (see src/metrics/core/timeline.ts, the validating wrapper, and native/timeline/timeline.h for the result layout).
   * Bad arguments, or a request that breaks start <= generationStart <= end, throw a TypeError
   * with code SB_NATIVE_BAD_ARG.
   */
  timeline(
    start: Float64Array,
    generationStart: Float64Array,
    end: Float64Array,
    isl: Float64Array,
    osl: Float64Array,
    windowStart: number,
    windowEnd: number,
  ): Float64Array;
  /** HDR histograms (native/hdr/hdr.h); bad arguments throw a TypeError with code SB_NATIVE_BAD_ARG. */
  Histogram: NativeHistogramClass;
  /**
   * Parses one HTTP/1.1 response fed as `chunks` (chunk i stamped i), then a
   * connection close when `eof` (the native engine's parser, exposed for tests).
   */
  http1Parse(chunks: Uint8Array[], eof: boolean): Http1ParseResult;
  /** The native stream engine; absent from builds without it. `onRecords` gets finished requests in batches. */
  Engine?: new (opts: EngineOptions, onRecords: (batch: EngineBatch) => void) => NativeEngine;
  /** The fast mock's serving loop; starts on construction (throws SB_MOCK_START when it cannot listen). */
  MockServer?: new (opts: MockServerOptions) => NativeMockServer;
  /** Opens the GPU libraries (dlopen, never linked) on construction; bad options throw SB_NATIVE_BAD_ARG. */
  PowerPoller: new (opts: PowerPollerOptions) => NativePowerPoller;
}

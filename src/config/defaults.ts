// Defaults shared by the CLI help and validation.
import { DEFAULT_ISL } from '../dataset/config.js';
import { DEFAULT_SIZE_CAPS } from '../transport/types.js';

/**
 * --read-coalesce-us: the default window, and the most it may be (the engine takes up to 10 ms).
 * Eager by default: on the whole command a 50 µs window cost more client CPU per event than it
 * saved (docs/transports.md, read coalescing), though it lowers the I/O thread's own system time.
 */
export const DEFAULT_READ_COALESCE_US = 0;
export const MAX_READ_COALESCE_US = 10_000;

/** The bounds of --max-response-bytes and --max-event-bytes (the native engine keeps 32-bit offsets). */
export const MIN_SIZE_CAP = 1024;
export const MAX_SIZE_CAP = 1024 * 1024 * 1024;
/** `--tokenizer server`: count and synthesize with the server's own tokenize endpoint (tokenizer/server.ts). */
export const SERVER_TOKENIZER = 'server';
/** `--tokenizer cl100k`: the built-in cl100k BPE (tokenizer/resolve.ts DEFAULT_TOKENIZER_PACKAGE), whatever --model is. */
export const CL100K_TOKENIZER = 'cl100k';

export const DEFAULTS = {
  model: 'mock-model',
  endpoint_type: 'chat',
  concurrency: 8,
  request_count: 100,
  warmup_request_count: 0,
  request_timeout_s: 600,
  isl_mean: DEFAULT_ISL,
  isl_stddev: 0,
  osl_mean: 64,
  osl_stddev: 0,
  random_seed: 0,
  export_level: 'records',
  ui: 'auto',
  // HDR histogram precision: percentiles within 10^-3 (0.1 %) of exact.
  histogram_significant_digits: 3,
  transport: 'auto',
  transport_threads: 1,
  // Native engine read coalescing, µs (0: eager); the choice is measured in bench/reads.js.
  read_coalesce_us: DEFAULT_READ_COALESCE_US,
  // Open the closed loop's connections before the first request, as wrk does (--no-preconnect: not).
  preconnect: true,
  // Stamp reads when recv() returns; --kernel-stamps: with the kernel's receive time (docs/transports.md, Kernel receive stamps).
  kernel_stamps: false,
  // Caps on one response's body and one SSE event (--max-response-bytes, --max-event-bytes).
  max_response_bytes: DEFAULT_SIZE_CAPS.maxResponseBytes,
  max_event_bytes: DEFAULT_SIZE_CAPS.maxEventBytes,
  /** Most --record-workers accepted; the default is the cores left to spare (defaultRecordWorkers). */
  record_workers_max: 64,
  // AIPerf's defaults (usage discrepancy 10 %; OSL mismatch 5 % capped at 50 tokens; probes every 1 s).
  usage_discrepancy_threshold_pct: 10,
  osl_mismatch_pct_threshold: 5,
  osl_mismatch_max_token_threshold: 50,
  network_latency_ping_interval_s: 1,
} as const;

/** Every --endpoint-type, in the order the help lists them. */
export const ENDPOINT_TYPES = [
  'chat',
  'completions',
  'embeddings',
  'rankings',
  'responses',
  'messages',
  'transcriptions',
  'image_generation',
  'video_generation',
  'template',
  'realtime',
] as const;

export const ENDPOINT_PATHS = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  rankings: '/v1/rerank',
  responses: '/v1/responses',
  messages: '/v1/messages',
  transcriptions: '/v1/audio/transcriptions',
  image_generation: '/v1/images/generations',
  video_generation: '/v1/videos',
  template: '/generate',
  realtime: '/v1/realtime',
} as const;

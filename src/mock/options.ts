// Mock server options: the one typed shape shared by the CLI, startMockServer and tests,
// with the defaults and the validation in one place so the CLI and in-process users agree.
import { InvalidArgumentError } from '../errors.js';
import { TOKENIZER_KINDS, type TokenizerKind } from './words.js';
import { METRICS_FORMATS, type MetricsFormat } from './server-metrics.js';

export const FAIL_MODES = ['http500', 'http429', 'reset', 'malformed', 'sse-error', 'hang'] as const;
export type FailMode = (typeof FAIL_MODES)[number];

export interface MockOptions {
  /** Interface to bind. */
  host: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Name served by /v1/models and used in responses when a request names no model. */
  modelName: string;
  /** Time from the end of the request body to the first token. */
  ttftMs: number;
  /** Time between token chunks. 0 writes as fast as the socket takes it. */
  itlMs: number;
  tokensPerChunk: number;
  /** Tokens of `reasoning_content` streamed before the content (chat only), on top of the content length. */
  reasoningTokens: number;
  /** Seeds output text, default lengths, early stops and --fail-rate. */
  seed: number;
  /** Send the role-only first chunk this many ms before the first token (0: in the same write). */
  roleChunkLeadMs: number;
  /** Streaming: write the usage chunk this many ms after the last token chunk (0: in the same write), as vLLM may. */
  usageDelayMs: number;
  /** Streaming: write [DONE] and end the stream this many ms after the usage chunk (or where it would be), as a gateway may. */
  doneDelayMs: number;
  /** Per-token probability of stopping early; only when ignore_eos is false, never below min_tokens. */
  eosProbability: number;
  /** Every Nth generation request (counting from 1) gets the fault; 0 = off. */
  failEvery: number;
  /** Probability that a generation request gets the fault (seeded); 0 = off. */
  failRate: number;
  failMode: FailMode;
  /** Speculative decoding: drafts proposed per verify step (0 = off; see spec-decode.ts). */
  specDecodeDraftLen: number;
  /** Per-draft acceptance probability, drafts checked in order until the first rejection. */
  specDecodeAcceptance: number;
  /**
   * cl100k: output words of one cl100k token each, prompt_tokens estimated, no /tokenize. words: the
   * mock's own tokenizer (words.ts) for usage and output, served at POST /tokenize.
   */
  tokenizerKind: TokenizerKind;
  /** Whose names the mock's /metrics uses (vllm, sglang, trtllm on /prometheus/metrics, llamacpp). */
  metricsFormat: MetricsFormat;
  /** Generation requests served at once; the rest wait in arrival order (capacity.ts). 0: no limit. */
  maxConcurrent: number;
  /** Append every received request as one JSON line to this file; null = off. */
  recordRequests: string | null;
  /** Write the one-line startup/shutdown logs to stderr. */
  log: boolean;
}

export const MOCK_DEFAULTS: Readonly<MockOptions> = Object.freeze({
  host: '127.0.0.1',
  port: 8000,
  modelName: 'mock-model',
  ttftMs: 20,
  itlMs: 5,
  tokensPerChunk: 1,
  reasoningTokens: 0,
  seed: 0,
  roleChunkLeadMs: 0,
  usageDelayMs: 0,
  doneDelayMs: 0,
  eosProbability: 0,
  failEvery: 0,
  failRate: 0,
  failMode: 'http500',
  specDecodeDraftLen: 0,
  specDecodeAcceptance: 0.7,
  tokenizerKind: 'cl100k',
  metricsFormat: 'vllm',
  maxConcurrent: 0,
  recordRequests: null,
  log: true,
});

/** Output length when a request sets no max_tokens: seeded, uniform in [min, max]. */
export const DEFAULT_LENGTH_MIN = 16;
export const DEFAULT_LENGTH_MAX = 128;
/** Largest max_tokens accepted; bigger asks get a 400 rather than a multi-GB body. */
export const MAX_OUTPUT_TOKENS = 1_000_000;

function num(name: string, v: unknown, min: number, max: number, integer: boolean): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    const kind = integer ? 'an integer' : 'a number';
    const range = max === Infinity ? `>= ${min}` : `in [${min}, ${max}]`;
    throw new InvalidArgumentError(`--${name} must be ${kind} ${range} (got ${String(v)})`);
  }
  return n;
}

/** Fill defaults and validate; throws InvalidArgumentError naming the first bad option. */
export function resolveMockOptions(partial: Partial<MockOptions> = {}): MockOptions {
  const o: MockOptions = { ...MOCK_DEFAULTS, ...stripUndefined(partial) };
  if (typeof o.host !== 'string' || o.host === '') throw new InvalidArgumentError('--host must be a non-empty string');
  if (typeof o.modelName !== 'string' || o.modelName === '') {
    throw new InvalidArgumentError('--model-name must be a non-empty string');
  }
  o.port = num('port', o.port, 0, 65535, true);
  o.ttftMs = num('ttft-ms', o.ttftMs, 0, 3_600_000, false);
  o.itlMs = num('itl-ms', o.itlMs, 0, 3_600_000, false);
  o.tokensPerChunk = num('tokens-per-chunk', o.tokensPerChunk, 1, MAX_OUTPUT_TOKENS, true);
  o.reasoningTokens = num('reasoning-tokens', o.reasoningTokens, 0, MAX_OUTPUT_TOKENS, true);
  o.seed = num('seed', o.seed, 0, 2 ** 32 - 1, true);
  o.roleChunkLeadMs = num('role-chunk-lead-ms', o.roleChunkLeadMs, 0, 3_600_000, false);
  o.usageDelayMs = num('usage-delay-ms', o.usageDelayMs, 0, 3_600_000, false);
  o.doneDelayMs = num('done-delay-ms', o.doneDelayMs, 0, 3_600_000, false);
  o.eosProbability = num('eos-probability', o.eosProbability, 0, 1, false);
  o.failEvery = num('fail-every', o.failEvery, 0, Number.MAX_SAFE_INTEGER, true);
  o.failRate = num('fail-rate', o.failRate, 0, 1, false);
  o.specDecodeDraftLen = num('spec-decode-draft-len', o.specDecodeDraftLen, 0, 64, true);
  o.maxConcurrent = num('max-concurrent', o.maxConcurrent, 0, 1_000_000, true);
  o.specDecodeAcceptance = num('spec-decode-acceptance', o.specDecodeAcceptance, 0, 1, false);
  if (!(FAIL_MODES as readonly string[]).includes(o.failMode)) {
    throw new InvalidArgumentError(`--fail-mode must be one of ${FAIL_MODES.join('|')} (got ${String(o.failMode)})`);
  }
  if (!(TOKENIZER_KINDS as readonly string[]).includes(o.tokenizerKind)) {
    throw new InvalidArgumentError(`--tokenizer-kind must be one of ${TOKENIZER_KINDS.join('|')} (got ${String(o.tokenizerKind)})`);
  }
  if (!(METRICS_FORMATS as readonly string[]).includes(o.metricsFormat)) {
    throw new InvalidArgumentError(`--metrics-format must be one of ${METRICS_FORMATS.join('|')} (got ${String(o.metricsFormat)})`);
  }
  if (o.recordRequests !== null && (typeof o.recordRequests !== 'string' || o.recordRequests === '')) {
    throw new InvalidArgumentError('--record-requests must be a file path');
  }
  return o;
}

function stripUndefined<T extends object>(p: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(p)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

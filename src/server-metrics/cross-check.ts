// The client–server cross-check: the server's TTFT beside the client's (the difference is the
// network plus the client), its generation-token counter beside the client's output tokens, and
// its requests running beside the client's effective concurrency. A large disagreement is one line.
import { findMetric, type MetricsSummary } from '../metrics/core/summary.js';
import type { ConceptSummary } from './concepts.js';

export interface CrossCheck {
  ttft: {
    server_p50_ms: number;
    client_p50_ms: number;
    difference_p50_ms: number;
    server_p99_ms: number | null;
    client_p99_ms: number | null;
    difference_p99_ms: number | null;
    /** The server bucket its p50 fell in, ms: the resolution of the comparison. */
    server_p50_bucket_ms: [number, number];
  } | null;
  generation_tokens: { server: number; client: number; difference_pct: number } | null;
  requests_running: { server_avg: number; client_effective_concurrency: number; difference_pct: number } | null;
  /** The trace's ideal infinite-cache hit rate beside the server's reported one (both in %). */
  prefix_cache: { theoretical_pct: number; server_pct: number } | null;
  warnings: string[];
}

/** Disagreements past these get a warning line. */
export const TOKENS_WARN_PCT = 10;
export const RUNNING_WARN_PCT = 25;

function stat(summary: MetricsSummary, tag: string, key: 'avg' | 'p50' | 'p99'): number | null {
  const m = findMetric(summary, tag);
  if (!m) return null;
  const v = (m.stats as unknown as Record<string, number | undefined>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

const pct = (a: number, b: number) => (b === 0 ? (a === 0 ? 0 : Infinity) : (100 * (a - b)) / b);
const f = (v: number, d = 1) => v.toFixed(d);

/** `concepts`: each concept once (summed over endpoints where that makes sense; see run.ts). */
export function crossCheck(concepts: ReadonlyMap<string, ConceptSummary>, summary: MetricsSummary): CrossCheck {
  const out: CrossCheck = { ttft: null, generation_tokens: null, requests_running: null, prefix_cache: null, warnings: [] };
  const ttft = concepts.get('ttft')?.histogram;
  const clientP50 = stat(summary, 'time_to_first_token', 'p50');
  if (ttft?.p50 && clientP50 !== null) {
    const clientP99 = stat(summary, 'time_to_first_token', 'p99');
    const s50 = ttft.p50.value * 1e3;
    const c50 = clientP50 / 1e6;
    const s99 = ttft.p99 ? ttft.p99.value * 1e3 : null;
    const c99 = clientP99 === null ? null : clientP99 / 1e6;
    const bucket: [number, number] = [ttft.p50.bucket[0] * 1e3, ttft.p50.bucket[1] * 1e3];
    out.ttft = {
      server_p50_ms: s50,
      client_p50_ms: c50,
      difference_p50_ms: c50 - s50,
      server_p99_ms: s99,
      client_p99_ms: c99,
      difference_p99_ms: s99 !== null && c99 !== null ? c99 - s99 : null,
      server_p50_bucket_ms: bucket,
    };
    // The server cannot see a first token later than the client does, beyond its bucket's width.
    if (s50 - c50 > bucket[1] - bucket[0])
      out.warnings.push(
        `warning: server TTFT p50 ${f(s50)} ms is above the client's ${f(c50)} ms by more than its bucket (${f(bucket[0])}–${f(bucket[1])} ms); are the server's metrics from this run?`,
      );
  }
  const gen = concepts.get('generation_tokens')?.counter;
  const clientTokens = stat(summary, 'total_output_tokens', 'avg');
  if (gen && clientTokens !== null) {
    const d = pct(gen.increase, clientTokens);
    out.generation_tokens = { server: gen.increase, client: clientTokens, difference_pct: d };
    if (Math.abs(d) > TOKENS_WARN_PCT)
      out.warnings.push(
        `warning: the server generated ${Math.round(gen.increase)} tokens in the window, the client counted ${Math.round(clientTokens)} output tokens (${f(d)} %)`,
      );
  }
  const running = concepts.get('requests_running')?.gauge;
  const eff = stat(summary, 'effective_concurrency', 'avg');
  if (running && eff !== null) {
    const d = pct(running.avg, eff);
    out.requests_running = { server_avg: running.avg, client_effective_concurrency: eff, difference_pct: d };
    if (Math.abs(d) > RUNNING_WARN_PCT)
      out.warnings.push(
        `warning: the server ran ${f(running.avg, 2)} requests on average, the client's effective concurrency was ${f(eff, 2)} (${f(d)} %)`,
      );
  }
  const hit = concepts.get('prefix_cache_hit_rate');
  const serverHit = hit?.value ?? hit?.gauge?.avg;
  const ideal = stat(summary, 'theoretical_prefix_cache_hit_rate', 'avg');
  if (serverHit !== undefined && ideal !== null) out.prefix_cache = { theoretical_pct: ideal, server_pct: serverHit };
  return out;
}

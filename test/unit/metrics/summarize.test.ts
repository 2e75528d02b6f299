import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/metrics/accumulate.js';
import { findMetric, type DistributionResult, type MetricsSummary, type SingleResult } from '../../../src/metrics/core/summary.js';
import { defaultRegistry } from '../../../src/metrics/catalogue.js';
import { MS, processed } from './fixtures.js';

const T0 = 10_000_000_000n; // 10 s on the monotonic clock
const at = (ms: number) => T0 + BigInt(ms * MS);

function dist(s: MetricsSummary, tag: string): DistributionResult {
  const m = findMetric(s, tag);
  if (m?.kind !== 'distribution') throw new Error(`${tag} is not a distribution`);
  return m;
}
function single(s: MetricsSummary, tag: string): SingleResult {
  const m = findMetric(s, tag);
  if (m?.kind !== 'single') throw new Error(`${tag} is not a single value`);
  return m;
}

describe('summarize', () => {
  // Profiling: three successes, one error, one cancelled; one warmup success outside the window.
  const ok1 = processed({ start: at(0), tokens: [40, 50, 60], end: 100, input: 100, output: 10 }, { index: 1 });
  const ok2 = processed({ start: at(100), tokens: [60, 80], end: 200, input: 100, output: 20 }, { index: 2 });
  const ok3 = processed({ start: at(200), tokens: [20, 30, 40], end: 1800, input: 300, output: 30 }, { index: 3 });
  const err = processed({ start: at(500), tokens: [], end: 1500, input: 100, output: null }, { status: 'error', index: 4 });
  // An error record carrying a (bogus) value must not reach the distributions.
  err.metrics = new Map([...err.metrics, ['time_to_first_token', 1]]);
  const cancelled = processed({ start: at(1900), tokens: [5], end: 5000 }, { status: 'cancelled', index: 5 });
  const warm = processed({ start: at(-5000), tokens: [1000], end: 9000, output: 99 }, { phase: 'warmup', index: 0 });
  const s = summarize([warm, ok1, ok2, err, ok3, cancelled]);

  it('counts every profiling record by status and ignores warmup', () => {
    expect(s.counts).toEqual({ issued: 5, succeeded: 3, errored: 1, cancelled: 1 });
    expect(single(s, 'request_count').stats.avg).toBe(3);
    expect(single(s, 'error_request_count').stats.avg).toBe(1);
    expect(single(s, 'request_error_rate').stats.avg).toBe(25);
  });

  it('builds distributions from successful records only, in base units', () => {
    const ttft = dist(s, 'time_to_first_token');
    expect(ttft.unit).toBe('ns');
    expect(ttft.display).toBe('ms');
    expect(ttft.stats.count).toBe(3);
    expect(ttft.stats.min).toBe(20 * MS);
    expect(ttft.stats.max).toBe(60 * MS);
    expect(ttft.stats.avg).toBe(40 * MS);
    // To the last content chunk: ok2's 80 ms, not ok3's last byte at 1800 ms.
    expect(dist(s, 'request_latency').stats.max).toBe(80 * MS);
  });

  it('flattens list metrics over records', () => {
    // ok1: 10, 10; ok2: 20; ok3: 10, 10 (ms).
    const icl = dist(s, 'inter_chunk_latency');
    expect(icl.stats.count).toBe(5);
    expect(icl.stats.max).toBe(20 * MS);
    // HDR percentile (3 digits): 10 ms falls in the bucket [1220 · 8192, 1221 · 8192) ns, and the
    // bucket's highest value is reported: 9 994 240 + 8191 = 10 002 431 ns (+0.024 %).
    expect(icl.stats.p50).toBe(10_002_431);
    expect(icl.stats.p99).toBe(20 * MS); // the top bucket's highest value, clamped to the exact max
    expect(icl.stats.avg).toBe(12 * MS); // exact, not bucketed
  });

  it('records the histogram precision and keeps one histogram per metric with values', () => {
    expect(s.histogram_significant_digits).toBe(3);
    expect(s.histograms?.get('inter_chunk_latency')?.count).toBe(5);
    expect(s.histograms?.has('reasoning_token_count')).toBe(false);
    const fine = summarize([ok1, ok2, ok3], { significantDigits: 5 });
    expect(fine.histogram_significant_digits).toBe(5);
    // At 5 digits 10 ms lies in a 64-ns bucket: 156 250 · 64 = 10 ms exactly, reported + 63.
    expect(dist(fine, 'inter_chunk_latency').stats.p50).toBe(10 * MS + 63);
    expect(() => summarize([ok1], { significantDigits: 6 })).toThrow(/significant digits/);
  });

  it('window: first request sent (ok or error) to the last start + request_latency of a successful one', () => {
    const min = single(s, 'min_request_timestamp');
    expect(min.stats.exact).toBe(at(0));
    // ok3's last content chunk (200 + 40 ms); its last byte (2000 ms), the error's end (2000 ms),
    // the cancelled request (ends at 6900 ms) and the warmup are outside.
    expect(single(s, 'max_response_timestamp').stats.exact).toBe(at(240));
    expect(single(s, 'benchmark_duration').stats.avg).toBe(240 * MS);
  });

  it('totals and throughputs over the window', () => {
    expect(single(s, 'total_osl').stats.avg).toBe(60);
    expect(single(s, 'total_output_tokens').stats.avg).toBe(60);
    expect(single(s, 'total_isl').stats.avg).toBe(500);
    expect(single(s, 'output_token_throughput').stats.avg).toBeCloseTo(60 / 0.24, 9);
    expect(single(s, 'total_token_throughput').stats.avg).toBeCloseTo(560 / 0.24, 9);
    expect(single(s, 'request_throughput').stats.avg).toBeCloseTo(3 / 0.24, 9);
    expect(single(s, 'output_token_throughput').unit).toBe('tokens/s');
  });

  it('has no reasoning metrics when no record reasoned', () => {
    expect(findMetric(s, 'reasoning_token_count')).toBeUndefined();
    expect(findMetric(s, 'total_reasoning_tokens')).toBeUndefined();
  });

  it('lists metrics in display (declaration) order', () => {
    const order = defaultRegistry()
      .declarationOrder()
      .map((d) => d.tag);
    const tags = s.metrics.map((m) => m.tag);
    expect(tags).toEqual(order.filter((t) => tags.includes(t)));
  });
});

describe('summarize edge cases', () => {
  it('no requests: counts are zero, error rate omitted, no window or throughput', () => {
    const s = summarize([]);
    expect(s.counts).toEqual({ issued: 0, succeeded: 0, errored: 0, cancelled: 0 });
    expect(single(s, 'request_count').stats.avg).toBe(0);
    expect(findMetric(s, 'request_error_rate')).toBeUndefined();
    expect(findMetric(s, 'benchmark_duration')).toBeUndefined();
    expect(findMetric(s, 'request_throughput')).toBeUndefined();
    expect(findMetric(s, 'total_osl')).toBeUndefined();
    expect(s.metrics.some((m) => m.kind === 'distribution')).toBe(false);
  });

  it('only cancelled requests: still no error rate', () => {
    const s = summarize([processed({ start: T0 }, { status: 'cancelled' })]);
    expect(s.counts).toEqual({ issued: 1, succeeded: 0, errored: 0, cancelled: 1 });
    expect(findMetric(s, 'request_error_rate')).toBeUndefined();
  });

  it('all errors: 100 % error rate; no request latency, so no response timestamp, duration or throughput', () => {
    const s = summarize([processed({ start: T0, end: 10 }, { status: 'error' }), processed({ start: T0, end: 30 }, { status: 'error' })]);
    expect(single(s, 'request_error_rate').stats.avg).toBe(100);
    expect(single(s, 'min_request_timestamp').stats.exact).toBe(T0);
    // max(timestamp + request_latency) runs over records with a latency, and errors have none.
    expect(findMetric(s, 'max_response_timestamp')).toBeUndefined();
    expect(findMetric(s, 'benchmark_duration')).toBeUndefined();
    expect(findMetric(s, 'request_throughput')).toBeUndefined();
    expect(findMetric(s, 'total_osl')).toBeUndefined();
    expect(findMetric(s, 'output_token_throughput')).toBeUndefined();
  });

  it('reasoning totals appear when records reasoned', () => {
    const s = summarize([
      processed({ start: T0, tokens: [10, 20], output: 3, reasoning: 4 }),
      processed({ start: T0, tokens: [10, 20], output: 3, reasoning: 6 }),
    ]);
    expect(dist(s, 'reasoning_token_count').stats.avg).toBe(5);
    expect(single(s, 'total_reasoning_tokens').stats.avg).toBe(10);
    expect(single(s, 'total_osl').stats.avg).toBe(16);
    expect(single(s, 'total_output_tokens').stats.avg).toBe(6);
  });

  it('counts by the processed status: a parse error on a 200 response is an error', () => {
    const r = processed({ start: T0, tokens: [10, 20] });
    r.status = 'error';
    r.error = { type: 'parse_error', message: 'bad json', http_status: 200 };
    const s = summarize([r, processed({ start: T0, tokens: [10, 20] })]);
    expect(s.counts).toEqual({ issued: 2, succeeded: 1, errored: 1, cancelled: 0 });
    expect(dist(s, 'time_to_first_token').stats.count).toBe(1);
  });

  it('keeps stamps beyond 2^53 ns exact', () => {
    const big = 2n ** 60n + 1n;
    const s = summarize([processed({ start: big, tokens: [1], end: 2 })]);
    expect(single(s, 'min_request_timestamp').stats.exact).toBe(big);
    // The content chunk at 1 ms, not the last byte at 2 ms.
    expect(single(s, 'max_response_timestamp').stats.exact).toBe(big + 1_000_000n);
    expect(single(s, 'benchmark_duration').stats.avg).toBe(1 * MS);
  });

  it('a zero-length window has a duration but no throughput', () => {
    const s = summarize([processed({ start: T0, tokens: [], end: 0, streaming: false })]);
    expect(single(s, 'benchmark_duration').stats.avg).toBe(0);
    expect(findMetric(s, 'request_throughput')).toBeUndefined();
  });
});

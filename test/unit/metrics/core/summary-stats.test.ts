// GuideLLM's full summary from hand-built histograms: mean, median, mode, variance, std, min,
// max, count, sum and p0.1 … p99.9, and how they reach profile_export.json.
import { describe, expect, it } from 'vitest';
import { MetricHistogram } from '../../../../src/metrics/core/histogram.js';
import { histogramStats, SUMMARY_PERCENTILES } from '../../../../src/metrics/core/stats.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { findMetric, type DistributionResult } from '../../../../src/metrics/core/summary.js';
import { buildProfileExport } from '../../../../src/export/json.js';
import { processed } from '../fixtures.js';

function hist(values: number[], unit: 'tokens' | 'ns' | 'percent' = 'tokens'): MetricHistogram {
  const h = new MetricHistogram(unit);
  for (const v of values) h.add(v);
  return h;
}

describe('every statistic of a hand-built histogram', () => {
  // Sorted: 1 2 2 3 3 3 10 (n = 7).
  const s = histogramStats(hist([3, 1, 2, 10, 3, 2, 3]))!;

  it('count, sum, mean, min, max', () => {
    expect(s.count).toBe(7);
    expect(s.sum).toBe(24);
    expect(s.avg).toBeCloseTo(24 / 7, 12);
    expect(s.min).toBe(1);
    expect(s.max).toBe(10);
  });
  it('population variance and std', () => {
    const mean = 24 / 7;
    const variance = [1, 2, 2, 3, 3, 3, 10].reduce((a, v) => a + (v - mean) ** 2, 0) / 7;
    expect(s.variance).toBeCloseTo(variance, 10);
    expect(s.std).toBeCloseTo(Math.sqrt(variance), 10);
  });
  it('median is the nearest-rank p50 (rank ⌈3.5⌉ = 4 → 3)', () => {
    expect(s.median).toBe(3);
    expect(s.p50).toBe(3);
  });
  it('mode: the most frequent value (one-unit buckets)', () => {
    expect(s.mode).toBe(3);
  });
  it('nearest-rank percentiles from p0.1 to p99.9', () => {
    const sorted = [1, 2, 2, 3, 3, 3, 10];
    for (const p of SUMMARY_PERCENTILES) {
      const rank = Math.max(1, Math.ceil((p / 100) * 7));
      expect(s[`p${p}`], `p${p}`).toBe(sorted[rank - 1]);
    }
    expect(s['p0.1']).toBe(1);
    expect(s['p99.9']).toBe(10);
  });
});

describe('mode', () => {
  it('takes the lowest bucket on a tie', () => {
    expect(histogramStats(hist([7, 7, 4, 4, 9]))!.mode).toBe(4);
  });
  it('is the median-equivalent value of the most populated bucket where buckets are wide', () => {
    // At 3 digits, 100 000 lies in a 64-wide bucket [99 968, 100 031]: its middle is 100 000.
    const s = histogramStats(hist([99_970, 100_001, 100_020, 500, 70_000]))!;
    expect(s.mode).toBe(100_000);
  });
  it('is clamped to the exact range', () => {
    const s = histogramStats(hist([100_030, 100_031]))!;
    expect(s.mode).toBeGreaterThanOrEqual(100_030);
    expect(s.mode).toBeLessThanOrEqual(100_031);
  });
  it('works across signs (signed metrics)', () => {
    expect(histogramStats(hist([-5, -5, -5, 2, 2], 'percent'))!.mode).toBe(-5);
    expect(histogramStats(hist([-5, 2, 2], 'percent'))!.mode).toBe(2);
    const s = histogramStats(hist([-5, 2, 2], 'percent'))!;
    expect(s['p0.1']).toBe(-5);
    expect(s.sum).toBeCloseTo(-1, 9);
  });
});

describe('values at ranks', () => {
  it('reads the k-th smallest value, negatives included', () => {
    const h = hist([5, -3, 8, 1, -10]);
    expect(h.valuesAtRanks([1, 2, 3, 4, 5])).toEqual([-10, -3, 1, 5, 8]);
  });
  it('refuses a rank outside 1..count', () => {
    const h = hist([1, 2, 3]);
    expect(() => h.valuesAtRanks([0])).toThrow(/rank/);
    expect(() => h.valuesAtRanks([4])).toThrow(/rank/);
    expect(new MetricHistogram('tokens').valuesAtRanks([1])).toEqual([]);
  });
});

describe('in the summary and profile_export.json', () => {
  // 80 requests with TTFT 1..80 ms (whole ms, so every statistic is checkable by hand).
  const recs = Array.from({ length: 80 }, (_, i) => processed({ tokens: [i + 1, i + 2], end: i + 3 }, { index: i }));

  it('keeps the AIPerf fields and adds the GuideLLM ones, with 95 % intervals', () => {
    const s = summarize(recs);
    const ttft = findMetric(s, 'time_to_first_token') as DistributionResult;
    expect(s.confidence_level).toBe(0.95);
    expect(ttft.intervals!.percentiles.p95).not.toBeNull(); // 80 ≥ 72
    expect(ttft.intervals!.percentiles.p99).toBeNull(); // 80 < 368
    const j = buildProfileExport(s, { config: {}, run: { start_ns: null, end_ns: null, wall_anchor: null } });
    const e = j.metrics.time_to_first_token as Record<string, any>;
    expect(e.avg).toBeCloseTo(40.5, 6);
    expect(e.sum).toBeCloseTo(3240, 6);
    expect(e.variance).toBeCloseTo((80 * 80 - 1) / 12, 3); // ms², population variance of 1..80
    expect(e.median).toBe(e.p50);
    expect(e['p0.1']).toBeCloseTo(1, 2);
    expect(e['p99.9']).toBeCloseTo(80, 2);
    expect(e.mean_ci[0]).toBeLessThan(40.5);
    expect(e.mean_ci[1]).toBeGreaterThan(40.5);
    expect(Object.keys(e.percentile_cis)).toEqual(SUMMARY_PERCENTILES.map((p) => `p${p}`));
    expect(e.percentile_cis.p99).toBeNull();
    expect(e.percentile_cis.p50[0]).toBeLessThanOrEqual(e.p50);
    expect(e.percentile_cis.p50[1]).toBeGreaterThanOrEqual(e.p50);
    // Token-weighted and rate metrics carry explicit nulls.
    expect((j.metrics.inter_token_latency as unknown as Record<string, unknown>).mean_ci).toBeNull();
    expect((j.metrics.inter_token_latency as unknown as Record<string, unknown>).percentile_cis).toBeNull();
  });

  it('--confidence none: no interval fields at all', () => {
    const s = summarize(recs, { metricOptions: { confidence: null } });
    expect(s.confidence_level).toBeNull();
    const j = buildProfileExport(s, { config: {}, run: { start_ns: null, end_ns: null, wall_anchor: null } });
    expect('mean_ci' in (j.metrics.time_to_first_token as object)).toBe(false);
    expect('percentile_cis' in (j.metrics.time_to_first_token as object)).toBe(false);
  });

  it('another level moves the interval', () => {
    const at = (confidence: number) =>
      (findMetric(summarize(recs, { metricOptions: { confidence } }), 'request_latency') as DistributionResult).intervals!.mean!;
    const [a, b] = [at(0.8), at(0.99)];
    expect(b[1] - b[0]).toBeGreaterThan(a[1] - a[0]);
  });
});

describe('weighted values (GuideLLM token weighting)', () => {
  it('count, mean, std, sum and percentiles weigh each value by its count', () => {
    const h = new MetricHistogram('tokens');
    h.addWeighted(10, 3); // 10 10 10
    h.addWeighted(20, 1); // 20
    h.addWeighted(99, 0); // nothing
    const s = histogramStats(h)!;
    expect(s.count).toBe(4);
    expect(s.sum).toBe(50);
    expect(s.avg).toBe(12.5);
    expect(s.std).toBeCloseTo(Math.sqrt((3 * 2.5 ** 2 + 7.5 ** 2) / 4), 12);
    expect(s.p50).toBe(10);
    expect(s.p75).toBe(10);
    expect(s.p99).toBe(20);
    expect(s.max).toBe(20);
    expect(s.mode).toBe(10);
  });
  it('mixes with unweighted values and takes negative ones', () => {
    const h = new MetricHistogram('tokens');
    h.add(1);
    h.addWeighted(-2, 2);
    expect(histogramStats(h)).toMatchObject({ count: 3, sum: -3, min: -2, max: 1 });
  });
  it('refuses a fractional or negative weight', () => {
    const h = new MetricHistogram('tokens');
    expect(() => h.addWeighted(1, 1.5)).toThrow(/weight/);
    expect(() => h.addWeighted(1, -1)).toThrow(/weight/);
  });
});

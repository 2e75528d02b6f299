// Confidence intervals: the reference's order-statistic sizes, exact binomial ranks, the t
// interval of a mean, which metrics get intervals, and --confidence parsing.
import { describe, expect, it } from 'vitest';
import {
  distributionIntervals,
  intervalsApply,
  meanInterval,
  minSampleSize,
  orderStatisticRanks,
  parseConfidence,
} from '../../../../src/metrics/core/confidence.js';
import { MetricHistogram } from '../../../../src/metrics/core/histogram.js';
import { binomialCdf } from '../../../../src/metrics/core/special.js';
import { defaultRegistry } from '../../../../src/metrics/catalogue.js';
import { InvalidArgumentError } from '../../../../src/errors.js';

/** A histogram of the integers 1..n (tokens: one-unit buckets below 2048, so ranks read back exactly up to there). */
function oneToN(n: number): MetricHistogram {
  const h = new MetricHistogram('tokens');
  h.addAll(Float64Array.from({ length: n }, (_, i) => i + 1));
  return h;
}

function intervalsOf(n: number, level = 0.95) {
  const h = oneToN(n);
  return distributionIntervals(h, h.moments()!, level);
}

describe("the reference's order-statistic sizes", () => {
  it('ceil(log(α/2) / log(q)) at 0.95: 72 for p95, 368 for p99, 3688 for p99.9 (and the same for p5, p1, p0.1)', () => {
    expect(minSampleSize(0.95, 0.95)).toBe(72);
    expect(minSampleSize(0.99, 0.95)).toBe(368);
    expect(minSampleSize(0.999, 0.95)).toBe(3688);
    expect(minSampleSize(0.05, 0.95)).toBe(72);
    expect(minSampleSize(0.01, 0.95)).toBe(368);
    expect(minSampleSize(0.001, 0.95)).toBe(3688);
    expect(minSampleSize(0.5, 0.95)).toBe(6);
    // A higher level needs more requests.
    expect(minSampleSize(0.99, 0.99)).toBeGreaterThan(368);
  });

  it('p95: null at 71 requests, an interval at 72 whose top is the largest value', () => {
    expect(intervalsOf(71).percentiles.p95).toBeNull();
    expect(intervalsOf(71).percentiles.p5).toBeNull();
    const at72 = intervalsOf(72).percentiles.p95!;
    expect(at72).not.toBeNull();
    expect(at72[1]).toBe(72);
    expect(at72[0]).toBeLessThanOrEqual(Math.ceil(0.95 * 72));
    expect(intervalsOf(72).percentiles.p5![0]).toBe(1);
  });

  it('p99: null at 367, present at 368', () => {
    expect(intervalsOf(367).percentiles.p99).toBeNull();
    expect(intervalsOf(367).percentiles.p1).toBeNull();
    expect(intervalsOf(368).percentiles.p99).not.toBeNull();
    expect(intervalsOf(368).percentiles.p1).not.toBeNull();
    expect(intervalsOf(368).percentiles.p99![1]).toBe(368);
  });

  it('p99.9: null at 3687, present at 3688', () => {
    expect(orderStatisticRanks(3687, 0.999, 0.95)).toBeNull();
    expect(orderStatisticRanks(3688, 0.999, 0.95)?.upper).toBe(3688);
    expect(orderStatisticRanks(3687, 0.001, 0.95)).toBeNull();
    expect(orderStatisticRanks(3688, 0.001, 0.95)?.lower).toBe(1);
    // Through a histogram too (values past 2048 sit in two-unit buckets: the bounds are bucket tops).
    expect(intervalsOf(3687).percentiles['p99.9']).toBeNull();
    const ci = intervalsOf(3688).percentiles['p99.9']!;
    expect(ci[1]).toBe(3688);
    expect(ci[0]).toBeGreaterThan(3600);
  });
});

describe('order-statistic ranks', () => {
  it('are the exact binomial ranks: each tail at most α/2, and no tighter pair qualifies', () => {
    for (const [n, q] of [
      [100, 0.5],
      [1000, 0.9],
      [500, 0.25],
      [72, 0.95],
      [5000, 0.99],
    ] as const) {
      const r = orderStatisticRanks(n, q, 0.95)!;
      const below = (k: number) => binomialCdf(k, n, q); // P(B ≤ k)
      expect(below(r.lower - 1), `${n},${q} lower`).toBeLessThanOrEqual(0.025);
      if (r.lower < n) expect(below(r.lower)).toBeGreaterThan(0.025);
      expect(1 - below(r.upper - 1), `${n},${q} upper`).toBeLessThanOrEqual(0.025 + 1e-12);
      expect(1 - below(r.upper - 2)).toBeGreaterThan(0.025);
      // The point estimate's rank lies inside.
      expect(r.lower).toBeLessThanOrEqual(Math.ceil(q * n));
      expect(r.upper).toBeGreaterThanOrEqual(Math.ceil(q * n));
    }
  });

  it('cover the true median at least 95 % of the time (uniform samples of 60)', () => {
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const r = orderStatisticRanks(60, 0.5, 0.95)!;
    let covered = 0;
    const trials = 4000;
    for (let t = 0; t < trials; t++) {
      const xs = Array.from({ length: 60 }, rand).sort((a, b) => a - b);
      if (xs[r.lower - 1] <= 0.5 && 0.5 <= xs[r.upper - 1]) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.94);
  });

  it('stay fast and sound for a million values', () => {
    const t0 = performance.now();
    const r = orderStatisticRanks(1_000_000, 0.99, 0.95)!;
    expect(performance.now() - t0).toBeLessThan(2000);
    const sd = Math.sqrt(1e6 * 0.99 * 0.01);
    expect(Math.abs(r.lower - (990_000 - 1.96 * sd))).toBeLessThan(3);
    expect(Math.abs(r.upper - (990_000 + 1.96 * sd))).toBeLessThan(3);
  });
});

describe('mean interval (Student t)', () => {
  it('on a known sample: 2 4 4 4 5 5 7 9 → 5 ± t(0.975, 7) · s / √8', () => {
    const values = [2, 4, 4, 4, 5, 5, 7, 9];
    const h = new MetricHistogram('tokens');
    for (const v of values) h.add(v);
    const m = h.moments()!;
    expect(m.std).toBe(2); // population std
    const ci = distributionIntervals(h, m, 0.95).mean!;
    // s = √(32/7) = 2.13809, t = 2.364624, half = 1.787483
    expect(ci[0]).toBeCloseTo(5 - 1.787483, 5);
    expect(ci[1]).toBeCloseTo(5 + 1.787483, 5);
  });
  it('is null below two values and widens with the level', () => {
    expect(meanInterval(1, 3, 0, 0.95)).toBeNull();
    const w95 = meanInterval(30, 10, 2, 0.95)!;
    const w99 = meanInterval(30, 10, 2, 0.99)!;
    expect(w99[1] - w99[0]).toBeGreaterThan(w95[1] - w95[0]);
    // Large samples: the normal interval.
    const big = meanInterval(1e6, 0, 1, 0.95)!;
    expect(big[1]).toBeCloseTo(1.959964 / 1000, 6);
  });
});

describe('which metrics get intervals', () => {
  const reg = defaultRegistry();
  const applies = (tag: string) => intervalsApply(reg.getMetric(tag)!);
  it('per-request observations do', () => {
    for (const tag of [
      'request_latency',
      'time_to_first_token',
      'time_to_first_output_token',
      'output_sequence_length',
      'input_sequence_length',
      'request_dispatch_delay',
      'request_scheduled_latency',
    ]) {
      expect(applies(tag), tag).toBe(true);
    }
  });
  it('token-weighted, per-chunk and rate metrics do not, nor run-level values', () => {
    for (const tag of [
      'inter_token_latency',
      'time_per_output_token',
      'inter_chunk_latency',
      'output_token_throughput_per_user',
      'e2e_output_token_throughput',
      'prefill_throughput_per_user',
      'request_throughput',
      'output_token_throughput',
    ]) {
      expect(applies(tag), tag).toBe(false);
    }
  });
});

describe('--confidence', () => {
  it('takes a level in (0, 1) or none', () => {
    expect(parseConfidence(undefined)).toBe(0.95);
    expect(parseConfidence('0.9')).toBe(0.9);
    expect(parseConfidence(0.99)).toBe(0.99);
    expect(parseConfidence('none')).toBeNull();
    expect(parseConfidence('NONE')).toBeNull();
  });
  it.each(['0', '1', '1.5', '-0.2', 'abc', '', '95%', '0x1'])('refuses %j in one line', (raw) => {
    expect(() => parseConfidence(raw)).toThrow(InvalidArgumentError);
    try {
      parseConfidence(raw);
    } catch (e) {
      expect((e as Error).message).toMatch(/^--confidence: .*"none"/);
      expect((e as Error).message).not.toContain('\n');
    }
  });
});

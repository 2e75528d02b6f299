import { describe, expect, it } from 'vitest';
import { distributionStats, percentileSorted } from '../../../src/metrics/stats.js';

describe('distributionStats', () => {
  it('matches hand-computed values on [4, 1, 3, 2]', () => {
    const s = distributionStats([4, 1, 3, 2])!;
    expect(s.count).toBe(4);
    expect(s.avg).toBe(2.5);
    expect(s.min).toBe(1);
    expect(s.max).toBe(4);
    // Population std: sqrt(((1.5² + 0.5²) · 2) / 4) = sqrt(1.25).
    expect(s.std).toBeCloseTo(Math.sqrt(1.25), 12);
    // Linear interpolation at rank p/100 · 3.
    expect(s.p1).toBeCloseTo(1.03, 12);
    expect(s.p5).toBeCloseTo(1.15, 12);
    expect(s.p10).toBeCloseTo(1.3, 12);
    expect(s.p25).toBeCloseTo(1.75, 12);
    expect(s.p50).toBeCloseTo(2.5, 12);
    expect(s.p75).toBeCloseTo(3.25, 12);
    expect(s.p90).toBeCloseTo(3.7, 12);
    expect(s.p95).toBeCloseTo(3.85, 12);
    expect(s.p99).toBeCloseTo(3.97, 12);
  });

  it('matches numpy on 1..100 (np.percentile, linear)', () => {
    const s = distributionStats(Array.from({ length: 100 }, (_, i) => i + 1))!;
    expect(s.p1).toBeCloseTo(1.99, 12);
    expect(s.p50).toBeCloseTo(50.5, 12);
    expect(s.p90).toBeCloseTo(90.1, 12);
    expect(s.p95).toBeCloseTo(95.05, 12);
    expect(s.p99).toBeCloseTo(99.01, 12);
    // np.std(np.arange(1, 101)) = sqrt((100² − 1) / 12).
    expect(s.std).toBeCloseTo(Math.sqrt(9999 / 12), 12);
  });

  it('a single value is every statistic, with std 0', () => {
    const s = distributionStats([7])!;
    expect([s.avg, s.min, s.max, s.p1, s.p50, s.p99]).toEqual([7, 7, 7, 7, 7, 7]);
    expect(s.std).toBe(0);
  });

  it('an empty list has no value', () => {
    expect(distributionStats([])).toBeUndefined();
  });

  it('does not reorder its input, and sorts numerically (not as strings)', () => {
    const input = [10, 9, 100, 1];
    const s = distributionStats(input)!;
    expect(input).toEqual([10, 9, 100, 1]);
    expect(s.min).toBe(1);
    expect(s.max).toBe(100);
    expect(s.p50).toBe(9.5);
  });

  it('stays accurate for large ns-scale values', () => {
    const s = distributionStats([1e12 + 1, 1e12 + 2, 1e12 + 3])!;
    expect(s.avg).toBe(1e12 + 2);
    expect(s.std).toBeCloseTo(Math.sqrt(2 / 3), 6);
  });

  it('percentileSorted at the ends is min and max', () => {
    expect(percentileSorted([1, 2, 3], 0)).toBe(1);
    expect(percentileSorted([1, 2, 3], 100)).toBe(3);
  });
});

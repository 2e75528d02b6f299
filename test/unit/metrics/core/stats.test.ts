import { describe, expect, it } from 'vitest';
import { distributionStats, percentileSorted } from '../../../../src/metrics/core/stats.js';

// Percentiles are HdrHistogram's: the value of nearest rank max(1, ⌈p/100 · n⌉), reported as the
// highest value of its bucket, clamped to the exact [min, max]. Below 2048 (3 digits) every
// bucket is one unit wide, so small integers come out as exact nearest-rank values.
describe('distributionStats', () => {
  it('matches hand-computed values on [4, 1, 3, 2]', () => {
    const s = distributionStats([4, 1, 3, 2])!;
    expect(s.count).toBe(4);
    expect(s.avg).toBe(2.5);
    expect(s.min).toBe(1);
    expect(s.max).toBe(4);
    // Population std: sqrt(((1.5² + 0.5²) · 2) / 4) = sqrt(1.25).
    expect(s.std).toBeCloseTo(Math.sqrt(1.25), 12);
    // Ranks ⌈p/100 · 4⌉: p1, p5, p10 → 0.04, 0.2, 0.4 → 1; p25 → 1; p50 → 2; p75 → 3; p90, p95, p99 → 4.
    expect([s.p1, s.p5, s.p10, s.p25, s.p50, s.p75, s.p90, s.p95, s.p99]).toEqual([1, 1, 1, 1, 2, 3, 4, 4, 4]);
  });

  it('is nearest rank on 1..100', () => {
    const s = distributionStats(Array.from({ length: 100 }, (_, i) => i + 1))!;
    // Rank ⌈p/100 · 100⌉ = p, and the p-th value is p.
    expect([s.p1, s.p25, s.p50, s.p90, s.p95, s.p99]).toEqual([1, 25, 50, 90, 95, 99]);
    expect(s.avg).toBe(50.5);
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

  it('does not reorder its input, and orders numerically (not as strings)', () => {
    const input = [10, 9, 100, 1];
    const s = distributionStats(input)!;
    expect(input).toEqual([10, 9, 100, 1]);
    expect(s.min).toBe(1);
    expect(s.max).toBe(100);
    expect(s.p50).toBe(9); // rank 2 of 1, 9, 10, 100
  });

  it('keeps avg and std exact for large ns-scale values, and bounds percentiles by the exact max', () => {
    const s = distributionStats([1e12 + 1, 1e12 + 2, 1e12 + 3])!;
    expect(s.avg).toBe(1e12 + 2);
    expect(s.std).toBeCloseTo(Math.sqrt(2 / 3), 6);
    // Around 1e12 a bucket is 2^29 ns wide: 1e12 + 2 lies in [1862 · 2^29, 1863 · 2^29), whose
    // highest value (1 000 190 509 055) is beyond the max, so the max is reported.
    expect(s.p50).toBe(1e12 + 3);
    expect(s.p1).toBe(1e12 + 3);
  });

  it('a scale keeps fractional values: [0.25, 0.5, 0.75] at scale 1000', () => {
    const s = distributionStats([0.25, 0.5, 0.75], { scale: 1000 })!;
    expect([s.p1, s.p50, s.p99]).toEqual([0.25, 0.5, 0.75]);
    expect(s.avg).toBeCloseTo(0.5, 15);
    // Without one, the percentiles see the values rounded half up to integers (0, 1, 1).
    const unscaled = distributionStats([0.25, 0.5, 0.75])!;
    expect(unscaled.p50).toBe(0.75); // bucket of 1, clamped to the exact max
    expect(unscaled.p1).toBe(0.25); // bucket of 0, clamped to the exact min
    expect(unscaled.avg).toBe(0.5); // exact
  });

  it('percentileSorted (linear, for run-level columns) at the ends is min and max', () => {
    expect(percentileSorted([1, 2, 3], 0)).toBe(1);
    expect(percentileSorted([1, 2, 3], 100)).toBe(3);
    expect(percentileSorted([1, 2, 3, 4], 50)).toBe(2.5);
  });
});

// Distribution statistics, read from native HDR histograms (histogram.ts): avg, min, max and std
// are exact; percentiles are HdrHistogram's, within 10^-digits of exact (0.1 % at the default 3).

import { MetricHistogram, type MetricHistogramOptions } from './histogram.js';

export const PERCENTILES = [1, 5, 10, 25, 50, 75, 90, 95, 99] as const;
export type PercentileKey = `p${(typeof PERCENTILES)[number]}`;

export type DistributionStats = {
  count: number;
  avg: number;
  min: number;
  max: number;
  /** Population standard deviation (divide by n), as numpy's default and AIPerf report it. */
  std: number;
} & Record<PercentileKey, number>;

/**
 * The summary statistics of a histogram, or undefined when it is empty ("no value").
 * pN is HdrHistogram's value at percentile N: the value of nearest rank max(1, ⌈N/100 · count⌉),
 * reported as the highest value of its bucket and clamped to the exact [min, max]. At one unit of
 * resolution (values below 2 · 10^digits, scaled) that is the exact nearest-rank value.
 */
export function histogramStats(h: MetricHistogram): DistributionStats | undefined {
  const m = h.moments();
  if (!m) return undefined;
  const ps = h.percentiles(PERCENTILES);
  const stats = { ...m } as DistributionStats;
  PERCENTILES.forEach((p, i) => {
    stats[`p${p}`] = ps[i];
  });
  return stats;
}

/**
 * Summary statistics of a list of values through a throwaway histogram (scale 1 by default, so
 * the values are rounded to integers for the percentiles: pass a scale for fractional values).
 * Undefined for an empty list. Non-finite values are a caller bug and throw.
 */
export function distributionStats(
  values: readonly number[] | Float64Array,
  opts: MetricHistogramOptions = {},
): DistributionStats | undefined {
  if (values.length === 0) return undefined;
  const h = new MetricHistogram('ns', { scale: 1, ...opts });
  h.addAll(values instanceof Float64Array ? values : Float64Array.from(values));
  return histogramStats(h);
}

/**
 * Linear-interpolated percentile of an ascending, non-empty array; p in [0, 100] (numpy's default
 * 'linear' method). Not used for summary distributions (those come from histograms); kept for
 * run-level values computed from one small sorted column.
 */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const frac = rank - lo;
  return frac === 0 ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

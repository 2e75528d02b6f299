// Distribution statistics, read from native HDR histograms (histogram.ts): avg, min, max, std,
// variance and sum are exact; percentiles (median included) are HdrHistogram's, within 10^-digits
// of exact (0.1 % at the default 3); the mode is the most populated bucket's representative value.

import { MetricHistogram, type MetricHistogramOptions } from './histogram.js';

export const PERCENTILES = [1, 5, 10, 25, 50, 75, 90, 95, 99] as const;
export type PercentileKey = `p${(typeof PERCENTILES)[number]}`;
/** GuideLLM's percentile set: AIPerf's plus p0.1 and p99.9. */
export const SUMMARY_PERCENTILES = [0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9] as const;
export type SummaryPercentileKey = `p${(typeof SUMMARY_PERCENTILES)[number]}`;

/**
 * GuideLLM's summary beyond AIPerf's fields. Optional in the type so hand-built stats stay valid;
 * histogramStats always fills every one.
 */
export interface GuideLlmStats {
  /** The nearest-rank median (= p50). */
  median?: number;
  /** The most populated histogram bucket's median-equivalent value (MetricHistogram.mode). */
  mode?: number;
  /** Population variance (std²). */
  variance?: number;
  /** Exact sum of the values. */
  sum?: number;
  'p0.1'?: number;
  'p99.9'?: number;
}

export type DistributionStats = {
  count: number;
  avg: number;
  min: number;
  max: number;
  /** Population standard deviation (divide by n), as numpy's default and AIPerf report it. */
  std: number;
} & Record<PercentileKey, number> &
  GuideLlmStats;

/**
 * The summary statistics of a histogram, or undefined when it is empty ("no value").
 * pN is HdrHistogram's value at percentile N: the value of nearest rank max(1, ⌈N/100 · count⌉),
 * reported as the highest value of its bucket and clamped to the exact [min, max]. At one unit of
 * resolution (values below 2 · 10^digits, scaled) that is the exact nearest-rank value.
 */
export function histogramStats(h: MetricHistogram): DistributionStats | undefined {
  const m = h.moments();
  if (!m) return undefined;
  const ps = h.percentiles(SUMMARY_PERCENTILES);
  const stats = { ...m } as DistributionStats;
  SUMMARY_PERCENTILES.forEach((p, i) => {
    stats[`p${p}`] = ps[i];
  });
  stats.median = stats.p50;
  stats.mode = h.mode() ?? stats.p50;
  stats.variance = m.std * m.std;
  stats.sum = h.sum;
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

// Distribution statistics. A plain-TS placeholder: issue 3 moves every distribution onto native
// HDR histograms, behind this same function, so callers never see how stats are made.

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
 * Summary statistics of `values`, or undefined for an empty list ("no value").
 * Percentiles interpolate linearly between closest ranks (numpy's default 'linear' method):
 * rank = p/100 · (n − 1), value = lo + (hi − lo) · frac(rank).
 * Non-finite values are a caller bug; the record computation never lets them through.
 */
export function distributionStats(values: readonly number[]): DistributionStats | undefined {
  const n = values.length;
  if (n === 0) return undefined;
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  const avg = sum / n;
  // Two passes (mean, then squared deviations) avoid the cancellation of the sum-of-squares form.
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (sorted[i] - avg) ** 2;
  const stats = {
    count: n,
    avg,
    min: sorted[0],
    max: sorted[n - 1],
    std: Math.sqrt(sq / n),
  } as DistributionStats;
  for (const p of PERCENTILES) stats[`p${p}`] = percentileSorted(sorted, p);
  return stats;
}

/** Linear-interpolated percentile of an ascending, non-empty array; p in [0, 100]. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const frac = rank - lo;
  return frac === 0 ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

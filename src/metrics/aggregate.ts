// Statistics across repeated runs (--num-profile-runs; AIPerf reference, "Multi-Run Aggregate
// Metrics"): each run contributes one value of a statistic (e.g. its TTFT avg, its p99), and the
// runs' values give mean, sample std, min, max, coefficient of variation, standard error and a
// Student t interval for the mean: mean ± t(1 − α/2, n − 1) · std / √n.
import { studentTQuantile } from './core/special.js';

export interface AggregateStats {
  /** Runs that had a value. */
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1); null for a single run. */
  std: number | null;
  min: number;
  max: number;
  /** std / |mean|; null for one run or a zero mean. */
  cv: number | null;
  /** Standard error of the mean, std / √n; null for one run. */
  se: number | null;
  ci_low: number | null;
  ci_high: number | null;
  /** t(1 − α/2, n − 1); null for one run or without a confidence level. */
  t_critical: number | null;
}

/** The statistics of one value per run; level null: no interval. Throws on an empty or non-finite list (a caller bug). */
export function aggregateValues(values: readonly number[], level: number | null): AggregateStats {
  const n = values.length;
  if (n === 0 || !values.every(Number.isFinite)) throw new RangeError('aggregateValues: expected finite values from at least one run');
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (n < 2) return { n, mean, std: null, min, max, cv: null, se: null, ci_low: null, ci_high: null, t_critical: null };
  const std = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const se = std / Math.sqrt(n);
  const t = level === null ? null : studentTQuantile(1 - (1 - level) / 2, n - 1);
  return {
    n,
    mean,
    std,
    min,
    max,
    cv: mean === 0 ? null : std / Math.abs(mean),
    se,
    ci_low: t === null ? null : mean - t * se,
    ci_high: t === null ? null : mean + t * se,
    t_critical: t,
  };
}

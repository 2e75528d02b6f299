// Confidence intervals of one run's distributions (GuideLLM reference, "Confidence Intervals"):
// - mean_ci: Student's t interval, mean ± t(1 − α/2, n − 1) · s / √n with the sample std s (the
//   reference does not name the interval; t is exact for normal data and tends to the normal
//   interval as n grows). No interval below 2 values.
// - percentile_cis: distribution-free intervals from order statistics. The reported pN is the
//   value of rank ⌈q·n⌉ (q = N/100); [X(l), X(u)] covers the true quantile with probability
//   ≥ 1 − α when P(B ≤ l − 1) ≤ α/2 and P(B ≥ u) ≤ α/2 for B ~ Binomial(n, q). The ranks are the
//   exact binomial ones (incomplete beta function). Both must exist inside the sample, which takes
//   (1 − q)^n ≤ α/2 and q^n ≤ α/2, i.e. n ≥ ⌈log(α/2) / log(max(q, 1 − q))⌉: the reference's sizes
//   (72 for p95, 368 for p99, 3688 for p99.9 at 0.95, and the same for p5, p1, p0.1). Below that
//   the interval is null. Values at the ranks are read from the metric's HDR histogram, reported
//   as percentiles are (bucket top, clamped to the exact min and max).
// - Only metrics recorded once per request get intervals: not token-weighted ones (ITL, time per
//   output token), not per-chunk lists (inter-chunk latency), not rates (tokens/s, requests/s).
import { InvalidArgumentError } from '../../errors.js';
import type { MetricHistogram } from './histogram.js';
import { binomialCdf, incompleteBeta, studentTQuantile } from './special.js';
import { SUMMARY_PERCENTILES, type SummaryPercentileKey } from './stats.js';
import { MetricFlag, type BaseUnit, type MetricDef } from './types.js';

export const DEFAULT_CONFIDENCE = 0.95;

export type Interval = [number, number];

/** A distribution's intervals at one confidence level (base units, like the stats). */
export interface DistributionIntervals {
  level: number;
  /** null below 2 values. */
  mean: Interval | null;
  /** null where the sample is too small to bound that percentile. */
  percentiles: Record<SummaryPercentileKey, Interval | null>;
}

/**
 * `--confidence`: a level in (0, 1), or "none" (null: no intervals). Throws InvalidArgumentError
 * (one line, exit 2) for anything else.
 */
export function parseConfidence(raw: unknown): number | null {
  if (raw === undefined) return DEFAULT_CONFIDENCE;
  if (raw === null || (typeof raw === 'string' && raw.trim().toLowerCase() === 'none')) return null;
  const text = String(raw).trim();
  const v = typeof raw === 'number' ? raw : /^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(Number.isFinite(v) && v > 0 && v < 1)) {
    throw new InvalidArgumentError(
      `--confidence: expected a level between 0 and 1 (exclusive, e.g. 0.95) or "none", got ${JSON.stringify(raw)}`,
    );
  }
  return v;
}

function checkLevel(level: number): number {
  if (!(Number.isFinite(level) && level > 0 && level < 1)) throw new RangeError(`confidence level must be in (0, 1), got ${level}`);
  return level;
}

/** The smallest sample whose order statistics bound quantile q on both sides at this level. */
export function minSampleSize(q: number, level: number): number {
  if (!(q > 0 && q < 1)) throw new RangeError(`quantile must be in (0, 1), got ${q}`);
  const alpha = 1 - checkLevel(level);
  return Math.ceil(Math.log(alpha / 2) / Math.log(Math.max(q, 1 - q)));
}

/** P(B ≥ u) for B ~ Binomial(n, q). */
function upperTail(u: number, n: number, q: number): number {
  if (u <= 0) return 1;
  if (u > n) return 0;
  return incompleteBeta(q, u, n - u + 1);
}

const rankCache = new Map<string, { lower: number; upper: number } | null>();

/**
 * The 1-based ranks [lower, upper] of the order statistics that bound quantile q of n values
 * with confidence ≥ level, or null when n is below minSampleSize(q, level).
 */
export function orderStatisticRanks(n: number, q: number, level: number): { lower: number; upper: number } | null {
  if (!Number.isInteger(n) || n < 1) return null;
  const key = `${n}:${q}:${level}`;
  const hit = rankCache.get(key);
  if (hit !== undefined) return hit;
  const half = (1 - checkLevel(level)) / 2;
  let out: { lower: number; upper: number } | null = null;
  if (n >= minSampleSize(q, level)) {
    // lower: the largest l with P(B ≤ l − 1) ≤ α/2; P(B ≤ 0) = (1 − q)^n ≤ α/2 holds here.
    let ok = 0;
    let bad = n;
    while (bad - ok > 1) {
      const mid = Math.floor((ok + bad) / 2);
      if (binomialCdf(mid, n, q) <= half) ok = mid;
      else bad = mid;
    }
    const lower = ok + 1;
    // upper: the smallest u with P(B ≥ u) ≤ α/2; P(B ≥ n) = q^n ≤ α/2 holds here.
    let no = 0;
    let yes = n;
    while (yes - no > 1) {
      const mid = Math.floor((no + yes) / 2);
      if (upperTail(mid, n, q) <= half) yes = mid;
      else no = mid;
    }
    out = { lower, upper: yes };
  }
  if (rankCache.size > 4096) rankCache.clear();
  rankCache.set(key, out);
  return out;
}

/** Student's t interval for a mean from n values with population std `std`; null below 2 values. */
export function meanInterval(n: number, mean: number, std: number, level: number): Interval | null {
  if (!(n >= 2)) return null;
  const alpha = 1 - checkLevel(level);
  const sample = std * Math.sqrt(n / (n - 1));
  const half = (studentTQuantile(1 - alpha / 2, n - 1) * sample) / Math.sqrt(n);
  return [mean - half, mean + half];
}

const RATE_UNITS: ReadonlySet<BaseUnit> = new Set<BaseUnit>(['tokens/s', 'requests/s', 'tokens/s/user', 'requests/s/W', 'tokens/s/W']);

/** Whether a metric gets intervals: recorded once per request, not token-weighted, not a rate. */
export function intervalsApply(def: Pick<MetricDef, 'kind' | 'flags' | 'unit'>): boolean {
  return def.kind === 'record' && (def.flags & (MetricFlag.TOKEN_WEIGHTED | MetricFlag.PER_CHUNK)) === 0 && !RATE_UNITS.has(def.unit);
}

/** The mean and percentile intervals of a non-empty histogram whose moments are given. */
export function distributionIntervals(
  h: MetricHistogram,
  moments: { count: number; avg: number; std: number },
  level: number,
): DistributionIntervals {
  const n = moments.count;
  const ranks = SUMMARY_PERCENTILES.map((p) => orderStatisticRanks(n, p / 100, level));
  const wanted: number[] = [];
  for (const r of ranks) if (r) wanted.push(r.lower, r.upper);
  const values = wanted.length > 0 ? h.valuesAtRanks(wanted) : [];
  const percentiles = {} as Record<SummaryPercentileKey, Interval | null>;
  let i = 0;
  SUMMARY_PERCENTILES.forEach((p, k) => {
    percentiles[`p${p}`] = ranks[k] ? [values[i++], values[i++]] : null;
  });
  return { level, mean: meanInterval(n, moments.avg, moments.std, level), percentiles };
}

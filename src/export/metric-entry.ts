// One metric of the summary as profile_export.json (and the console and CSV, which read the same
// entries) shows it: DISPLAY units, each entry naming its unit; GuideLLM's summary fields and the
// confidence intervals on distribution entries.
import { PERCENTILES, SUMMARY_PERCENTILES } from '../metrics/core/stats.js';
import type { DistributionResult, MetricResult } from '../metrics/core/summary.js';
import type { DisplayUnit } from '../metrics/core/types.js';
import { displayFactor } from '../metrics/core/units.js';

export interface DistributionEntry {
  unit: DisplayUnit;
  avg: number;
  min: number;
  max: number;
  std: number;
  p1: number;
  p5: number;
  p10: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
  count: number;
  /** GuideLLM's summary (absent in hand-built summaries). Variance is in display units squared. */
  median?: number;
  mode?: number;
  variance?: number;
  sum?: number;
  'p0.1'?: number;
  'p99.9'?: number;
  /** With --confidence (not none): the mean's interval, null below 2 values or for a metric without intervals. */
  mean_ci?: [number, number] | null;
  /** With --confidence: each percentile's interval, null where the sample cannot bound it; null for a metric without intervals. */
  percentile_cis?: Record<string, [number, number] | null> | null;
}

export interface SingleEntry {
  unit: DisplayUnit;
  /** bigint for absolute ns stamps (exact); a number otherwise. */
  avg: number | bigint;
}

/** A time-weighted run-level value (Effective / Active): average and duration-weighted percentiles. */
export interface TimeWeightedEntry {
  unit: DisplayUnit;
  avg: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

export type MetricEntry = DistributionEntry | SingleEntry | TimeWeightedEntry;

export function metricEntry(m: MetricResult): MetricEntry {
  const f = displayFactor(m.unit, m.display);
  if (m.kind === 'single') {
    // An exact stamp is only kept exact when no scaling applies to it.
    const avg = m.stats.exact !== undefined && f === 1 ? m.stats.exact : m.stats.avg * f;
    return { unit: m.display, avg };
  }
  if (m.kind === 'time_weighted') {
    const t = m.stats;
    return { unit: m.display, avg: t.avg * f, p50: t.p50 * f, p90: t.p90 * f, p95: t.p95 * f, p99: t.p99 * f, max: t.max * f };
  }
  const s = m.stats;
  const entry = { unit: m.display, avg: s.avg * f, min: s.min * f, max: s.max * f, std: s.std * f } as DistributionEntry;
  for (const p of PERCENTILES) entry[`p${p}`] = s[`p${p}`] * f;
  entry.count = s.count;
  addGuideLlmStats(entry, m, f);
  return entry;
}

function scaled(iv: [number, number] | null, f: number): [number, number] | null {
  return iv ? [iv[0] * f, iv[1] * f] : null;
}

/** Adds median, mode, variance, sum, p0.1, p99.9 and the intervals (when computed) to an entry. */
export function addGuideLlmStats(entry: DistributionEntry, m: DistributionResult, f: number): void {
  const s = m.stats;
  if (s.median !== undefined) entry.median = s.median * f;
  if (s.mode !== undefined) entry.mode = s.mode * f;
  if (s.variance !== undefined) entry.variance = s.variance * f * f;
  if (s.sum !== undefined) entry.sum = s.sum * f;
  if (s['p0.1'] !== undefined) entry['p0.1'] = s['p0.1'] * f;
  if (s['p99.9'] !== undefined) entry['p99.9'] = s['p99.9'] * f;
  if (m.intervals === undefined) return;
  const iv = m.intervals;
  entry.mean_ci = iv ? scaled(iv.mean, f) : null;
  entry.percentile_cis = iv ? Object.fromEntries(SUMMARY_PERCENTILES.map((p) => [`p${p}`, scaled(iv.percentiles[`p${p}`], f)])) : null;
}

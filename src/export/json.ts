// profile_export.json: the summary in DISPLAY units (ms, tokens/s, ...), as AIPerf's export does,
// so the file reads the same as the console. Each entry names its unit. Absolute stamps
// (min/max timestamps, run window) stay integer ns, written exactly (see stringifyWithBigInt).
import type { MetricValue } from '../records/types.js';
import type { MetricRegistry } from '../metrics/registry.js';
import { defaultRegistry } from '../metrics/catalogue.js';
import { PERCENTILES } from '../metrics/stats.js';
import type { MetricResult, MetricsSummary, RequestCounts } from '../metrics/summary.js';
import type { DisplayUnit } from '../metrics/types.js';
import { displayFactor } from './units.js';
import { addGuideLlmStats, conventionsSection, scheduleDelaysSection } from './json-statistics.js';

export const PROFILE_EXPORT_SCHEMA_VERSION = 1;

/** One CLOCK_MONOTONIC stamp and the wall-clock time it corresponds to, taken together. */
export interface WallAnchor {
  monotonic_ns: bigint;
  unix_ns: bigint;
}

export interface ProfileExportMeta {
  /** The resolved run config, secrets already redacted by the caller. */
  config: unknown;
  run: { start_ns: bigint | null; end_ns: bigint | null; wall_anchor: WallAnchor | null };
  /** Anything else the caller wants at the top level (tool version, endpoint, ...). */
  extra?: Record<string, unknown>;
}

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

export interface ProfileExport {
  schema_version: number;
  metrics: Record<string, MetricEntry>;
  counts: RequestCounts;
  config: unknown;
  run: ProfileExportMeta['run'];
  [extra: string]: unknown;
}

/** The object written to profile_export.json; serialise it with stringifyWithBigInt. */
export function buildProfileExport(summary: MetricsSummary, meta: ProfileExportMeta): ProfileExport {
  const metrics: Record<string, MetricEntry> = {};
  for (const m of summary.metrics) metrics[m.tag] = metricEntry(m);
  const out: ProfileExport = {
    schema_version: PROFILE_EXPORT_SCHEMA_VERSION,
    metrics,
    counts: { ...summary.counts },
    config: meta.config,
    run: meta.run,
  };
  // The pooled spec-decode histogram in full ({j: steps}, no cap); the console caps it.
  if (summary.pooled_spec_decode_acceptance_histogram) {
    out.pooled_spec_decode_acceptance_histogram = { ...summary.pooled_spec_decode_acceptance_histogram };
  }
  if (summary.histogram_significant_digits !== undefined) out.histogram_significant_digits = summary.histogram_significant_digits;
  // GuideLLM's schedule delays: null (not 0, not absent) without an arrival schedule.
  if (summary.arrival_schedule !== undefined) out.schedule_delays = scheduleDelaysSection(summary);
  if (summary.conventions) out.conventions = conventionsSection(summary.conventions);
  // Extras never overwrite the fixed sections.
  for (const [k, v] of Object.entries(meta.extra ?? {})) if (!(k in out)) out[k] = v;
  return out;
}

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

/**
 * A record's metrics for records.jsonl: `{tag: {value, unit}}` in display units, like the summary.
 * Tags unknown to the registry are skipped.
 */
export function recordMetricsJson(
  metrics: ReadonlyMap<string, MetricValue>,
  registry: MetricRegistry = defaultRegistry(),
): Record<string, { value: MetricValue; unit: DisplayUnit }> {
  const out: Record<string, { value: MetricValue; unit: DisplayUnit }> = {};
  for (const [tag, value] of metrics) {
    const def = registry.getMetric(tag);
    if (!def) continue;
    const f = displayFactor(def.unit, def.display);
    out[tag] = { value: typeof value === 'number' ? value * f : value.map((v) => v * f), unit: def.display };
  }
  return out;
}

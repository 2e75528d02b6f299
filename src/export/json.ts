// profile_export.json: the summary in DISPLAY units (ms, tokens/s, ...), as AIPerf's export does,
// so the file reads the same as the console. Each entry names its unit. Absolute stamps
// (min/max timestamps, run window) stay integer ns, written exactly (see stringifyWithBigInt).
import type { MetricValue } from '../model/processed-record.js';
import type { MetricRegistry } from '../metrics/core/registry.js';
import { defaultRegistry } from '../metrics/catalogue.js';
import type { MetricsSummary, RequestCounts } from '../metrics/core/summary.js';
import type { DisplayUnit } from '../metrics/core/types.js';
import { displayFactor } from '../metrics/core/units.js';
import { conventionsSection, scheduleDelaysSection } from './json-statistics.js';
import { metricEntry, type MetricEntry } from './metric-entry.js';

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

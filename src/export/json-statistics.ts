// The parts of profile_export.json that issue 4's statistics add: GuideLLM's summary fields and
// confidence intervals on each distribution entry, the schedule-delay section (null, not 0,
// without an arrival schedule) and the `conventions` comparison. Display units, as the rest.
import type { ConventionComparison } from '../metrics/convention-summary.js';
import { SCHEDULE_DELAY_TAGS } from '../metrics/guidellm.js';
import { SUMMARY_PERCENTILES } from '../metrics/stats.js';
import { findMetric, type DistributionResult, type MetricsSummary } from '../metrics/summary.js';
import type { DisplayUnit } from '../metrics/types.js';
import { metricEntry, type DistributionEntry, type MetricEntry } from './json.js';

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

/**
 * `schedule_delays`: whether the requests had an arrival schedule, and each schedule-derived
 * metric's entry, null when it has no value (always, without an arrival schedule).
 */
export function scheduleDelaysSection(summary: MetricsSummary): Record<string, unknown> {
  const out: Record<string, unknown> = { arrival_schedule: summary.arrival_schedule === true };
  for (const tag of SCHEDULE_DELAY_TAGS) {
    const m = summary.arrival_schedule ? findMetric(summary, tag) : undefined;
    out[tag] = m ? metricEntry(m) : null;
  }
  return out;
}

export interface ConventionsJson {
  tools: string[];
  /** tag → its header, display unit and each tool's entry (null: not defined by that tool, or no value). */
  metrics: Record<string, { header: string; unit: DisplayUnit } & Record<string, MetricEntry | null | string>>;
}

export function conventionsSection(c: ConventionComparison): ConventionsJson {
  const metrics: ConventionsJson['metrics'] = {};
  for (const row of c.rows) {
    const item: Record<string, MetricEntry | null | string> = { header: row.header, unit: row.display };
    for (const tool of c.tools) {
      const m = row.values[tool];
      item[tool] = m ? metricEntry(m) : null;
    }
    metrics[row.tag] = item as ConventionsJson['metrics'][string];
  }
  return { tools: [...c.tools], metrics };
}

// The parts of profile_export.json that issue 4's statistics add: the schedule-delay section (null,
// not 0, without an arrival schedule) and the `conventions` comparison (GuideLLM's summary fields
// and confidence intervals on each distribution entry: metric-entry.ts). Display units, as the rest.
import { SCHEDULE_DELAY_TAGS } from '../metrics/families/guidellm.js';
import { findMetric, type ConventionComparison, type MetricsSummary } from '../metrics/core/summary.js';
import type { DisplayUnit } from '../metrics/core/types.js';
import { metricEntry, type MetricEntry } from './metric-entry.js';

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

// `--convention all`: every metric whose definition differs between the tools, summarised under
// each tool's definitions side by side. Each record's metrics under the other conventions come
// from the record processor (ProcessedRecord.convention_metrics, computed while the record still
// had its chunk stamps); records without them (hand-built, unslimmed) are computed here. The
// summary feeds each tool's view of a record to its own accumulator (accumulate.ts).
import type { MetricValue, ProcessedRecord } from '../model/processed-record.js';
import { computeRecordMetrics } from './record-metrics.js';
import { CONVENTIONS, CONVENTION_NAMES, comparedTags, comparisonRegistry, type ConventionName } from './conventions.js';
import type { ConventionComparison, ConventionComparisonRow, MetricResult, MetricsSummary } from './core/summary.js';

/** A record's metrics under a convention (only the compared tags and their requirements). */
export function conventionMetrics(r: ProcessedRecord, name: ConventionName, primary: ConventionName): ReadonlyMap<string, MetricValue> {
  if (name === primary) return r.metrics;
  return r.convention_metrics?.get(name) ?? computeRecordMetrics(r.metric_input, comparisonRegistry(name));
}

/** The comparison of the same records summarised under each tool's (comparison) registry. */
export function compareConventions(byTool: ReadonlyMap<ConventionName, MetricsSummary>): ConventionComparison {
  const tags = comparedTags();
  const rows: ConventionComparisonRow[] = [];
  for (const tag of tags) {
    const values = {} as Record<ConventionName, MetricResult | null>;
    let any: MetricResult | null = null;
    for (const name of CONVENTION_NAMES) {
      const m = CONVENTIONS[name].undefinedTags.includes(tag) ? undefined : byTool.get(name)!.metrics.find((x) => x.tag === tag);
      values[name] = m ?? null;
      any ??= m ?? null;
    }
    if (any) rows.push({ tag, header: any.header, unit: any.unit, display: any.display, values });
  }
  return { tools: CONVENTION_NAMES, rows };
}

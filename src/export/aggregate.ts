// aggregate/profile_export_aggregate.json: every metric statistic of the successful runs
// (--num-profile-runs), aggregated across runs (metrics/aggregate.ts), in display units, with the
// run metadata AIPerf's reference lists; and its console table.
import { makeArtifactDir, writeArtifact } from './artifact-file.js';
import path from 'node:path';
import { aggregateValues, type AggregateStats } from '../metrics/aggregate.js';
import type { MetricsSummary } from '../metrics/core/summary.js';
import { MetricFlag } from '../metrics/core/types.js';
import { CONSOLE_GROUP_ORDER } from './console.js';
import { formatNumber, stringifyWithBigInt } from './format.js';
import { metricEntry } from './metric-entry.js';
import { renderTable, type Column } from './table.js';
import { withUnit } from '../metrics/core/units.js';

export const AGGREGATE_DIR = 'aggregate';
export const AGGREGATE_JSON = 'profile_export_aggregate.json';

export interface RunOutcomeForAggregate {
  label: string;
  summary: MetricsSummary;
}

export interface FailedRun {
  label: string;
  error: string;
}

export interface AggregateMeta {
  num_profile_runs: number;
  /** Every run's label, in order (run_1, run_2, …), failed ones included. */
  run_labels: string[];
  failed_runs: FailedRun[];
  confidence_level: number | null;
  cooldown_seconds: number;
  /** Anything else for the top level (config, convention, interrupted, …). */
  extra?: Record<string, unknown>;
}

export interface AggregateMetric {
  header: string;
  unit: string;
  /** Statistic of each run's entry (avg, p99, …) → its statistics across runs. */
  stats: Record<string, AggregateStats>;
}

/**
 * Each metric's numeric statistics across the runs that have it. Absolute stamps (bigint) and the
 * intervals of single runs are left out: neither is a quantity to average across runs.
 */
export function aggregateMetrics(runs: readonly RunOutcomeForAggregate[], level: number | null): Record<string, AggregateMetric> {
  const values = new Map<string, { header: string; unit: string; stats: Map<string, number[]> }>();
  for (const run of runs) {
    for (const m of run.summary.metrics) {
      const entry = metricEntry(m) as unknown as Record<string, unknown>;
      let slot = values.get(m.tag);
      if (!slot) values.set(m.tag, (slot = { header: m.header, unit: String(entry.unit), stats: new Map() }));
      for (const [k, v] of Object.entries(entry)) {
        if (typeof v !== 'number' || !Number.isFinite(v)) continue;
        const list = slot.stats.get(k) ?? [];
        list.push(v);
        slot.stats.set(k, list);
      }
    }
  }
  const out: Record<string, AggregateMetric> = {};
  for (const [tag, slot] of values) {
    if (slot.stats.size === 0) continue;
    const stats: Record<string, AggregateStats> = {};
    for (const [k, list] of slot.stats) stats[k] = aggregateValues(list, level);
    out[tag] = { header: slot.header, unit: slot.unit, stats };
  }
  return out;
}

export function buildAggregateExport(runs: readonly RunOutcomeForAggregate[], meta: AggregateMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {
    aggregation_type: 'confidence',
    num_profile_runs: meta.num_profile_runs,
    num_successful_runs: runs.length,
    failed_runs: meta.failed_runs,
    confidence_level: meta.confidence_level,
    cooldown_seconds: meta.cooldown_seconds,
    run_labels: meta.run_labels,
    successful_runs: runs.map((r) => r.label),
    metrics: aggregateMetrics(runs, meta.confidence_level),
  };
  for (const [k, v] of Object.entries(meta.extra ?? {})) if (!(k in out)) out[k] = v;
  return out;
}

/** Writes <dir>/aggregate/profile_export_aggregate.json; returns its path. */
export async function writeAggregateExport(dir: string, runs: readonly RunOutcomeForAggregate[], meta: AggregateMeta): Promise<string> {
  const file = path.join(dir, AGGREGATE_DIR, AGGREGATE_JSON);
  await makeArtifactDir(path.dirname(file));
  await writeArtifact(file, stringifyWithBigInt(buildAggregateExport(runs, meta), 2) + '\n');
  return file;
}

const cell = (v: number | null, decimals = 2) => (v === null ? '—' : formatNumber(v, decimals));

/**
 * The console view: each console metric's run-level value (a distribution's avg) across the
 * runs: mean, std, coefficient of variation and the interval of the mean.
 */
export function renderAggregateTable(
  runs: readonly RunOutcomeForAggregate[],
  level: number | null,
  opts: { ascii?: boolean; color?: boolean } = {},
): string {
  const last = runs[runs.length - 1]?.summary;
  if (!last) return '';
  const metrics = aggregateMetrics(runs, level);
  // The console's metrics, in the console's group order.
  const shown = CONSOLE_GROUP_ORDER.filter((g) => g !== 'http_trace').flatMap((g) =>
    last.metrics.filter((m) => m.group === g && (m.flags & MetricFlag.NO_CONSOLE) === 0),
  );
  const rows: string[][] = [];
  for (const m of shown) {
    const s = metrics[m.tag]?.stats.avg;
    if (!s) continue;
    rows.push([
      withUnit(m.header, m.display),
      cell(s.mean),
      cell(s.std),
      s.cv === null ? '—' : `${formatNumber(s.cv * 100, 1)} %`,
      s.ci_low === null || s.ci_high === null ? '—' : `${cell(s.ci_low)} – ${cell(s.ci_high)}`,
    ]);
  }
  const ci = level === null ? 'interval' : `${Number((level * 100).toFixed(4))} % interval`;
  const columns: Column[] = [
    { header: 'Metric (avg of each run)', align: 'left' },
    { header: 'mean', align: 'right' },
    { header: 'std', align: 'right' },
    { header: 'cv', align: 'right' },
    { header: ci, align: 'right' },
  ];
  return renderTable({ title: `Across ${runs.length} runs`, columns, rows, ascii: opts.ascii, color: opts.color });
}

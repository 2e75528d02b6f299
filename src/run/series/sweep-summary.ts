// sweep_summary.json and sweep_summary.csv: one row per sweep point, in display units.
import { makeArtifactDir, writeArtifact } from '../../export/artifact-file.js';
import path from 'node:path';
import { csvField } from '../../export/csv.js';
import { stringifyWithBigInt } from '../../export/format.js';
import { scrub } from '../../secrets.js';
import { findMetric, type MetricsSummary } from '../../metrics/core/summary.js';
import type { SweepConfig } from '../../load/config.js';
import type { RunOutcome } from '../single/types.js';
import type { SweepPoint, SweepRow } from './types.js';

export const SWEEP_JSON = 'sweep_summary.json';
export const SWEEP_CSV = 'sweep_summary.csv';

/** A distribution percentile or single value, converted from ns to ms where the metric is in ns. */
function value(summary: MetricsSummary, tag: string, stat: 'p50' | 'p99' | 'avg'): number | null {
  const m = findMetric(summary, tag);
  if (!m) return null;
  const v = m.kind === 'distribution' ? m.stats[stat] : m.stats.avg;
  return m.unit === 'ns' ? v / 1e6 : v;
}

export function sweepRow(p: SweepPoint, o: RunOutcome, dir: string, goodFraction: number | null): SweepRow {
  const s = o.summary;
  return {
    point: p.index + 1,
    strategy: p.strategy,
    concurrency: p.concurrency,
    target_request_rate: p.rate,
    achieved_request_rate: value(s, 'request_throughput', 'avg'),
    ttft_p50_ms: value(s, 'time_to_first_token', 'p50'),
    ttft_p99_ms: value(s, 'time_to_first_token', 'p99'),
    itl_p50_ms: value(s, 'inter_token_latency', 'p50'),
    itl_p99_ms: value(s, 'inter_token_latency', 'p99'),
    output_token_throughput: value(s, 'output_token_throughput', 'avg'),
    goodput: value(s, 'goodput', 'avg'),
    good_request_fraction: goodFraction,
    issued: s.counts.issued,
    succeeded: s.counts.succeeded,
    errored: s.counts.errored,
    cancelled: s.counts.cancelled,
    dir,
  };
}

const COLUMNS: (keyof SweepRow)[] = [
  'point',
  'strategy',
  'concurrency',
  'target_request_rate',
  'achieved_request_rate',
  'ttft_p50_ms',
  'ttft_p99_ms',
  'itl_p50_ms',
  'itl_p99_ms',
  'output_token_throughput',
  'goodput',
  'good_request_fraction',
  'issued',
  'succeeded',
  'errored',
  'cancelled',
  'dir',
];

export function renderSweepCsv(rows: readonly SweepRow[]): string {
  const cell = (v: unknown) =>
    v === null || v === undefined ? '' : typeof v === 'number' ? String(Number(v.toFixed(4))) : csvField(String(v));
  return [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

export async function writeSweepSummary(
  dir: string,
  rows: readonly SweepRow[],
  meta: { stopped: string | null; planned_points: number; sweep: SweepConfig | null },
): Promise<string[]> {
  await makeArtifactDir(dir);
  const json = path.join(dir, SWEEP_JSON);
  const csv = path.join(dir, SWEEP_CSV);
  const units = {
    achieved_request_rate: 'requests/s',
    target_request_rate: 'requests/s',
    ttft: 'ms',
    itl: 'ms',
    output_token_throughput: 'tokens/s',
    goodput: 'requests/s',
  };
  await writeArtifact(
    json,
    stringifyWithBigInt(
      { schema_version: 1, sweep: meta.sweep, planned_points: meta.planned_points, stopped: meta.stopped, units, points: rows },
      2,
    ) + '\n',
  );
  await writeArtifact(csv, scrub(renderSweepCsv(rows)));
  return [json, csv];
}

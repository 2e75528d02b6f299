// Builds the report's model from exports alone: one run, several runs overlaid, or a sweep.
import type { RunExports, SweepSummaryJson } from '../export/read-run.js';
import type { MetricRegistry } from '../metrics/core/registry.js';
import { distributionCharts } from './distributions.js';
import { runHeader, runWarnings } from './header.js';
import type { ReportModel, ReportSection } from './model.js';
import { sweepCharts } from './sweep.js';
import { gpuCharts, scatterCharts, timeSliceCharts } from './timeline.js';

export type ReportInput =
  | { kind: 'run'; runs: [RunExports] }
  | { kind: 'overlay'; runs: RunExports[] }
  | { kind: 'sweep'; label: string; summary: SweepSummaryJson; runs: RunExports[] };

const SERVER_METRICS_NOTE =
  "The server's own metrics (running and waiting requests, KV cache use) are not in these exports, so they have no plot.";

export function buildReport(input: ReportInput, registry: MetricRegistry, version: string): ReportModel {
  const runs = input.runs;
  const many = runs.length > 1;
  const notes: string[] = [];
  const sections: ReportSection[] = [];
  if (input.kind === 'sweep') {
    const pareto = sweepCharts(runs);
    if (pareto.length > 0) sections.push({ title: 'Sweep: latency against throughput', charts: pareto });
    else notes.push('Fewer than two sweep points measured a throughput: no Pareto plot.');
    if (input.summary.stopped) notes.push(`The sweep stopped early (${input.summary.stopped}).`);
  }
  const dist = distributionCharts(runs, registry);
  if (dist.charts.length > 0) sections.push({ title: 'Distributions', charts: dist.charts });
  if (dist.missing.length > 0) notes.push(`No histogram of ${dist.missing.join(', ')} (histograms.json absent or without values).`);
  if (input.kind !== 'sweep') {
    const noRecords = runs.filter((r) => r.records === null).map((r) => r.label);
    if (noRecords.length > 0)
      notes.push(`No records.jsonl in ${noRecords.join(', ')} (export level summary): no per-request or over-time plots for it.`);
    const scatter = scatterCharts(runs);
    if (scatter.length > 0) sections.push({ title: 'Per request', charts: scatter });
    const time = [...timeSliceCharts(runs), ...gpuCharts(runs)];
    if (time.length > 0) sections.push({ title: 'Over time', charts: time });
    if (runs.every((r) => r.gpu === null)) notes.push('No GPU samples (gpu_telemetry.jsonl; --gpu-telemetry): no power or energy plot.');
    notes.push(SERVER_METRICS_NOTE);
  }
  const title =
    input.kind === 'sweep'
      ? `servebench sweep report: ${input.label}`
      : many
        ? `servebench report: ${runs.map((r) => r.label).join(' vs ')}`
        : `servebench report: ${runs[0].label}`;
  return {
    title,
    kind: input.kind,
    generated_by: `servebench ${version}`,
    runs: runs.map(runHeader),
    warnings: runs.flatMap((r) => runWarnings(r, many)),
    notes,
    sections,
  };
}

// Console tables: one per non-empty console group, distributions first (avg, min, max, p99, p90,
// p50, std), then time-weighted values (avg and percentiles; no min or std), then single values
// (in the avg column), all in display units.
import type { MetricResult, MetricsSummary } from '../metrics/core/summary.js';
import { formatAcceptanceHistogram } from '../metrics/families/spec-decode.js';
import { MetricFlag, type ConsoleGroup } from '../metrics/core/types.js';
import { formatNumber } from './format.js';
import { metricEntry, type TimeWeightedEntry } from './metric-entry.js';
import { renderTable, tableWidth, wrapText, type Column } from './table.js';
import { withUnit } from '../metrics/core/units.js';
import { anyUnbounded, distributionCell, renderConventionsTable, unboundedNote } from './console-statistics.js';

export interface ConsoleOptions {
  /** ANSI colour; pass false when stdout is not a TTY. Default false. */
  color?: boolean;
  /** Terminal width in columns; tables wrap metric names, then drop columns, to fit. Default: no limit. */
  width?: number;
  /** Plain ASCII borders instead of box drawing. Default false. */
  ascii?: boolean;
  /** Show the HTTP trace table (--show-trace-timing). Default false; the JSON always has it. */
  showTraceTiming?: boolean;
}

/** Display order of the console tables; groups added later slot in by name. */
export const CONSOLE_GROUP_ORDER: readonly Exclude<ConsoleGroup, 'none'>[] = [
  'effective',
  'active',
  'usage',
  'cache',
  'prediction',
  'audio',
  'reasoning',
  'default',
  'spec_decode',
  'http_trace',
  // GPU power efficiency, one section per vendor, after the main tables.
  'gpu_power_nvidia',
  'gpu_power_amd',
];

export const CONSOLE_GROUP_TITLES: Record<Exclude<ConsoleGroup, 'none'>, string> = {
  effective: 'Effective Metrics',
  active: 'Active Metrics',
  usage: 'LLM Metrics: Usage',
  cache: 'LLM Metrics: Cache',
  prediction: 'LLM Metrics: Prediction',
  audio: 'LLM Metrics: Audio',
  reasoning: 'LLM Metrics: Reasoning',
  default: 'LLM Metrics',
  spec_decode: 'Spec Decode',
  http_trace: 'HTTP Trace Metrics',
  gpu_power_nvidia: 'GPU Power Efficiency (NVIDIA)',
  gpu_power_amd: 'GPU Power Efficiency (AMD)',
};

// '±': the half-width of the mean's confidence interval, next to avg (only when some row has one).
const STAT_COLUMNS = ['avg', '±', 'min', 'max', 'p99', 'p90', 'p50', 'std'] as const;
type StatColumn = (typeof STAT_COLUMNS)[number];
/** Narrow terminals lose columns in this order; avg always stays. */
const DROP_ORDER: readonly StatColumn[] = ['±', 'std', 'p50', 'p90', 'p99', 'max', 'min'];
const MIN_LABEL_WIDTH = 14;

export function renderConsole(summary: MetricsSummary, opts: ConsoleOptions = {}): string {
  const tables: string[] = [];
  for (const group of CONSOLE_GROUP_ORDER) {
    if (group === 'http_trace' && !opts.showTraceTiming) continue;
    const metrics = summary.metrics.filter((m) => m.group === group && (m.flags & MetricFlag.NO_CONSOLE) === 0);
    if (metrics.length === 0) continue;
    let table = renderGroup(CONSOLE_GROUP_TITLES[group], metrics, opts, summary.confidence_level);
    // The pooled acceptance histogram rides under the Spec Decode table as one line.
    const hist = summary.pooled_spec_decode_acceptance_histogram;
    if (group === 'spec_decode' && hist) table += '\n' + formatAcceptanceHistogram(hist);
    tables.push(table);
  }
  // --convention all: the metrics whose definitions differ, side by side.
  if (summary.conventions && summary.conventions.rows.length > 0) tables.push(renderConventionsTable(summary.conventions, opts));
  return tables.length > 0 ? tables.join('\n\n') + '\n' : '';
}

function renderGroup(title: string, metrics: MetricResult[], opts: ConsoleOptions, level?: number | null): string {
  const dists = metrics.filter((m) => m.kind === 'distribution');
  const timeWeighted = metrics.filter((m) => m.kind === 'time_weighted');
  const singles = metrics.filter((m) => m.kind === 'single');
  const labels = [...dists, ...timeWeighted, ...singles].map((m) => withUnit(m.header, m.display));
  const hasStats = dists.length + timeWeighted.length > 0;
  // Every stat column's cells, one per row (singles fill avg only).
  const cells = new Map<StatColumn, string[]>();
  if (hasStats) {
    for (const col of STAT_COLUMNS) {
      // With intervals: avg as mean ± half-width, unboundable percentiles marked (console-statistics.ts).
      const distCells = dists.map((m) => (m.kind === 'distribution' ? distributionCell(m, col) : ''));
      const twCells = timeWeighted.map((m) =>
        col === 'min' || col === 'std' || col === '±' ? '' : formatNumber((metricEntry(m) as TimeWeightedEntry)[col]),
      );
      const singleCells = singles.map((m) => (col === 'avg' ? formatSingle(m) : ''));
      const column = [...distCells, ...twCells, ...singleCells];
      // A column no row fills (min and std of a time-weighted-only table) is left out.
      if (col === 'avg' || column.some((c) => c !== '')) cells.set(col, column);
    }
  } else {
    cells.set('avg', singles.map(formatSingle));
  }
  const header = (col: StatColumn) => (hasStats ? col : 'value');
  const visible: StatColumn[] = [...cells.keys()];
  const hidden: StatColumn[] = [];
  let labelCells = labels;
  const limit = opts.width ?? Infinity;

  for (;;) {
    const statWidths = visible.map((c) => Math.max(header(c).length, ...cells.get(c)!.map((s) => s.length)));
    const labelWidth = Math.max('Metric'.length, ...labels.map((l) => l.length));
    if (tableWidth([labelWidth, ...statWidths]) <= limit) break;
    // Room left for the metric column once the stat columns and its own borders are paid for.
    const room = limit - tableWidth(statWidths) - 3;
    const dropNext = DROP_ORDER.find((c) => visible.includes(c));
    if (room >= MIN_LABEL_WIDTH || dropNext === undefined) {
      labelCells = labels.map((l) => wrapText(l, Math.max(room, MIN_LABEL_WIDTH)));
      break;
    }
    visible.splice(visible.indexOf(dropNext), 1);
    hidden.push(dropNext);
  }

  const columns: Column[] = [{ header: 'Metric', align: 'left' }, ...visible.map((c): Column => ({ header: header(c), align: 'right' }))];
  const rows = labelCells.map((label, i) => [label, ...visible.map((c) => cells.get(c)![i])]);
  let out = renderTable({ title, columns, rows, ascii: opts.ascii, color: opts.color });
  if (hidden.length > 0) out += '\n' + wrapText(`(${hidden.join(', ')} hidden to fit ${limit} columns)`, limit);
  if (anyUnbounded(dists, visible)) out += '\n' + wrapText(unboundedNote(level), Number.isFinite(limit) ? limit : Infinity);
  return out;
}

/** Whole counts (requests, tokens) print without decimals; everything else with two. */
function formatSingle(m: MetricResult): string {
  const v = metricEntry(m).avg;
  if (typeof v === 'bigint') return v.toString();
  const count = m.display === 'requests' || m.display === 'tokens' || m.display === 'count' || m.display === 'bytes';
  return formatNumber(v, count && Number.isInteger(v) ? 0 : 2);
}

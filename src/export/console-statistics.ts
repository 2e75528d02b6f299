// Console pieces of issue 4's statistics: a distribution's cell with its interval (the mean as
// `mean ± half-width`, a percentile the sample cannot bound marked with `*`), the note that
// explains the mark, and the side-by-side table of `--convention all`.
import { CONVENTIONS } from '../metrics/conventions.js';
import type { ConventionComparison, DistributionResult, MetricResult } from '../metrics/core/summary.js';
import { formatNumber } from './format.js';
import { metricEntry, type DistributionEntry } from './metric-entry.js';
import { renderTable, type Column } from './table.js';
import { withUnit } from '../metrics/core/units.js';

/** The mark after a percentile whose interval the sample is too small to give. */
export const UNBOUNDED_MARK = '*';

/**
 * One stat cell of a distribution row. Column '±' holds "± half-width" of the mean's interval (so
 * the row reads `mean ± half-width`); an unboundable percentile carries the mark.
 */
export function distributionCell(m: DistributionResult, col: string): string {
  const e = metricEntry(m) as DistributionEntry & Record<string, unknown>;
  if (col === '±') return e.mean_ci ? `± ${formatNumber((e.mean_ci[1] - e.mean_ci[0]) / 2)}` : '';
  const v = e[col];
  if (typeof v !== 'number') return '';
  const cell = formatNumber(v);
  if (/^p\d/.test(col) && e.percentile_cis && e.percentile_cis[col] === null) return cell + UNBOUNDED_MARK;
  return cell;
}

/** Whether any shown percentile of these rows got the mark. */
export function anyUnbounded(metrics: readonly MetricResult[], cols: readonly string[]): boolean {
  return metrics.some((m) => m.kind === 'distribution' && cols.some((c) => distributionCell(m, c).endsWith(UNBOUNDED_MARK)));
}

export function unboundedNote(level: number | null | undefined): string {
  const pct = level == null ? '' : ` at ${Number((level * 100).toFixed(4))} % confidence`;
  return `${UNBOUNDED_MARK} too few requests to bound this percentile${pct} (± is the mean's interval)`;
}

function valueCell(m: MetricResult | null): string {
  if (!m) return '—';
  const e = metricEntry(m);
  const v = e.avg;
  return typeof v === 'bigint' ? v.toString() : formatNumber(v);
}

/**
 * `--convention all`: one row per metric whose definition differs, each tool's value in its own
 * column (the mean of a distribution, the value of a run-level metric); — where a tool does not
 * define the metric or it had no value.
 */
export function renderConventionsTable(c: ConventionComparison, opts: { ascii?: boolean; color?: boolean } = {}): string {
  const columns: Column[] = [
    { header: 'Metric (avg)', align: 'left' },
    ...c.tools.map((t): Column => ({ header: CONVENTIONS[t].title, align: 'right' })),
  ];
  const rows = c.rows.map((r) => [withUnit(r.header, r.display), ...c.tools.map((t) => valueCell(r.values[t]))]);
  return renderTable({ title: 'Conventions: each tool’s definition', columns, rows, ascii: opts.ascii, color: opts.color });
}

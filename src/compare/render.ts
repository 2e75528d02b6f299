// `compare` output: a console table, GitHub markdown (for pull-request comments) or JSON.
import { renderTable } from '../export/table.js';
import type { Comparison, MetricRow } from './compare.js';
import { TESTS } from './noise.js';

export type CompareFormat = 'table' | 'markdown' | 'json';

function num(v: number | null): string {
  if (v === null) return '—';
  const a = Math.abs(v);
  return v.toFixed(a >= 1000 ? 0 : a >= 100 ? 1 : a >= 1 ? 2 : 4);
}

function delta(v: number | null): string {
  return v === null ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(1)} %`;
}

function metricLabel(r: MetricRow): string {
  const stat = r.stat === 'value' ? '' : ` ${r.stat}`;
  return `${r.header}${stat} (${r.unit})${r.larger_is_better ? ' ↑' : ' ↓'}`;
}

function header(c: Comparison): string[] {
  const cols = ['Metric', `${c.runs[0].label} (baseline)`];
  for (const r of c.runs.slice(1)) cols.push(r.label, 'Δ', 'verdict');
  return cols;
}

function rowCells(r: MetricRow): string[] {
  const out = [metricLabel(r), num(r.cells[0].value)];
  for (const cell of r.cells.slice(1)) out.push(num(cell.value), delta(cell.delta_pct), cell.verdict ?? '');
  return out;
}

/** The comparison as columns and rows of text (for the HTML report). */
export function comparisonCells(c: Comparison): { columns: string[]; rows: string[][]; notes: string[] } {
  return { columns: header(c), rows: c.rows.map(rowCells), notes: [...configLines(c), ...notes(c)] };
}

function notes(c: Comparison): string[] {
  const out = [
    `↑ larger is better, ↓ smaller is better. Verdicts at 95 %: percentiles by ${TESTS.percentile}; means by ${TESTS.mean}; throughputs by ${TESTS.batch}; the error rate by ${TESTS.proportion}.`,
  ];
  if (c.noise_floor_pct > 0)
    out.push(`Changes under ${c.noise_floor_pct} % are within noise (--noise-floor): a run's intervals do not cover drift between runs.`);
  const inconclusive = c.rows.flatMap((r) =>
    r.cells.filter((x) => x.verdict === 'inconclusive' || x.verdict === 'not comparable').map((x) => `${r.metric}: ${x.detail}`),
  );
  for (const n of [...new Set(inconclusive)]) out.push(n);
  for (const g of c.regressions) out.push(`REGRESSION: ${g.metric} in ${g.run} (${delta(g.delta_pct)})`);
  return out;
}

function configLines(c: Comparison): string[] {
  if (c.config_differences.length === 0) return ['Config: the same in every run.'];
  return [
    `Config keys that differ (${c.runs.map((r) => r.label).join(' | ')}):`,
    ...c.config_differences.map((d) => `  ${d.key}: ${d.values.join(' | ')}`),
  ];
}

export function renderCompareTable(c: Comparison, opts: { color?: boolean } = {}): string {
  const cols = header(c).map((h, i) => ({ header: h, align: i === 0 || h === 'verdict' ? ('left' as const) : ('right' as const) }));
  const table = renderTable({ title: 'Comparison', columns: cols, rows: c.rows.map(rowCells), color: opts.color });
  return [...configLines(c), '', table, ...notes(c)].join('\n');
}

function mdEscape(s: string): string {
  return s.replace(/\|/g, '\\|');
}

export function renderCompareMarkdown(c: Comparison): string {
  const cols = header(c);
  const lines: string[] = ['### servebench compare', ''];
  if (c.config_differences.length > 0) {
    lines.push('**Config keys that differ**', '', `| key | ${c.runs.map((r) => mdEscape(r.label)).join(' | ')} |`);
    lines.push(`|---|${c.runs.map(() => '---').join('|')}|`);
    for (const d of c.config_differences) lines.push(`| \`${d.key}\` | ${d.values.map((v) => mdEscape(v)).join(' | ')} |`);
    lines.push('');
  }
  lines.push(
    `| ${cols.map(mdEscape).join(' | ')} |`,
    `|${cols.map((_, i) => (i === 0 || cols[i] === 'verdict' ? '---' : '---:')).join('|')}|`,
  );
  for (const r of c.rows) {
    const cells = rowCells(r).map((x) => (x === 'worse' ? '**worse**' : mdEscape(x)));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push('', ...notes(c).map((n) => `- ${mdEscape(n)}`));
  return lines.join('\n');
}

export function renderCompareJson(c: Comparison): string {
  return JSON.stringify(
    {
      baseline: c.runs[0].label,
      runs: c.runs,
      config_differences: c.config_differences,
      noise_floor_pct: c.noise_floor_pct,
      confidence_level: 0.95,
      metrics: c.rows,
      regressions: c.regressions,
    },
    null,
    2,
  );
}

export function renderComparison(c: Comparison, format: CompareFormat, color = false): string {
  if (format === 'json') return renderCompareJson(c);
  if (format === 'markdown') return renderCompareMarkdown(c);
  return renderCompareTable(c, { color });
}

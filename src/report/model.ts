// The report's model: what the page shows, as plain JSON inlined into report.html. Each chart is
// uPlot-ready: aligned columns (x first, one column per series, null where a series has no point).

export type SeriesKind = 'line' | 'points' | 'linepoints' | 'bars' | 'step';

export interface SeriesSpec {
  label: string;
  color: string;
  kind: SeriesKind;
  /** 'y' (left axis, default) or 'y2' (right axis). */
  scale?: 'y' | 'y2';
}

/** A vertical (axis x) or horizontal (axis y) line across the plot: a percentile, an SLO, the knee. */
export interface Mark {
  axis: 'x' | 'y';
  value: number;
  label: string;
  color: string;
}

export interface ChartSpec {
  id: string;
  title: string;
  /** One line: what to read from the plot. */
  caption: string;
  x: { label: string };
  y: { label: string };
  y2?: { label: string };
  series: SeriesSpec[];
  data: (number | null)[][];
  marks: Mark[];
  /** E.g. the down-sampling applied. */
  note?: string;
}

export interface RunHeader {
  label: string;
  servebench_version: string | null;
  model: string | null;
  endpoint: string | null;
  load: string;
  transport: string | null;
  counts: { issued: number; succeeded: number; errored: number; cancelled: number };
  duration_s: number | null;
  started: string | null;
  /** The run's config from its export (already redacted there; redacted again here). */
  config: unknown;
}

export interface ReportSection {
  title: string;
  charts: ChartSpec[];
}

export interface ReportModel {
  title: string;
  kind: 'run' | 'overlay' | 'sweep';
  generated_by: string;
  runs: RunHeader[];
  /** The harness's own warnings and anything else the reader must see first. */
  warnings: string[];
  /** What the page could not show, and why (no records.jsonl, no GPU samples, …). */
  notes: string[];
  sections: ReportSection[];
  /** `compare --html`: the comparison table, as printed. */
  comparison?: { columns: string[]; rows: string[][]; notes: string[] };
}

/** Colours for runs and series, distinguishable and readable on white. */
export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
export const STATUS_COLORS = { ok: '#1f77b4', error: '#d62728', cancelled: '#ff7f0e' } as const;

export function color(i: number): string {
  return PALETTE[i % PALETTE.length];
}

/** 4 significant digits: plenty for a plot, and it keeps the inlined data small. */
export function round(v: number | null | undefined): number | null {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  return v === 0 ? 0 : Number(v.toPrecision(4));
}

/**
 * Aligns series that each have their own x values into uPlot's columns: the sorted union of the
 * x values, each series null where it has no point (a repeated x keeps the series' last y).
 */
export function join(series: ReadonlyArray<{ x: readonly number[]; y: readonly (number | null)[] }>): (number | null)[][] {
  const xs = [...new Set(series.flatMap((s) => s.x.map((v) => round(v)!)))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i] as const));
  const cols: (number | null)[][] = [xs];
  for (const s of series) {
    const col = new Array<number | null>(xs.length).fill(null);
    s.x.forEach((x, i) => {
      const y = round(s.y[i]);
      if (y !== null) col[index.get(round(x)!)!] = y;
    });
    cols.push(col);
  }
  return cols;
}

/**
 * Scatter columns: one row per point (x rounded to 6 significant digits, never merged with another
 * point's), sorted by x, the point's value in its series' column and null in the others.
 */
export function stack(series: ReadonlyArray<{ x: readonly number[]; y: readonly (number | null)[] }>): (number | null)[][] {
  const rows: { x: number; s: number; y: number | null }[] = [];
  series.forEach((g, s) => g.x.forEach((x, i) => rows.push({ x: Number(x.toPrecision(6)), s, y: round(g.y[i]) })));
  rows.sort((a, b) => a.x - b.x);
  const cols: (number | null)[][] = [rows.map((r) => r.x)];
  for (let s = 0; s < series.length; s++) cols.push(rows.map((r) => (r.s === s ? r.y : null)));
  return cols;
}

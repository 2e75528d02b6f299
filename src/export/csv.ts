// profile_export.csv: a distributions section, a blank line, then single-value rows, then (after
// another blank line) the time-weighted Effective / Active rows.
// Values in display units (named in the Metric column); RFC 4180 quoting.
import { PERCENTILES } from '../metrics/core/stats.js';
import type { MetricsSummary } from '../metrics/core/summary.js';
import { metricEntry, type DistributionEntry, type TimeWeightedEntry } from './metric-entry.js';
import { withUnit } from '../metrics/core/units.js';

const DIST_COLUMNS = ['avg', 'min', 'max', ...PERCENTILES.map((p) => `p${p}` as const), 'std'] as const;
const TIME_WEIGHTED_COLUMNS = ['avg', 'p50', 'p90', 'p95', 'p99', 'max'] as const;

export function renderCsv(summary: MetricsSummary): string {
  const dist: string[][] = [];
  const single: string[][] = [];
  const timeWeighted: string[][] = [];
  for (const m of summary.metrics) {
    const name = withUnit(m.header, m.display);
    const entry = metricEntry(m);
    if (m.kind === 'distribution') {
      const e = entry as DistributionEntry;
      dist.push([name, ...DIST_COLUMNS.map((c) => csvNumber(e[c]))]);
    } else if (m.kind === 'time_weighted') {
      const e = entry as TimeWeightedEntry;
      timeWeighted.push([name, ...TIME_WEIGHTED_COLUMNS.map((c) => csvNumber(e[c]))]);
    } else {
      single.push([name, csvNumber(entry.avg)]);
    }
  }
  const sections: string[][][] = [];
  if (dist.length > 0) sections.push([['Metric', ...DIST_COLUMNS], ...dist]);
  if (single.length > 0) sections.push([['Metric', 'Value'], ...single]);
  if (timeWeighted.length > 0) sections.push([['Metric', ...TIME_WEIGHTED_COLUMNS], ...timeWeighted]);
  return sections.map((rows) => rows.map((r) => r.map(csvField).join(',')).join('\n')).join('\n\n') + '\n';
}

/** Quote a field when it holds a comma, quote or line break; double the quotes inside. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Integers (and exact bigint stamps) as they are; other values rounded to 4 decimals, trailing zeros dropped. */
export function csvNumber(v: number | bigint): string {
  if (typeof v === 'bigint' || Number.isInteger(v)) return v.toString();
  return String(Number(v.toFixed(4)));
}

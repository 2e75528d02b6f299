// search_summary.json / .csv (one row per run of the search), the console table, and the answer line.
import path from 'node:path';
import { makeArtifactDir, writeArtifact } from '../../export/artifact-file.js';
import { csvField } from '../../export/csv.js';
import { formatNumber, stringifyWithBigInt } from '../../export/format.js';
import { renderTable } from '../../export/table.js';
import { scrub } from '../../secrets.js';
import type { SearchConfig } from '../../load/search-flags.js';
import type { SearchAnswer, SearchEnd } from './search-plan.js';

export const SEARCH_JSON = 'search_summary.json';
export const SEARCH_CSV = 'search_summary.csv';

export interface SearchRow {
  point: number;
  /** Requests/s (max-rate) or requests in flight (max-concurrency). */
  load: number;
  /** A second run at a load whose first one straddled the target. */
  remeasure: boolean;
  achieved_request_rate: number | null;
  ttft_p99_ms: number | null;
  itl_p99_ms: number | null;
  /** This run's good requests and the fraction's denominator. */
  good: number;
  total: number;
  succeeded: number;
  /** The load's verdict after this run: every run at the load pooled. */
  attainment: number | null;
  lower: number;
  upper: number;
  pooled_measurements: number;
  pass: boolean;
  uncertain: boolean;
  over_saturated: boolean;
  dir: string;
}

const COLUMNS: (keyof SearchRow)[] = [
  'point',
  'load',
  'remeasure',
  'achieved_request_rate',
  'ttft_p99_ms',
  'itl_p99_ms',
  'good',
  'total',
  'succeeded',
  'attainment',
  'lower',
  'upper',
  'pooled_measurements',
  'pass',
  'uncertain',
  'over_saturated',
  'dir',
];

export function renderSearchCsv(rows: readonly SearchRow[]): string {
  const cell = (v: unknown) =>
    v === null || v === undefined ? '' : typeof v === 'number' ? String(Number(v.toFixed(4))) : csvField(String(v));
  return [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

const n = (v: number) => String(Number(v.toPrecision(6)));

/** The answer in one line: "max rate meeting the SLOs: 37.5 req/s ± 1.9 (passed at 35.6, failed at 39.4)". */
export function describeAnswer(s: SearchConfig, a: SearchAnswer | null, reason: SearchEnd | 'interrupted'): string {
  const rate = s.kind === 'max-rate';
  const what = rate ? 'max rate meeting the SLOs' : 'max concurrency meeting the SLOs';
  const u = rate ? ' req/s' : '';
  const why = reason === 'budget' ? '; the point budget ran out' : reason === 'interrupted' ? '; interrupted' : '';
  if (a === null) return `${what}: none (no point ran${why})`;
  if (a.lo === null) return `${what}: none: every load tried failed (lowest ${a.hi === null ? '-' : n(a.hi)}${u}${why})`;
  if (a.hi === null) return `${what}: at least ${n(a.lo)}${u} (every load tried passed${why})`;
  const range = a.uncertain
    ? `; counting only certain verdicts, between ${a.rangeLo === null ? 'none' : n(a.rangeLo)} and ${a.rangeHi === null ? 'above every load tried' : n(a.rangeHi)}${u}`
    : '';
  const body = rate ? `${n(a.value!)} req/s ± ${n(a.plusMinus!)} (passed at ${n(a.lo)}, failed at ${n(a.hi)})` : `${a.lo} (${a.hi} failed)`;
  return `${what}: ${body}${range}${why}`;
}

export function renderSearchTable(s: SearchConfig, rows: readonly SearchRow[], opts: { color?: boolean } = {}): string {
  const num = (v: number | null, d = 2) => (v === null ? '-' : formatNumber(v, d));
  return renderTable({
    title: `Search (${s.kind}, target ${s.fraction} of requests good)`,
    color: opts.color,
    columns: [
      { header: 'point', align: 'right' },
      { header: s.kind === 'max-rate' ? 'rate (req/s)' : 'concurrency', align: 'right' },
      { header: 'achieved req/s', align: 'right' },
      { header: 'TTFT p99 (ms)', align: 'right' },
      { header: 'good/total', align: 'right' },
      { header: 'attainment [interval]', align: 'right' },
      { header: 'verdict', align: 'left' },
    ],
    rows: rows.map((r) => [
      String(r.point),
      n(r.load),
      num(r.achieved_request_rate),
      num(r.ttft_p99_ms),
      `${r.good}/${r.total}`,
      `${r.attainment === null ? '-' : r.attainment.toFixed(3)} [${r.lower.toFixed(3)}, ${r.upper.toFixed(3)}]`,
      `${r.pass ? 'pass' : 'fail'}${r.uncertain ? ' (uncertain)' : ''}${r.over_saturated ? ' (over-saturated)' : ''}${r.remeasure ? ' (re-measured)' : ''}`,
    ]),
  });
}

export async function writeSearchSummary(
  dir: string,
  rows: readonly SearchRow[],
  meta: { search: SearchConfig; confidence: number; reason: string; answer: SearchAnswer | null; line: string },
): Promise<string[]> {
  await makeArtifactDir(dir);
  const json = path.join(dir, SEARCH_JSON);
  const csv = path.join(dir, SEARCH_CSV);
  const units = {
    load: meta.search.kind === 'max-rate' ? 'requests/s' : 'requests in flight',
    ttft: 'ms',
    itl: 'ms',
    achieved_request_rate: 'requests/s',
  };
  await writeArtifact(
    json,
    stringifyWithBigInt(
      {
        schema_version: 1,
        search: meta.search,
        interval: { kind: 'wilson', confidence: meta.confidence },
        ended: meta.reason,
        answer: meta.answer,
        answer_line: meta.line,
        units,
        points: rows,
      },
      2,
    ) + '\n',
  );
  await writeArtifact(csv, scrub(renderSearchCsv(rows)));
  return [json, csv];
}

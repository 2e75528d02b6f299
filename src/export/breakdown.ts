// The `breakdown` section: the run's metrics per URL and per model, beside the totals, when a run
// spread its requests over more than one of either. Recomputed from the records (each names its
// url and model), so `analyze` rebuilds it from records.jsonl.
import { SummaryAccumulator, type SummarizeOptions } from '../metrics/accumulate.js';
import { findMetric, type MetricsSummary, type RequestCounts } from '../metrics/core/summary.js';
import type { ProcessedRecord } from '../model/processed-record.js';
import { scrub } from '../secrets.js';
import { metricEntry, type MetricEntry } from './metric-entry.js';
import { renderTable } from './table.js';

export interface BreakdownGroup {
  counts: RequestCounts;
  metrics: Record<string, MetricEntry>;
}

export interface BreakdownJson {
  /** url → its requests' figures; absent when every request went to one URL. */
  url?: Record<string, BreakdownGroup>;
  model?: Record<string, BreakdownGroup>;
}

export interface Breakdown {
  json: BreakdownJson;
  console: string;
}

type Key = 'url' | 'model';

/**
 * A breakdown built a record at a time: one summary accumulator per URL and per model seen, for
 * the keys asked for (a run asks only for what its flags can split: more than one --url or --model).
 */
export class BreakdownBuilder {
  private readonly groups = new Map<Key, Map<string, SummaryAccumulator>>();

  constructor(
    private readonly opts: Pick<SummarizeOptions, 'significantDigits'> = {},
    keys: readonly Key[] = ['url', 'model'],
  ) {
    for (const k of keys) this.groups.set(k, new Map());
  }

  add(r: ProcessedRecord): void {
    const t = r.raw.credit.target;
    if (t === undefined || r.raw.credit.phase !== 'profiling') return;
    for (const [key, g] of this.groups) {
      let acc = g.get(t[key]);
      if (!acc) g.set(t[key], (acc = new SummaryAccumulator(this.opts)));
      acc.add(r);
    }
  }

  /** The breakdown, or null when the records went to one URL and one model. */
  build(color = false): Breakdown | null {
    const json: BreakdownJson = {};
    const tables: string[] = [];
    for (const [key, g] of this.groups) {
      if (g.size < 2) continue;
      const section: Record<string, BreakdownGroup> = {};
      const rows: string[][] = [];
      for (const [name, acc] of g) {
        const s = acc.finish();
        const metrics: Record<string, MetricEntry> = {};
        for (const m of s.metrics) metrics[m.tag] = metricEntry(m);
        section[name] = { counts: { ...s.counts }, metrics };
        const c = s.counts;
        rows.push([scrub(name), `${c.succeeded}/${c.issued}`, ...COLUMNS.map(([, tag, stat]) => cell(s, tag, stat))]);
      }
      json[key] = section;
      tables.push(
        renderTable({
          title: `Breakdown per ${key === 'url' ? 'URL' : 'model'}`,
          columns: [
            { header: key === 'url' ? 'URL' : 'Model', align: 'left' },
            { header: 'OK/issued', align: 'right' },
            ...COLUMNS.map(([h]) => ({ header: h, align: 'right' as const })),
          ],
          rows,
          color,
        }),
      );
    }
    return tables.length === 0 ? null : { json, console: tables.join('\n\n') };
  }
}

/** The columns the console shows per group: [header, tag, statistic]. */
const COLUMNS: [string, string, 'avg' | 'p50' | 'p99'][] = [
  ['TTFT avg (ms)', 'time_to_first_token', 'avg'],
  ['TTFT p99 (ms)', 'time_to_first_token', 'p99'],
  ['ITL avg (ms)', 'inter_token_latency', 'avg'],
  ['Latency avg (ms)', 'request_latency', 'avg'],
  ['Output tok/s', 'output_token_throughput', 'avg'],
  ['Req/s', 'request_throughput', 'avg'],
];

function cell(s: MetricsSummary, tag: string, stat: 'avg' | 'p50' | 'p99'): string {
  const m = findMetric(s, tag);
  if (!m) return '-';
  const e = metricEntry(m) as unknown as Record<string, unknown>;
  const v = e[stat];
  return typeof v === 'number' ? v.toFixed(2) : '-';
}

/** The breakdown of a run's records, or null when they went to one URL and one model. */
export function buildBreakdown(
  records: readonly ProcessedRecord[],
  opts: Pick<SummarizeOptions, 'significantDigits'> = {},
  color = false,
): Breakdown | null {
  const b = new BreakdownBuilder(opts);
  for (const r of records) b.add(r);
  return b.build(color);
}

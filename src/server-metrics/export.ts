// server_metrics.jsonl (one line per scrape per endpoint), and the console tables "Server Metrics"
// (mapped concepts only) and "Client vs Server".
import fs from 'node:fs';
import { ArtifactWriteError } from '../errors.js';
import { renderTable } from '../export/table.js';
import { scrub } from '../secrets.js';
import type { ConceptSummary } from './concepts.js';
import type { CrossCheck } from './cross-check.js';
import type { EndpointStats } from './worker-protocol.js';
import type { SeriesTable } from './series.js';

export const SERVER_METRICS_JSONL = 'server_metrics.jsonl';

function num(v: number): string {
  if (Number.isFinite(v)) return String(v);
  return JSON.stringify(Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf');
}

/** Writes one line per scrape per endpoint, in time order: t_ns (bare integer), ok, and every present series' value. */
export async function writeServerMetricsJsonl(
  file: string,
  scrapers: readonly { stats: EndpointStats; table: SeriesTable }[],
): Promise<void> {
  const out = fs.createWriteStream(file);
  const lines: { t: bigint; s: string }[] = [];
  for (const sc of scrapers) {
    const meta = sc.table.meta;
    const endpoint = JSON.stringify(sc.stats.url);
    for (const s of sc.table.scrapes) {
      if (s.values === null) {
        lines.push({ t: s.t_ns, s: `{"endpoint":${endpoint},"t_ns":${s.t_ns},"ok":false,"error":${JSON.stringify(s.error)}}` });
        continue;
      }
      const parts: string[] = [];
      for (let i = 0; i < s.values.length; i++) {
        const v = s.values[i];
        if (Number.isNaN(v)) continue; // absent from this scrape (a served NaN is indistinguishable, and rare)
        parts.push(`${JSON.stringify(meta[i].key)}:${num(v)}`);
      }
      lines.push({
        t: s.t_ns,
        s: `{"endpoint":${endpoint},"t_ns":${s.t_ns},"ok":true,"malformed_lines":${s.malformed},"values":{${parts.join(',')}}}`,
      });
    }
  }
  lines.sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
  // A full disk is one ArtifactWriteError naming the file, as for every other artifact.
  let failed: Error | null = null;
  out.on('error', (err) => (failed ??= err));
  for (const l of lines) {
    if (failed) break;
    if (!out.write(scrub(l.s) + '\n'))
      await new Promise<void>((r) => (failed ? r() : out.once('drain', () => r()).once('error', () => r())));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  if (failed) throw ArtifactWriteError.from(file, failed);
}

const fmt = (v: number | null | undefined, d = 2) => (v === null || v === undefined || !Number.isFinite(v) ? '' : v.toFixed(d));

function unitLabel(c: ConceptSummary): string {
  if (c.kind === 'histogram') return 'ms';
  if (c.unit === 'percent') return '%';
  return c.unit;
}

/** "Server Metrics": one row per mapped concept (avg min max p50 p90 p99 for gauges and histograms; increase and rate for counters). */
export function renderServerMetricsTable(concepts: readonly ConceptSummary[], opts: { color?: boolean } = {}): string | null {
  if (concepts.length === 0) return null;
  const rows = concepts.map((c) => {
    const label = `${c.header} (${unitLabel(c)})`;
    if (c.gauge) {
      const g = c.gauge;
      return [label, fmt(g.avg), fmt(g.min), fmt(g.max), fmt(g.p50), fmt(g.p90), fmt(g.p99), '', '', c.metric];
    }
    if (c.histogram) {
      const h = c.histogram;
      const ms = (v: number | null | undefined) => fmt(v === null || v === undefined ? v : v * 1e3);
      return [label, ms(h.mean), '', '', ms(h.p50?.value), ms(h.p90?.value), ms(h.p99?.value), String(h.count), '', c.metric];
    }
    if (c.counter) return [label, '', '', '', '', '', '', fmt(c.counter.increase, 0), fmt(c.counter.rate), c.metric];
    return [label, fmt(c.value), '', '', '', '', '', '', '', `${c.metric} / ${c.denominator}`];
  });
  const cols = ['Server Metric', 'avg', 'min', 'max', 'p50', 'p90', 'p99', 'total', 'per s', 'from'];
  return renderTable({
    title: 'Server Metrics',
    columns: cols.map((header, i) => ({ header, align: i === 0 || i === cols.length - 1 ? 'left' : 'right' })),
    rows,
    color: opts.color,
  });
}

export function renderCrossCheckTable(x: CrossCheck, opts: { color?: boolean } = {}): string | null {
  const rows: string[][] = [];
  if (x.ttft) {
    rows.push(['TTFT p50 (ms)', fmt(x.ttft.client_p50_ms), fmt(x.ttft.server_p50_ms), fmt(x.ttft.difference_p50_ms)]);
    if (x.ttft.server_p99_ms !== null && x.ttft.client_p99_ms !== null)
      rows.push(['TTFT p99 (ms)', fmt(x.ttft.client_p99_ms), fmt(x.ttft.server_p99_ms), fmt(x.ttft.difference_p99_ms)]);
  }
  if (x.generation_tokens) {
    const g = x.generation_tokens;
    rows.push(['Output / generation tokens', fmt(g.client, 0), fmt(g.server, 0), fmt(g.client - g.server, 0)]);
  }
  if (x.requests_running) {
    const r = x.requests_running;
    rows.push([
      'Concurrency / requests running',
      fmt(r.client_effective_concurrency),
      fmt(r.server_avg),
      fmt(r.client_effective_concurrency - r.server_avg),
    ]);
  }
  if (x.prefix_cache) {
    const p = x.prefix_cache;
    rows.push(['Prefix-cache hit % (ideal / server)', fmt(p.theoretical_pct), fmt(p.server_pct), fmt(p.theoretical_pct - p.server_pct)]);
  }
  if (rows.length === 0) return null;
  return renderTable({
    title: 'Client vs Server',
    columns: [
      { header: 'Metric', align: 'left' },
      { header: 'client', align: 'right' },
      { header: 'server', align: 'right' },
      { header: 'client - server', align: 'right' },
    ],
    rows,
    color: opts.color,
  });
}

// Server metrics around a `profile` run: endpoints discovered (<origin>/metrics,
// <origin>/prometheus/metrics) or named, scraped from before the first request to after the last,
// then summarized over the profiling window. run/single/run-once.ts calls only this. No failure here stops
// a run: an endpoint that cannot be used is one line, and the run goes on.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MetricsSummary } from '../metrics/core/summary.js';
import { endpointVendor, inventory, readConcepts, summarizeByType, type ConceptSummary } from './concepts.js';
import { crossCheck, type CrossCheck } from './cross-check.js';
import { renderCrossCheckTable, renderServerMetricsTable, SERVER_METRICS_JSONL, writeServerMetricsJsonl } from './export.js';
import { discoveryUrls, type ServerMetricsConfig } from './options.js';
import type { EndpointStats } from './worker-protocol.js';
import { SeriesTable } from './series.js';
import type { EndpointSnapshot, ScrapeInit, ScrapeStarted, ScrapeStopped } from './worker-protocol.js';
import { CONCEPTS } from './vendors.js';
import { bucketQuantile, type Window } from './window.js';

export interface ServerMetricsReport {
  /** The `server_metrics` section of profile_export.json. */
  section: Record<string, unknown>;
  /** Each mapped concept once, over the window (several endpoints combined). */
  concepts: Map<string, ConceptSummary>;
  crossCheck: CrossCheck;
  /** The console tables, or null when no concept was mapped. */
  console: string | null;
}

/** One endpoint's scrapes, back on the run's thread. */
export interface ScrapedEndpoint {
  url: string;
  discovered: boolean;
  stats: EndpointStats;
  table: SeriesTable;
}

function endpointOf(s: EndpointSnapshot): ScrapedEndpoint {
  return { url: s.url, discovered: s.discovered, stats: s.stats, table: SeriesTable.from(s) };
}

/** The compiled worker: next to this file in dist/, or dist/'s copy when this runs from src/ (tests). */
function workerPath(): string {
  const here = fileURLToPath(new URL('./scrape-worker.js', import.meta.url));
  if (existsSync(here)) return here;
  return fileURLToPath(new URL('../../dist/server-metrics/scrape-worker.js', import.meta.url));
}

function medianInterval(sc: ScrapedEndpoint): number | null {
  const t = sc.table.scrapes.map((s) => s.t_ns);
  if (t.length < 2) return null;
  const d = t
    .slice(1)
    .map((x, i) => Number(x - t[i]) / 1e6)
    .sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)];
}

/** Several endpoints' readings of one concept as one: counters and summed gauges add, histograms merge their buckets. */
function combine(list: ConceptSummary[]): ConceptSummary {
  if (list.length === 1) return list[0];
  const [first] = list;
  const c = CONCEPTS.find((x) => x.id === first.concept)!;
  const out: ConceptSummary = { ...first, metric: [...new Set(list.map((x) => x.metric))].join(', ') };
  if (first.counter) {
    const cs = list.map((x) => x.counter).filter((x) => x !== undefined);
    out.counter = {
      increase: cs.reduce((a, x) => a + x.increase, 0),
      rate: cs.reduce((a, x) => a + x.rate, 0),
      resets: cs.reduce((a, x) => a + x.resets, 0),
      span_s: Math.max(...cs.map((x) => x.span_s)),
    };
  } else if (first.gauge) {
    const gs = list.map((x) => x.gauge).filter((x) => x !== undefined);
    const k = c.agg === 'sum' ? 1 : 1 / gs.length;
    const add = (key: 'avg' | 'min' | 'max' | 'p50' | 'p90' | 'p99') => k * gs.reduce((a, x) => a + x[key], 0);
    out.gauge = {
      avg: add('avg'),
      min: add('min'),
      max: add('max'),
      p50: add('p50'),
      p90: add('p90'),
      p99: add('p99'),
      samples: gs.reduce((a, x) => a + x.samples, 0),
    };
  } else if (first.histogram) {
    const hs = list.map((x) => x.histogram).filter((x) => x !== undefined);
    const bounds = hs[0].buckets.map((b) => b.le);
    const same = hs.filter((h) => h.buckets.length === bounds.length && h.buckets.every((b, i) => b.le === bounds[i]));
    const buckets = bounds.map((le, i) => ({ le, count: same.reduce((a, h) => a + h.buckets[i].count, 0) }));
    const count = same.reduce((a, h) => a + h.count, 0);
    const sum = same.reduce((a, h) => a + h.sum, 0);
    out.histogram = {
      count,
      sum,
      mean: count > 0 ? sum / count : null,
      p50: bucketQuantile(0.5, buckets),
      p90: bucketQuantile(0.9, buckets),
      p99: bucketQuantile(0.99, buckets),
      buckets,
    };
  } else if (first.value !== undefined) {
    out.value = list.reduce((a, x) => a + (x.value ?? 0), 0) / list.length;
  }
  return out;
}

export class RunServerMetrics {
  private stopping: Promise<void> | null = null;
  /** The endpoints' scrapes, filled when the scrapers' thread stops. */
  private scrapers: ScrapedEndpoint[] = [];

  private constructor(
    readonly config: ServerMetricsConfig,
    private readonly worker: Worker,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Probes the endpoints (one scrape each) on the scrapers' own thread, which keeps those that
   * answer and scrapes them on their interval until stop(). Never throws.
   */
  static async start(cfg: ServerMetricsConfig, baseUrl: string, log: (line: string) => void): Promise<RunServerMetrics | null> {
    if (!cfg.enabled) return null;
    const named = new Set(cfg.urls);
    const init: ScrapeInit = {
      interval_ms: cfg.interval_ms,
      candidates: [
        ...discoveryUrls(baseUrl)
          .filter((u) => !named.has(u))
          .map((url) => ({ url, discovered: true })),
        ...cfg.urls.map((url) => ({ url, discovered: false })),
      ],
    };
    let worker: Worker;
    let started: ScrapeStarted;
    try {
      worker = new Worker(workerPath(), { workerData: init });
      started = await new Promise<ScrapeStarted>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`exited with code ${code}`)));
      });
    } catch (err) {
      log(`server metrics: the scrapers' thread failed (${(err as Error).message}); continuing without server metrics`);
      return null;
    }
    // A discovered path that is not there is expected (most servers serve one of the two); a named one is said.
    for (const d of started.dropped) if (!d.discovered) log(`server metrics: ${d.url} ${d.why}; continuing without it`);
    if (started.kept.length === 0) {
      await worker.terminate();
      if (cfg.urls.length === 0) log(`server metrics: none found at ${discoveryUrls(baseUrl).join(' or ')}; continuing without them`);
      return null;
    }
    const vendors = started.kept.map((s) => `${s.stats.url} (${endpointVendor(SeriesTable.from(s)) ?? 'unknown server'})`);
    log(`server metrics: ${vendors.join(', ')} every ${cfg.interval_ms} ms`);
    worker.unref();
    return new RunServerMetrics(cfg, worker, log);
  }

  /** Stops scraping, after one last scrape so the window's end is bracketed, and takes the scrapes back. Idempotent. */
  stop(finalScrape = true): Promise<void> {
    this.stopping ??= new Promise<ScrapeStopped | null>((resolve) => {
      this.worker.once('message', (m: ScrapeStopped) => resolve(m));
      this.worker.once('error', () => resolve(null));
      this.worker.once('exit', () => resolve(null));
      this.worker.postMessage({ stop: true, finalScrape });
    }).then((m) => {
      if (m === null) this.log("server metrics: the scrapers' thread failed; continuing without server metrics");
      this.scrapers = m === null ? [] : m.endpoints.map(endpointOf);
    });
    return this.stopping;
  }

  /** One slice's server figures: each concept's time-weighted average (gauges), rate per second (counters) or ratio. */
  sliceValues(w: Window): Record<string, number> {
    const byConcept = new Map<string, ConceptSummary[]>();
    for (const s of this.scrapers)
      for (const c of readConcepts(s.table, w)) byConcept.set(c.concept, [...(byConcept.get(c.concept) ?? []), c]);
    const out: Record<string, number> = {};
    for (const [id, list] of byConcept) {
      const c = combine(list);
      if (c.gauge) out[`${id}_avg`] = c.gauge.avg;
      else if (c.counter) out[`${id}_per_s`] = c.counter.rate;
      else if (c.value !== undefined) out[id] = c.value;
    }
    return out;
  }

  /** Writes server_metrics.jsonl into `dir` and summarizes the window, beside the client's summary. */
  async report(window: Window, summary: MetricsSummary, dir: string, opts: { color?: boolean } = {}): Promise<ServerMetricsReport | null> {
    await this.stop();
    if (this.scrapers.length === 0) return null;
    await writeServerMetricsJsonl(path.join(dir, SERVER_METRICS_JSONL), this.scrapers);
    const perEndpoint = this.scrapers.map((s) => ({ scraper: s, concepts: readConcepts(s.table, window) }));
    const byConcept = new Map<string, ConceptSummary[]>();
    for (const e of perEndpoint) for (const c of e.concepts) byConcept.set(c.concept, [...(byConcept.get(c.concept) ?? []), c]);
    const concepts = new Map<string, ConceptSummary>();
    for (const c of CONCEPTS) {
      const list = byConcept.get(c.id);
      if (list) concepts.set(c.id, combine(list));
    }
    const x = crossCheck(concepts, summary);
    for (const w of x.warnings) this.log(w);
    for (const s of this.scrapers) {
      if (s.stats.failed_scrapes > 0)
        this.log(
          `server metrics ${s.stats.url}: ${s.stats.failed_scrapes} of ${s.stats.scrapes + s.stats.failed_scrapes} scrapes failed (last: ${s.stats.last_error})`,
        );
      if (s.stats.malformed_lines > 0) this.log(`server metrics ${s.stats.url}: ${s.stats.malformed_lines} malformed lines skipped`);
    }
    const tables = [renderServerMetricsTable([...concepts.values()], opts), renderCrossCheckTable(x, opts)].filter((t) => t !== null);
    const section = {
      interval_ms: this.config.interval_ms,
      window: { start_ns: window.start_ns, end_ns: window.end_ns },
      histogram_percentiles:
        'interpolated inside the bucket the rank falls in (Prometheus histogram_quantile); each comes with that bucket, its resolution',
      concepts: Object.fromEntries(concepts),
      cross_check: x,
      endpoints: perEndpoint.map(({ scraper: s, concepts: cs }) => ({
        ...s.stats,
        discovered: s.discovered,
        vendor: endpointVendor(s.table),
        achieved_interval_ms: medianInterval(s),
        series: s.table.meta.length,
        inventory: inventory(s.table),
        concepts: cs,
        by_type: summarizeByType(s.table, window),
      })),
    };
    return { section, concepts, crossCheck: x, console: tables.length > 0 ? tables.join('\n\n') : null };
  }
}

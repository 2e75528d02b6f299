// Scrapes one Prometheus endpoint on an interval, from before the first request to after the last.
// Runs on the scrapers' own thread (scrape-worker.ts): the asynchronous GET (undici) and the parse
// into a SeriesTable (bench/server-metrics.bench.js measures it) never touch the run's JS thread. A failed scrape (refused, 404, timeout,
// a body that is not text) is counted and stored as a failure; it never stops the run.
import { request } from 'undici';
import { SeriesTable, type Scrape } from './series.js';
import type { EndpointSnapshot, EndpointStats } from './worker-protocol.js';

/** Bodies above this are refused: a /metrics page is tens of kB. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The URL as it may be logged: credentials dropped. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '<invalid URL>';
  }
}

export class EndpointScraper {
  readonly table = new SeriesTable();
  readonly stats: EndpointStats;
  private timer: NodeJS.Timeout | null = null;
  private inflight: Promise<void> | null = null;
  private stopped = false;
  /** Per GET: the endpoint must answer within this long. */
  readonly timeoutMs: number;

  constructor(
    readonly url: string,
    readonly intervalMs: number,
    readonly discovered: boolean,
  ) {
    this.stats = { url: displayUrl(url), scrapes: 0, failed_scrapes: 0, malformed_lines: 0, last_error: null };
    this.timeoutMs = Math.max(1000, 3 * intervalMs);
  }

  snapshot(): EndpointSnapshot {
    return { url: this.url, discovered: this.discovered, stats: { ...this.stats }, ...this.table.snapshot() };
  }

  /** One scrape; resolves to the scrape (failed or not). Never rejects. */
  async scrapeOnce(): Promise<Scrape> {
    const sent = process.hrtime.bigint();
    try {
      const res = await request(this.url, {
        headers: { accept: 'text/plain;version=0.0.4;q=1, application/openmetrics-text;version=1.0.0;q=0.5' },
        signal: AbortSignal.timeout(this.timeoutMs),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        return this.fail(sent, `HTTP ${res.statusCode}`);
      }
      const length = Number(res.headers['content-length'] ?? 0);
      if (length > MAX_BODY_BYTES) {
        await res.body.dump();
        return this.fail(sent, `body of ${length} bytes`);
      }
      const text = await res.body.text();
      const t_ns = sent + (process.hrtime.bigint() - sent) / 2n;
      const ct = res.headers['content-type'];
      const scrape = this.table.addText(t_ns, text, typeof ct === 'string' ? ct : '');
      this.stats.scrapes++;
      this.stats.malformed_lines += scrape.malformed;
      return scrape;
    } catch (err) {
      const e = err as Error & { code?: string };
      const why =
        e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${this.timeoutMs} ms` : (e.code ?? e.message);
      return this.fail(sent, why);
    }
  }

  private fail(sent: bigint, why: string): Scrape {
    this.stats.failed_scrapes++;
    this.stats.last_error = why;
    return this.table.addFailure(sent, why);
  }

  /** Scrapes every interval, measured start to start; a slow scrape delays the next, never overlaps it. */
  start(): void {
    this.schedule(this.intervalMs);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = performance.now();
      this.inflight = this.scrapeOnce().then(() => {
        this.inflight = null;
        this.schedule(Math.max(0, this.intervalMs - (performance.now() - started)));
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Stops after one last scrape (so the window's end is bracketed). Idempotent. */
  async stop(finalScrape: boolean): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inflight;
    if (finalScrape) await this.scrapeOnce();
  }
}

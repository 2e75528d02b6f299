// The server's own metrics (server-metrics/run.ts), scraped from before the first request to after
// the last: server_metrics.jsonl, the `server_metrics` section, the client-vs-server table, and
// the per-slice values for timeslices.
import type { ServerMetricsConfig } from '../../../server-metrics/options.js';
import { RunServerMetrics } from '../../../server-metrics/run.js';
import type { Window } from '../../../server-metrics/window.js';
import type { OutputReport, RunFinish, RunOutput } from '../output.js';

export class ServerMetricsOutput implements RunOutput {
  readonly name = 'server_metrics';
  private scrapes: RunServerMetrics | null = null;

  constructor(
    private readonly cfg: ServerMetricsConfig,
    private readonly baseUrl: string,
    private readonly log: (msg: string) => void,
  ) {}

  async start(): Promise<void> {
    this.scrapes = await RunServerMetrics.start(this.cfg, this.baseUrl, this.log);
  }

  /** Scraping ran (some endpoint answered). */
  get active(): boolean {
    return this.scrapes !== null;
  }

  sliceValues(w: Window): Record<string, number> {
    return this.scrapes!.sliceValues(w);
  }

  async stop(): Promise<void> {
    await this.scrapes?.stop();
  }

  async finish(run: RunFinish): Promise<OutputReport | void> {
    const p = run.result.profiling;
    if (!this.scrapes || !p) return;
    const r = await this.scrapes.report({ start_ns: p.start_ns, end_ns: p.end_ns }, run.summary, run.dir, { color: run.color });
    if (r) return { section: { server_metrics: r.section }, console: r.console };
  }

  async close(): Promise<void> {
    await this.scrapes?.stop(false);
  }
}

// A fake DCGM exporter on the mock's GET /metrics, so the DCGM scrape path can be tested without
// a GPU: two GPUs whose power follows the mock's token throughput, with a total-energy counter
// that integrates that power. `?malformed=N` adds N malformed lines (the scraper must skip and
// count them).
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { MockOptions } from './options.js';
import type { GenerationPlan } from './request.js';

export const FAKE_DCGM_GPUS = 2;
/** Per GPU: idle power, and watts added per token/s of the mock's throughput (shared evenly). */
export const FAKE_DCGM_IDLE_W = 80;
export const FAKE_DCGM_W_PER_TPS = 0.1;
const MAX_W = 700;
/** Throughput is averaged over this trailing window. */
const WINDOW_MS = 1000;
/** The energy counter integrates power in steps of at most this long. */
const STEP_MS = 5;
const COUNTER_START_MJ = 5_000_000_000;

interface Generation {
  startMs: number;
  endMs: number;
  tokens: number;
}

export class FakeDcgm {
  private gens: Generation[] = [];
  private lastMs = performance.now();
  private energyMj = COUNTER_START_MJ;

  /** Records a planned response: its tokens arrive evenly from the first token to the last. */
  onGeneration(plan: GenerationPlan, opts: MockOptions): void {
    const tokens = plan.contentTokens + plan.reasoningTokens;
    if (tokens <= 0) return;
    const now = performance.now();
    // Integrate at most every 100 ms here, so a busy mock pays little and the history the counter
    // needs (the last second of generations) can be pruned even when nobody scrapes.
    if (now - this.lastMs > 100) this.integrate(now);
    const chunks = Math.ceil(tokens / opts.tokensPerChunk);
    const startMs = performance.now() + opts.ttftMs;
    this.gens.push({ startMs, endMs: startMs + Math.max(0, chunks - 1) * opts.itlMs, tokens });
  }

  /** Tokens per second over the trailing window ending at `now`. */
  tokensPerSecond(now: number): number {
    const from = now - WINDOW_MS;
    let tokens = 0;
    for (const g of this.gens) {
      if (g.endMs < from || g.startMs > now) continue;
      const span = g.endMs - g.startMs;
      tokens += span <= 0 ? g.tokens : (g.tokens * (Math.min(now, g.endMs) - Math.max(from, g.startMs))) / span;
    }
    return tokens / (WINDOW_MS / 1000);
  }

  /** Power of one GPU at `now`, in W. */
  powerW(now: number): number {
    return Math.min(MAX_W, FAKE_DCGM_IDLE_W + (FAKE_DCGM_W_PER_TPS * this.tokensPerSecond(now)) / FAKE_DCGM_GPUS);
  }

  /** Serves the fake exporter's lines, then `extra` (the mock's own server metrics). */
  serve(url: string, res: ServerResponse, extra: readonly string[] = []): void {
    const now = performance.now();
    this.integrate(now);
    const q = url.indexOf('?');
    const malformed = q === -1 ? 0 : Number(new URLSearchParams(url.slice(q + 1)).get('malformed') ?? 0) || 0;
    const p = this.powerW(now);
    const util = Math.min(100, (100 * (p - FAKE_DCGM_IDLE_W)) / (MAX_W - FAKE_DCGM_IDLE_W));
    const lines: string[] = [];
    const metric = (name: string, type: string, help: string, value: (gpu: number) => string) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (let gpu = 0; gpu < FAKE_DCGM_GPUS; gpu++) {
        const labels = `gpu="${gpu}",UUID="GPU-00000000-mock-0000-0000-00000000000${gpu}",pci_bus_id="00000000:${(0x18 + gpu).toString(16).toUpperCase()}:00.0",device="nvidia${gpu}",modelName="servebench mock GPU",Hostname="servebench-mock",DCGM_FI_DRIVER_VERSION="999.99"`;
        lines.push(`${name}{${labels}} ${value(gpu)}`);
      }
    };
    metric('DCGM_FI_DEV_SM_CLOCK', 'gauge', 'SM clock frequency (in MHz).', () => '1980');
    metric('DCGM_FI_DEV_GPU_TEMP', 'gauge', 'GPU temperature (in C).', (g) => String(40 + g));
    metric('DCGM_FI_DEV_POWER_USAGE', 'gauge', 'Power draw (in W).', () => p.toFixed(3));
    metric('DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', 'counter', 'Total energy consumption since boot (in mJ).', () =>
      String(Math.floor(this.energyMj)),
    );
    metric('DCGM_FI_DEV_GPU_UTIL', 'gauge', 'GPU utilization (in %).', () => util.toFixed(0));
    metric('DCGM_FI_DEV_MEM_COPY_UTIL', 'gauge', 'Memory utilization (in %).', () => (util / 2).toFixed(0));
    metric('DCGM_FI_DEV_FB_USED', 'gauge', 'Framebuffer memory used (in MiB).', () => '10240');
    for (let i = 0; i < malformed; i++)
      lines.splice(3 + 2 * i, 0, i % 2 ? 'DCGM_FI_DEV_POWER_USAGE{gpu="0" 12' : 'this is not a metric line');
    lines.push(...extra);
    const body = Buffer.from(lines.join('\n') + '\n');
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4', 'content-length': body.length });
    res.end(body);
  }

  /** Advances the energy counter (per GPU; all GPUs draw the same) to `now`. */
  private integrate(now: number): void {
    if (this.gens.length === 0) {
      this.energyMj += FAKE_DCGM_IDLE_W * Math.max(0, now - this.lastMs);
      this.lastMs = Math.max(this.lastMs, now);
    }
    while (this.lastMs < now) {
      const step = Math.min(STEP_MS, now - this.lastMs);
      const mid = this.lastMs + step / 2;
      this.energyMj += this.powerW(mid) * step; // W x ms = mJ
      this.lastMs += step;
    }
    const horizon = now - WINDOW_MS;
    if (this.gens.length > 0 && this.gens[0].endMs < horizon) this.gens = this.gens.filter((g) => g.endMs >= horizon);
  }
}

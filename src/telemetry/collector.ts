// GPU telemetry for a run: opens the sources --gpu-telemetry asked for (native poller over NVML /
// AMD SMI, DCGM exporters), merges their inventories and time series, and says in one line when
// nothing is available. No failure here stops a run: a source that cannot be used is reported
// and left out.
import { DcgmScraper, type DcgmStats } from './dcgm.js';
import { amdsmiInventory, nvmlInventory, type Inventory } from './inventory.js';
import { amdsmiLibrary, describeLibraryFailure, nvmlLibrary } from './libraries.js';
import { NativeGpuPoller } from './poller.js';
import type { GpuSeries } from './series.js';
import type { GpuInfo, GpuTelemetryConfig } from './types.js';

export type TelemetryLog = (line: string) => void;

export interface PollerReport {
  interval_ms: number;
  ticks: number;
  dropped_samples: number;
  thread_cpu_s: number;
}

export class GpuTelemetry {
  private readonly infos = new Map<string, GpuInfo>();
  private readonly series = new Map<string, GpuSeries>();
  private stopped = false;
  /** Every warning printed, for the JSON export. */
  readonly warnings: string[] = [];

  private constructor(
    readonly config: GpuTelemetryConfig,
    private readonly log: TelemetryLog,
    private readonly poller: NativeGpuPoller | null,
    private readonly scrapers: DcgmScraper[],
  ) {}

  /** Opens and starts every requested source. Never throws for an unusable source. */
  static async start(cfg: GpuTelemetryConfig, log: TelemetryLog, env: NodeJS.ProcessEnv = process.env): Promise<GpuTelemetry> {
    const problems: string[] = [];
    // Absent libraries under `auto`: only worth saying when nothing at all is available.
    const quiet: string[] = [];
    let poller: NativeGpuPoller | null = null;
    const inventories: Inventory[] = [];
    const wantNvml = cfg.nvml || cfg.auto;
    const wantAmd = cfg.amdsmi || cfg.auto;
    if (wantNvml || wantAmd) {
      const nv = nvmlLibrary(env);
      const amd = amdsmiLibrary(env);
      poller = new NativeGpuPoller({
        nvml: wantNvml ? nv.paths : [],
        amdsmi: wantAmd ? amd.paths : [],
        intervalMs: cfg.sample_interval_ms,
      });
      const libs = poller.libraries();
      for (const [what, choice, status, asked, inventory] of [
        ['NVML', nv, libs.nvidia, cfg.nvml, nvmlInventory],
        ['AMD SMI', amd, libs.amd, cfg.amdsmi, amdsmiInventory],
      ] as const) {
        if (status.state === 'off') continue;
        if (status.state === 'ok') {
          inventories.push(inventory(status.path));
          continue;
        }
        // `auto` stays quiet about a library that simply is not installed, unless the user named its path.
        if (asked || choice.fromEnv || status.state !== 'not_found') problems.push(describeLibraryFailure(what, choice, status));
        else quiet.push(`no ${what} library found`);
      }
      if (poller.devices().length === 0) poller = null;
    }
    const scrapers: DcgmScraper[] = [];
    for (const url of cfg.dcgm_urls) {
      const s = new DcgmScraper(url, cfg.dcgm_interval_ms);
      const why = await s.start();
      if (why) problems.push(why);
      else scrapers.push(s);
    }

    const t = new GpuTelemetry(cfg, log, poller, scrapers);
    if (poller) {
      for (const d of poller.devices()) {
        const inv = inventories.find((i) => i.ok && i.devices[0]?.vendor === d.vendor);
        const item = inv?.ok ? inv.devices.find((x) => x.index === d.index) : undefined;
        t.infos.set(d.key, {
          key: d.key,
          vendor: d.vendor,
          source: d.vendor === 'nvidia' ? 'nvml' : 'amdsmi',
          index: d.index,
          name: item?.name ?? null,
          uuid: item?.uuid ?? null,
          pci_bus_id: item?.pci_bus_id ?? null,
          power_limit_w: item?.power_limit_w ?? null,
          driver_version: item?.driver_version ?? null,
          has_energy: d.has_energy,
          failed: null,
        });
      }
      for (const inv of inventories)
        if (!inv.ok) problems.push(`GPU inventory from ${inv.path} unavailable (${inv.message}); sampling goes on`);
      poller.start();
    }
    if (!t.available()) {
      t.warn(`no GPU telemetry available (${[...problems, ...quiet].join('; ') || 'no source'}); continuing without energy metrics`);
    } else {
      for (const p of problems) t.warn(p);
      t.log(`GPU telemetry: ${t.describeSources()}`);
    }
    return t;
  }

  /** Whether any source is delivering samples. */
  available(): boolean {
    return this.poller !== null || this.scrapers.length > 0;
  }

  /**
   * Stops every source, first waiting until `notBeforeNs` (the profiling end plus the grace) so
   * the sample just after the window is taken. Idempotent.
   */
  async stop(notBeforeNs?: bigint): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (notBeforeNs !== undefined) {
      const waitMs = Number(notBeforeNs - process.hrtime.bigint()) / 1e6;
      if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
    }
    if (this.poller) {
      this.poller.stop();
      const status = this.poller.status();
      this.poller.devices().forEach((d, i) => {
        const info = this.infos.get(d.key)!;
        info.has_energy = status[i].has_energy;
        if (status[i].failed) {
          info.failed = status[i].error || 'failed';
          this.warn(`GPU ${d.key} stopped reporting: ${info.failed}`);
        }
      });
      for (const [k, s] of this.poller.seriesMap()) this.series.set(k, s);
    }
    await Promise.all(this.scrapers.map((s) => s.stop()));
    for (const s of this.scrapers) {
      for (const g of s.gpus()) this.infos.set(g.key, g);
      for (const [k, v] of s.seriesMap()) this.series.set(k, v);
      if (s.stats.malformed_lines > 0) this.warn(`DCGM exporter ${s.url}: ${s.stats.malformed_lines} malformed lines skipped`);
      if (s.stats.failed_scrapes > 0) {
        this.warn(
          `DCGM exporter ${s.url}: ${s.stats.failed_scrapes} of ${s.stats.scrapes + s.stats.failed_scrapes} scrapes failed (last: ${s.stats.last_error})`,
        );
      }
    }
  }

  gpus(): GpuInfo[] {
    if (!this.stopped && this.poller) {
      // Before stop, the scrapers' GPUs are not merged yet; list them too.
      return [...this.infos.values(), ...this.scrapers.flatMap((s) => s.gpus())];
    }
    return [...this.infos.values()];
  }

  seriesMap(): ReadonlyMap<string, GpuSeries> {
    return this.series;
  }

  /** The end-of-window grace for a GPU: twice its source's cadence (the reference's rule of thumb). */
  graceNs(gpu: Pick<GpuInfo, 'source'>): bigint {
    const ms = gpu.source === 'dcgm' ? this.config.dcgm_interval_ms : this.config.sample_interval_ms;
    return BigInt(Math.round(2 * ms * 1e6));
  }

  /** The longest grace of the sources in use: how long to keep sampling after the window. */
  maxGraceNs(): bigint {
    let g = 0n;
    if (this.poller) g = this.graceNs({ source: 'nvml' });
    if (this.scrapers.length > 0) {
      const d = this.graceNs({ source: 'dcgm' });
      if (d > g) g = d;
    }
    return g;
  }

  dcgmStats(): DcgmStats[] {
    return this.scrapers.map((s) => ({ ...s.stats }));
  }

  pollerReport(): PollerReport | null {
    if (!this.poller) return null;
    const s = this.poller.stats();
    return { interval_ms: this.config.sample_interval_ms, ticks: s.ticks, dropped_samples: s.dropped, thread_cpu_s: s.thread_cpu_ns / 1e9 };
  }

  private describeSources(): string {
    const parts: string[] = [];
    if (this.poller) {
      const n = (v: string) => this.poller!.devices().filter((d) => d.vendor === v).length;
      if (n('nvidia')) parts.push(`NVML, ${n('nvidia')} GPU(s)`);
      if (n('amd')) parts.push(`AMD SMI, ${n('amd')} GPU(s)`);
      parts[parts.length - 1] += ` every ${this.config.sample_interval_ms} ms`;
    }
    for (const s of this.scrapers) parts.push(`DCGM ${s.url}, ${s.gpus().length} GPU(s) every ${s.intervalMs} ms`);
    return parts.join('; ');
  }

  private warn(line: string): void {
    this.warnings.push(line);
    this.log(line);
  }
}

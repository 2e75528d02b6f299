// DCGM exporter scraping: GET <url> (Prometheus text) on an interval, for GPUs on another host.
// Power (DCGM_FI_DEV_POWER_USAGE, W) and the total-energy counter
// (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, mJ) feed the energy metrics; utilisation, memory,
// temperature and SM clock go to the time series. One series per GPU (the `gpu`/`UUID` labels);
// per-MIG-instance rows are skipped so nothing is counted twice.
import { request } from 'undici';
import { parsePrometheusText } from './prometheus.js';
import { GpuSeries } from './series.js';
import type { GpuInfo, SampleValues, SeriesField } from './types.js';

const FIELDS: Record<string, { field: SeriesField; scale: number }> = {
  DCGM_FI_DEV_POWER_USAGE: { field: 'power_w', scale: 1 },
  DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION: { field: 'energy_j', scale: 1e-3 },
  DCGM_FI_DEV_GPU_UTIL: { field: 'gpu_util_pct', scale: 1 },
  DCGM_FI_DEV_MEM_COPY_UTIL: { field: 'mem_util_pct', scale: 1 },
  DCGM_FI_DEV_FB_USED: { field: 'mem_used_bytes', scale: 1024 * 1024 },
  DCGM_FI_DEV_GPU_TEMP: { field: 'temp_c', scale: 1 },
  DCGM_FI_DEV_SM_CLOCK: { field: 'sm_clock_mhz', scale: 1 },
};
const KEEP = new Set(Object.keys(FIELDS));

export interface DcgmStats {
  url: string;
  scrapes: number;
  failed_scrapes: number;
  malformed_lines: number;
  last_error: string | null;
}

export class DcgmScraper {
  private readonly series = new Map<string, GpuSeries>();
  private readonly info = new Map<string, GpuInfo>();
  private timer: NodeJS.Timeout | null = null;
  private inflight: Promise<void> | null = null;
  private stopped = false;
  private readonly host: string;
  readonly stats: DcgmStats;

  constructor(
    readonly url: string,
    readonly intervalMs: number,
  ) {
    this.host = new URL(url).host;
    this.stats = { url, scrapes: 0, failed_scrapes: 0, malformed_lines: 0, last_error: null };
  }

  /** First scrape; returns null when it worked, else one line saying why (and the scraper stays off). */
  async start(): Promise<string | null> {
    try {
      await this.scrape();
    } catch (err) {
      this.stopped = true;
      return `DCGM exporter ${this.url} unreachable (${(err as Error).message}); continuing without it`;
    }
    if (this.series.size === 0) {
      this.stopped = true;
      return `DCGM exporter ${this.url} reports no DCGM_FI_DEV_POWER_USAGE or DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION; continuing without it`;
    }
    this.schedule(this.intervalMs);
    return null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inflight;
  }

  gpus(): GpuInfo[] {
    return [...this.info.values()];
  }

  seriesMap(): ReadonlyMap<string, GpuSeries> {
    return this.series;
  }

  /** Scrapes every interval, measured start to start; a slow scrape delays the next, never overlaps it. */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.inflight = this.scrape()
        .catch((err: Error) => {
          this.stats.failed_scrapes++;
          this.stats.last_error = err.message;
        })
        .finally(() => {
          this.inflight = null;
          this.schedule(Math.max(0, this.intervalMs - (Date.now() - started)));
        });
    }, delayMs);
    this.timer.unref();
  }

  private async scrape(): Promise<void> {
    const timeout = Math.max(1000, 2 * this.intervalMs);
    const res = await request(this.url, { headersTimeout: timeout, bodyTimeout: timeout });
    const text = await res.body.text();
    const t_ns = process.hrtime.bigint();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
    this.stats.scrapes++;
    const parsed = parsePrometheusText(text, KEEP);
    this.stats.malformed_lines += parsed.malformed;
    const rows = new Map<string, Partial<SampleValues>>();
    for (const s of parsed.samples) {
      if (s.labels.GPU_I_ID !== undefined && s.labels.GPU_I_ID !== '') continue;
      const id = s.labels.gpu ?? s.labels.UUID ?? '0';
      const key = `dcgm:${this.host}:${id}`;
      let row = rows.get(key);
      if (!row) {
        row = {};
        rows.set(key, row);
        if (!this.info.has(key)) this.info.set(key, this.describe(key, s.labels));
      }
      const f = FIELDS[s.name];
      row[f.field] = Number.isFinite(s.value) ? s.value * f.scale : NaN;
    }
    for (const [key, row] of rows) {
      if (row.power_w === undefined && row.energy_j === undefined) continue;
      let series = this.series.get(key);
      if (!series) {
        series = new GpuSeries();
        this.series.set(key, series);
      }
      if (row.energy_j !== undefined) this.info.get(key)!.has_energy = true;
      series.push(t_ns, row);
    }
  }

  private describe(key: string, labels: Record<string, string>): GpuInfo {
    const index = Number(labels.gpu);
    return {
      key,
      vendor: 'nvidia',
      source: 'dcgm',
      index: Number.isInteger(index) ? index : 0,
      name: labels.modelName ?? null,
      uuid: labels.UUID ?? null,
      pci_bus_id: labels.pci_bus_id ?? null,
      power_limit_w: null,
      driver_version: labels.DCGM_FI_DRIVER_VERSION ?? null,
      has_energy: false,
      failed: null,
    };
  }
}

// TS side of the native power poller: opens the libraries, starts the thread, drains the ring
// buffer on a timer into per-GPU series (W, J, ...), and reports what failed.
import { callNative, native, type NativePowerPoller, type PowerBatch, type PowerDeviceStatus, type PowerLibraryStatus } from '../native.js';
import { GpuSeries } from './series.js';
import type { GpuVendor, SeriesField } from './types.js';

/**
 * How often JS empties the ring buffer. Each drain costs a few typed arrays; once a second keeps
 * that well under the thread's own cost (bench/power.bench.js).
 */
const DRAIN_EVERY_MS = 1000;
/** Ring size: at the 1 ms minimum interval and 16 GPUs it still holds 4 s, four drains' worth. */
const RING_CAPACITY = 1 << 16;

const SCALE: Partial<Record<SeriesField, number>> = { power_w: 1e-3, energy_j: 1e-3 };

export interface PollerOptions {
  nvml: string[];
  amdsmi: string[];
  intervalMs: number;
}

export interface PolledGpu {
  key: string;
  vendor: GpuVendor;
  index: number;
  has_energy: boolean;
}

export class NativeGpuPoller {
  private readonly poller: NativePowerPoller;
  private readonly gpus: PolledGpu[];
  private readonly series = new Map<string, GpuSeries>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(opts: PollerOptions) {
    if (!(opts.intervalMs >= 1)) throw new RangeError(`poll interval must be at least 1 ms, got ${opts.intervalMs}`);
    this.poller = callNative(
      () =>
        new native.PowerPoller({
          nvml: opts.nvml,
          amdsmi: opts.amdsmi,
          interval_ns: Math.round(opts.intervalMs * 1e6),
          capacity: RING_CAPACITY,
        }),
    );
    this.gpus = this.poller.devices().map((d) => ({
      key: `${d.vendor === 'nvidia' ? 'nvml' : 'amdsmi'}:${d.index}`,
      vendor: d.vendor,
      index: d.index,
      has_energy: d.has_energy,
    }));
    for (const g of this.gpus) this.series.set(g.key, new GpuSeries());
  }

  libraries(): { nvidia: PowerLibraryStatus; amd: PowerLibraryStatus } {
    return this.poller.libraries();
  }

  devices(): readonly PolledGpu[] {
    return this.gpus;
  }

  /** Current device states (failed flags, errors, energy support), in devices() order. */
  status(): PowerDeviceStatus[] {
    return this.poller.devices();
  }

  start(): void {
    if (this.gpus.length === 0 || this.timer || this.stopped) return;
    this.poller.start();
    this.timer = setInterval(() => this.drain(), DRAIN_EVERY_MS);
    this.timer.unref();
  }

  /** Joins the polling thread and takes the last samples. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.poller.stop();
    this.drain();
  }

  seriesMap(): ReadonlyMap<string, GpuSeries> {
    return this.series;
  }

  stats(): { ticks: number; dropped: number; thread_cpu_ns: number } {
    return this.poller.stats();
  }

  private drain(): void {
    const b: PowerBatch = this.poller.drain();
    const cols = {
      power_w: b.power_mw,
      energy_j: b.energy_mj,
      gpu_util_pct: b.gpu_util_pct,
      mem_util_pct: b.mem_util_pct,
      mem_used_bytes: b.mem_used_bytes,
      temp_c: b.temp_c,
      sm_clock_mhz: b.sm_clock_mhz,
    };
    for (let i = 0; i < b.device.length; i++) {
      const g = this.gpus[b.device[i]];
      if (g) this.series.get(g.key)!.pushColumns(b.t_ns[i], i, cols, SCALE);
    }
  }
}

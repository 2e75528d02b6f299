// GPU telemetry around a `profile` run: started before warmup, stopped one grace period after the
// profiling window, then joined with that window (warmup excluded) for the energy metrics, the
// `gpu_telemetry` export section and gpu_telemetry.jsonl. run/single/run-once.ts calls only this.
import path from 'node:path';
import type { GpuEnergyInput } from '../metrics/core/energy-input.js';
import { GpuTelemetry, type TelemetryLog } from './collector.js';
import { GPU_TELEMETRY_JSONL, telemetrySection, writeGpuTelemetryJsonl, type TelemetrySection } from './export.js';
import { joinEnergy } from './join.js';
import type { GpuTelemetryConfig, TimeWindow } from './types.js';

export interface RunTelemetryResult {
  /** For summarize(); undefined when no GPU reported. */
  gpuEnergy: GpuEnergyInput | undefined;
  /** The `gpu_telemetry` section of profile_export.json. */
  section: TelemetrySection;
}

export class RunTelemetry {
  private constructor(private readonly t: GpuTelemetry) {}

  static async start(cfg: GpuTelemetryConfig, log: TelemetryLog): Promise<RunTelemetry> {
    return new RunTelemetry(await GpuTelemetry.start(cfg, log));
  }

  /**
   * Keeps sampling until the window's end plus the grace, stops, writes gpu_telemetry.jsonl into
   * `dir` and joins the series with `window`. `concurrency`: null for request-rate runs.
   */
  async finish(window: TimeWindow, concurrency: number | null, dir: string): Promise<RunTelemetryResult> {
    const t = this.t;
    await t.stop(window.end_ns + t.maxGraceNs());
    const gpus = t.gpus();
    const join = joinEnergy(gpus, t.seriesMap(), window, (g) => t.graceNs(g), concurrency);
    if (t.available()) await writeGpuTelemetryJsonl(path.join(dir, GPU_TELEMETRY_JSONL), gpus, t.seriesMap());
    const section = telemetrySection(gpus, join, window, (g) => t.graceNs(g), t.pollerReport(), t.dcgmStats(), t.warnings);
    return { gpuEnergy: Object.keys(join.input.vendors).length > 0 ? join.input : undefined, section };
  }

  /** Total GPU power over a window (time slices): the average of each GPU's samples inside it (else its last before it), summed; null without samples. */
  powerOver(w: TimeWindow): number | null {
    let total = 0;
    let any = false;
    for (const series of this.t.seriesMap().values()) {
      const t = series.times();
      const p = series.column('power_w');
      let sum = 0;
      let n = 0;
      let before = NaN;
      for (let i = 0; i < t.length; i++) {
        if (!Number.isFinite(p[i])) continue;
        if (t[i] < w.start_ns) before = p[i];
        if (t[i] < w.start_ns || t[i] > w.end_ns) continue;
        sum += p[i];
        n++;
      }
      // A window shorter than the sampling interval: the last sample before it still holds.
      if (n === 0 && Number.isFinite(before)) {
        sum = before;
        n = 1;
      }
      if (n > 0) {
        total += sum / n;
        any = true;
      }
    }
    return any ? total : null;
  }

  /** Stops the sources without a join (error paths). Idempotent. */
  async stop(): Promise<void> {
    await this.t.stop();
  }
}

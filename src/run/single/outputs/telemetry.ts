// GPU telemetry (telemetry/run.ts) from before warmup to one grace period after the profiling
// window: the energy metrics (summaryEnd), gpu_telemetry.jsonl, and the `gpu_telemetry` section.
import type { GpuTelemetryConfig, TimeWindow } from '../../../telemetry/types.js';
import { RunTelemetry, type RunTelemetryResult } from '../../../telemetry/run.js';
import type { SummaryEnd } from '../../../metrics/accumulate.js';
import type { BenchmarkResult } from '../../../load/benchmark.js';
import type { OutputReport, RunOutput } from '../output.js';

export class TelemetryOutput implements RunOutput {
  readonly name = 'gpu_telemetry';
  private telemetry: RunTelemetry | null = null;
  private joined: RunTelemetryResult | null = null;

  /** `concurrency`: the closed loop's, null for request-rate runs (the per-request energy split needs it). */
  constructor(
    private readonly cfg: GpuTelemetryConfig,
    private readonly concurrency: number | null,
    private readonly dir: string,
    private readonly log: (msg: string) => void,
  ) {}

  async start(): Promise<void> {
    this.telemetry = await RunTelemetry.start(this.cfg, this.log);
  }

  async stop(result: BenchmarkResult): Promise<void> {
    const p = result.profiling;
    if (this.telemetry && p)
      this.joined = await this.telemetry.finish({ start_ns: p.start_ns, end_ns: p.end_ns }, this.concurrency, this.dir);
  }

  async summaryEnd(): Promise<SummaryEnd> {
    return this.joined?.gpuEnergy ? { gpuEnergy: this.joined.gpuEnergy } : {};
  }

  /** GPU power over a time slice; undefined when the series was not joined with the profiling window. */
  powerOver(w: TimeWindow): number | null | undefined {
    return this.telemetry && this.joined ? this.telemetry.powerOver(w) : undefined;
  }

  finish(): OutputReport | void {
    if (this.joined) return { section: { gpu_telemetry: this.joined.section } };
  }

  async close(): Promise<void> {
    await this.telemetry?.stop();
  }
}

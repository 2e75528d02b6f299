// --slice-duration: timeslices.json/.csv over the profiling window (timeslices/), each slice with
// the server's metrics and the GPU power over it when those ran.
import { writeTimeslices } from '../../../timeslices/export.js';
import { clientSlices, sliceWindows } from '../../../timeslices/slices.js';
import type { RunFinish, RunOutput } from '../output.js';
import type { ServerMetricsOutput } from './server-metrics.js';
import type { TelemetryOutput } from './telemetry.js';
import type { TimedRecords } from './timed.js';

export class SlicesOutput implements RunOutput {
  readonly name = 'timeslices';

  constructor(
    private readonly sliceS: number,
    private readonly significantDigits: number,
    private readonly timed: TimedRecords,
    private readonly server: ServerMetricsOutput,
    private readonly gpu: TelemetryOutput | null,
  ) {}

  async finish(run: RunFinish): Promise<void> {
    const p = run.result.profiling;
    if (!p) return;
    const windows = sliceWindows(p.start_ns, p.end_ns, BigInt(Math.round(this.sliceS * 1e9)));
    const slices = clientSlices(this.timed.records, windows, this.significantDigits);
    for (const s of slices) {
      if (this.server.active) s.server = this.server.sliceValues(s);
      const power = this.gpu?.powerOver(s);
      if (power !== undefined) s.gpu_power_w = power;
    }
    await writeTimeslices(run.dir, this.sliceS, slices);
  }
}

// --stop-on-over-saturation (../saturation-watch.ts) as an output: it watches the profiling
// phase's sends and replies, stops the run's own control on a verdict, amends the result, and
// writes the `over_saturation` section.
import type { OverSaturationConfig } from '../../../load/search-flags.js';
import type { BenchmarkResult } from '../../../load/benchmark.js';
import type { RunControl } from '../../../load/control.js';
import type { Credit } from '../../../model/credit.js';
import type { Phase } from '../../../model/phase.js';
import type { ProcessedRecord } from '../../../model/processed-record.js';
import type { RawRecord } from '../../../model/raw-record.js';
import { SaturationWatch } from '../saturation-watch.js';
import type { LoadEnd, OutputReport, RunOutput } from '../output.js';

export class SaturationOutput implements RunOutput {
  readonly name = 'over_saturation';
  private readonly watch: SaturationWatch;

  constructor(cfg: OverSaturationConfig, parent: RunControl, log: (msg: string) => void) {
    this.watch = new SaturationWatch(cfg, parent, log);
  }

  /** The control the load runs under: the parent's, or stopped by the verdict. */
  get control(): RunControl {
    return this.watch.control;
  }

  get stopped(): boolean {
    return this.watch.stopped;
  }

  phaseStart(phase: Phase): void {
    this.watch.onPhaseStart(phase);
  }

  requestSent(credit: Credit): void {
    this.watch.onSend(credit.phase);
  }

  requestDone(raw: RawRecord, rec: ProcessedRecord): void {
    this.watch.onDone(raw.credit.phase, rec);
  }

  loadEnd(end: LoadEnd): BenchmarkResult {
    return this.watch.amend(end.result);
  }

  finish(): OutputReport {
    return { section: this.watch.report() };
  }

  close(): void {
    this.watch.dispose();
  }
}

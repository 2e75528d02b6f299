// --stop-on-over-saturation in a run: feeds the detector (over-saturation.ts) from the profiling
// phase's requests as they start and finish, checks it at most every CHECK_S, and on a verdict stops
// this run's issuing (a run control of its own, so a sweep or a search goes on to its next point);
// the requests in flight then get the grace period, as after a first Ctrl-C.
import type { OverSaturationConfig } from '../../load/search-flags.js';
import { RunControl } from '../../load/control.js';
import type { BenchmarkResult } from '../../load/benchmark.js';
import type { ProcessedRecord } from '../../model/processed-record.js';
import { OverSaturationDetector, confirmSeconds, type SaturationVerdict } from './over-saturation.js';

const CHECK_S = 0.25;

export class SaturationWatch {
  /** The run's own control: stopped by the parent's stop (or cancelled by its cancel), or by the verdict. */
  readonly control = new RunControl();
  private readonly detector: OverSaturationDetector;
  private readonly off: () => void;
  private startNs: bigint | null = null;
  private inFlight = 0;
  private lastCheck = 0;
  private checks = 0;
  private last: SaturationVerdict | null = null;
  private stoppedAt: SaturationVerdict | null = null;

  constructor(
    private readonly cfg: OverSaturationConfig,
    private readonly parent: RunControl,
    private readonly log: (msg: string) => void,
  ) {
    this.detector = new OverSaturationDetector(cfg);
    const follow = () => (parent.cancelled ? this.control.cancel() : this.control.stop());
    this.off = parent.onChange(follow);
    if (parent.stopped) follow();
  }

  get stopped(): boolean {
    return this.stoppedAt !== null;
  }

  onPhaseStart(phase: string): void {
    if (phase === 'profiling') this.startNs = process.hrtime.bigint();
  }

  private seconds(ns: bigint): number {
    return Number(ns - this.startNs!) / 1e9;
  }

  /** A profiling request is about to be sent. */
  onSend(phase: string): void {
    if (phase !== 'profiling' || this.startNs === null) return;
    this.inFlight++;
    const now = process.hrtime.bigint();
    this.detector.onStart(this.seconds(now), this.inFlight);
    this.maybeCheck(now);
  }

  /** A profiling request finished (any outcome). */
  onDone(phase: string, rec: ProcessedRecord): void {
    if (phase !== 'profiling' || this.startNs === null) return;
    this.inFlight--;
    const first = rec.metric_input.token_ns[0];
    if (rec.status === 'ok' && first !== undefined && first >= rec.raw.start_ns) {
      this.detector.onFirstToken(this.seconds(first), Number(first - rec.raw.start_ns) / 1e9);
    }
    this.maybeCheck(process.hrtime.bigint());
  }

  private maybeCheck(now: bigint): void {
    const t = this.seconds(now);
    if (this.stoppedAt !== null || this.control.stopped || t - this.lastCheck < CHECK_S) return;
    this.lastCheck = t;
    this.checks++;
    this.last = this.detector.check(t);
    if (!this.last.saturated) return;
    this.stoppedAt = this.last;
    const c = this.last.concurrency!;
    const f = this.last.ttft!;
    this.log(
      `over-saturation at ${t.toFixed(1)} s: requests in flight rising ${c.slope.toFixed(2)}/s (p ${c.p_value.toExponential(1)}), ` +
        `TTFT rising ${(f.slope * 1000).toFixed(1)} ms/s (p ${f.p_value.toExponential(1)}); stopping this run`,
    );
    this.control.stop();
  }

  /** The run's result as the user sees it: stopped for over-saturation is not interrupted. */
  amend(result: BenchmarkResult): BenchmarkResult {
    if (!this.stopped || this.parent.stopped || !result.profiling) return result;
    return { ...result, interrupted: false, profiling: { ...result.profiling, reason: 'over_saturation' } };
  }

  /** profile_export.json's over_saturation section. */
  report(): Record<string, unknown> {
    const v = this.stoppedAt ?? this.last;
    return {
      over_saturation: {
        settings: { ...this.cfg, confirm_s: confirmSeconds(this.cfg) },
        stopped: this.stopped,
        stopped_at_s: this.stoppedAt?.at_s ?? null,
        checks: this.checks,
        // The verdict that stopped the run, else the last check's.
        verdict:
          v === null
            ? null
            : { at_s: v.at_s, saturated: v.saturated, rising_since_s: v.rising_since_s, concurrency: v.concurrency, ttft_s: v.ttft },
      },
    };
  }

  dispose(): void {
    this.off();
  }
}

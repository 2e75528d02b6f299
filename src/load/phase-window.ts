// What every load mode shares while a phase issues: which label the next credit gets
// (the phase's own, then 'cooldown'), when to stop, and why it stopped.
import type { Phase } from '../model/phase.js';
import { RunControl } from './control.js';
import { CreditCounters } from './counters.js';
import { waitUntil } from './timer.js';
import type { PhaseSpec } from './types.js';

export type StopReason = 'count' | 'duration' | 'schedule_end' | 'interrupted' | 'over_saturation';

/** How a phase's issuing went; draining comes after (benchmark.ts). */
export interface IssueResult {
  start_ns: bigint;
  /** When the measured part stopped issuing: the end of the measurement window (cooldown starts here). */
  measured_end_ns: bigint;
  /** When issuing stopped altogether (after any cooldown). */
  issue_end_ns: bigint;
  reason: StopReason;
  counters: CreditCounters;
  cooldown: CreditCounters | null;
}

/** Called when the label changes, so the progress line can follow. */
export type LabelListener = (label: Phase, counters: CreditCounters) => void;

export class PhaseWindow {
  readonly counters = new CreditCounters();
  cooldownCounters: CreditCounters | null = null;
  reason: StopReason | null = null;
  measuredEndNs: bigint | null = null;
  /** Credits taken under the phase's own label. */
  taken = 0;
  /** Issuing is over (result() was taken): late settles must not start new turns. */
  closed = false;
  private readonly deadlineNs: bigint | null;
  private waiters: (() => void)[] = [];
  /** Wakes this window's own waits (issuingOver) when the run stops or the window is closed. */
  private readonly local = new RunControl();
  private readonly offControl: () => void;

  constructor(
    readonly spec: PhaseSpec,
    readonly startNs: bigint,
    private readonly control: RunControl,
    private readonly onLabel?: LabelListener,
  ) {
    this.deadlineNs = spec.durationNs === null ? null : startNs + BigInt(Math.round(spec.durationNs));
    this.offControl = control.onChange(() => this.local.stop());
    onLabel?.(spec.phase, this.counters);
  }

  get inCooldown(): boolean {
    return this.cooldownCounters !== null;
  }

  /**
   * The label for the next credit, or null when issuing is over. Closed loop calls it once per
   * credit it is about to issue (counting it); open loop switches through endMeasured().
   */
  take(nowNs: bigint): { label: Phase; counters: CreditCounters } | null {
    if (this.control.stopped) {
      this.reason ??= 'interrupted';
      return null;
    }
    if (this.measuredEndNs === null) {
      const countDone = this.spec.requestCount !== null && this.taken >= this.spec.requestCount;
      const timeDone = this.deadlineNs !== null && nowNs >= this.deadlineNs;
      if (!countDone && !timeDone) {
        this.taken++;
        // The last measured credit ends the measured part (and starts any cooldown) right away.
        if (this.spec.requestCount !== null && this.taken >= this.spec.requestCount) this.endMeasured(nowNs, 'count');
        return { label: this.spec.phase, counters: this.counters };
      }
      this.endMeasured(nowNs, timeDone && !countDone ? 'duration' : 'count');
    }
    return this.cooldownLabel(nowNs);
  }

  /** The measured part is over (count or duration): start the cooldown, if any. */
  endMeasured(nowNs: bigint, why: StopReason): void {
    if (this.measuredEndNs !== null) return;
    // A duration ends the window at the deadline itself, not whenever the loop noticed.
    this.measuredEndNs = why === 'duration' && this.deadlineNs !== null && this.deadlineNs < nowNs ? this.deadlineNs : nowNs;
    this.reason = why;
    if (this.spec.cooldownNs !== null && this.spec.cooldownNs > 0 && !this.control.stopped) {
      this.cooldownCounters = new CreditCounters();
      this.onLabel?.('cooldown', this.cooldownCounters);
    }
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /**
   * Resolves once take() will hand out no more credits: the run stopped, or the measured part
   * (count or duration) and any cooldown are over. Does not wait for requests in flight, so a
   * closed loop can hand them to the drain (and its grace period) at the deadline.
   */
  async issuingOver(): Promise<void> {
    for (;;) {
      if (this.control.stopped || this.closed) return;
      if (this.measuredEndNs === null) {
        const changed = new Promise<void>((resolve) => {
          this.waiters.push(resolve);
          this.local.onChange(resolve);
        });
        if (this.deadlineNs === null) await changed;
        else {
          await Promise.race([changed, waitUntil(this.deadlineNs, this.local)]);
          if (this.measuredEndNs === null && !this.local.stopped && process.hrtime.bigint() >= this.deadlineNs) {
            this.endMeasured(this.deadlineNs, 'duration');
          }
        }
        continue;
      }
      const end = this.cooldownEndNs();
      if (end !== null) await waitUntil(end, this.local);
      return;
    }
  }

  /** End of the cooldown as an absolute stamp (only once the measured part ended). */
  cooldownEndNs(): bigint | null {
    if (this.measuredEndNs === null || this.cooldownCounters === null) return null;
    return this.measuredEndNs + BigInt(Math.round(this.spec.cooldownNs ?? 0));
  }

  private cooldownLabel(nowNs: bigint): { label: Phase; counters: CreditCounters } | null {
    const end = this.cooldownEndNs();
    if (end === null || nowNs >= end) return null;
    return { label: 'cooldown', counters: this.cooldownCounters! };
  }

  result(issueEndNs: bigint): IssueResult {
    this.closed = true;
    this.offControl();
    this.local.stop();
    return {
      start_ns: this.startNs,
      measured_end_ns: this.measuredEndNs ?? issueEndNs,
      issue_end_ns: issueEndNs,
      reason:
        this.control.stopped && this.reason !== 'count' && this.reason !== 'duration' ? 'interrupted' : (this.reason ?? 'schedule_end'),
      counters: this.counters,
      cooldown: this.cooldownCounters,
    };
  }
}

// The progress line on a terminal (ui/progress.ts): one per phase, cleared at its end.
import type { CreditCounters } from '../../../load/counters.js';
import type { PhaseSpec } from '../../../load/types.js';
import type { Phase } from '../../../model/phase.js';
import type { ProgressLine } from '../../../ui/progress.js';
import type { RunOutput } from '../output.js';

export class ProgressOutput implements RunOutput {
  readonly name = 'progress';

  constructor(private readonly line: ProgressLine) {}

  phaseStart(phase: Phase, counters: CreditCounters, spec: PhaseSpec): void {
    const cooldown = phase === 'cooldown';
    this.line.start(phase, counters, {
      requestCount: cooldown || spec.mode.kind === 'fixed_schedule' ? null : spec.requestCount,
      durationS: cooldown ? (spec.cooldownNs ?? 0) / 1e9 : spec.durationNs === null ? null : spec.durationNs / 1e9,
    });
  }

  phaseEnd(): void {
    this.line.stop();
  }

  close(): void {
    this.line.stop();
  }
}

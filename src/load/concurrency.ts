// Closed-loop scheduling: N workers, each issues its next credit the moment its last request ends.
import { randomUUID } from 'node:crypto';
import type { Dataset } from '../dataset/types.js';
import type { Credit, Phase } from '../records/types.js';
import { CreditCounters } from './counters.js';

export interface ClosedLoopPhase {
  phase: Phase;
  concurrency: number;
  /** Stop issuing after this many credits (null: unbounded). */
  requestCount: number | null;
  /** Stop issuing once this much time has passed since the phase started (null: unbounded). */
  durationNs: bigint | null;
}

/** Lets the caller stop issuing early (Ctrl-C). */
export class StopToken {
  stopped = false;
  stop(): void {
    this.stopped = true;
  }
}

/** Sends one credit and resolves when its record is settled; must not reject. */
export type DispatchFn = (credit: Credit) => Promise<void>;

export interface PhaseResult {
  counters: CreditCounters;
  start_ns: bigint;
  end_ns: bigint;
}

export async function runClosedLoopPhase(
  spec: ClosedLoopPhase,
  dataset: Dataset,
  dispatch: DispatchFn,
  stop: StopToken,
  counters: CreditCounters = new CreditCounters(),
  firstIndex = 0,
): Promise<PhaseResult> {
  if (spec.requestCount === null && spec.durationNs === null) throw new Error('a phase needs a request count or a duration');
  const start_ns = process.hrtime.bigint();
  const deadline = spec.durationNs === null ? null : start_ns + spec.durationNs;
  let issued = 0;

  const mayIssue = (): boolean => {
    if (stop.stopped) return false;
    if (spec.requestCount !== null && issued >= spec.requestCount) return false;
    if (deadline !== null && process.hrtime.bigint() >= deadline) return false;
    return true;
  };

  const worker = async (): Promise<void> => {
    while (mayIssue()) {
      const credit: Credit = {
        index: firstIndex + issued++,
        phase: spec.phase,
        x_request_id: randomUUID(),
        credit_issued_ns: process.hrtime.bigint(),
        targeted_start_ns: null,
        turn: dataset.next(),
      };
      counters.sent++;
      await dispatch(credit);
    }
  };

  const workers = Math.min(spec.concurrency, spec.requestCount ?? spec.concurrency);
  await Promise.all(Array.from({ length: workers }, worker));
  return { counters, start_ns, end_ns: process.hrtime.bigint() };
}

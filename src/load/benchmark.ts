// Runs the phases of a benchmark in order (warmup, then profiling) over one dispatch function.
import type { Dataset } from '../dataset/types.js';
import type { RecordStatus } from '../records/types.js';
import { type ClosedLoopPhase, type PhaseResult, StopToken, runClosedLoopPhase } from './concurrency.js';
import { CreditCounters } from './counters.js';

export interface BenchmarkPlan {
  warmup: ClosedLoopPhase | null;
  profiling: ClosedLoopPhase;
}

export interface BenchmarkHooks {
  /** Send one credit, process and store its record; resolve with its final status. Must not reject. */
  dispatch(credit: import('../records/types.js').Credit): Promise<RecordStatus>;
  onPhaseStart?(phase: ClosedLoopPhase, counters: CreditCounters): void;
  onPhaseEnd?(phase: ClosedLoopPhase, result: PhaseResult): void;
}

export interface BenchmarkResult {
  warmup: PhaseResult | null;
  profiling: PhaseResult;
}

export async function runBenchmark(
  plan: BenchmarkPlan,
  dataset: Dataset,
  hooks: BenchmarkHooks,
  stop: StopToken,
): Promise<BenchmarkResult> {
  let index = 0;
  const runPhase = async (spec: ClosedLoopPhase): Promise<PhaseResult> => {
    const counters = new CreditCounters();
    hooks.onPhaseStart?.(spec, counters);
    const result = await runClosedLoopPhase(
      spec,
      dataset,
      async (credit) => counters.settle(await hooks.dispatch(credit)),
      stop,
      counters,
      index,
    );
    index += counters.sent;
    hooks.onPhaseEnd?.(spec, result);
    return result;
  };
  const warmup = plan.warmup ? await runPhase(plan.warmup) : null;
  const profiling = await runPhase(plan.profiling);
  return { warmup, profiling };
}

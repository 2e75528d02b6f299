// Runs the phases of one benchmark over one dispatch function: warmup (issued, then drained),
// then profiling (and its cooldown), then the drain within the grace period.
//
// Measurement window (GuideLLM's rules, https://blog.vllm.ai/guidellm/main/guides/metrics): it opens when
// the profiling phase starts and closes when the measured part stops issuing (measure_end; the
// cooldown starts there). The warmup is drained before the window opens and cooldown requests
// start after it closes, so no request of either overlaps the window: the request-level rule
// ("every request whose lifetime overlaps the window") selects exactly the profiling requests,
// and their token events (TTFT, ITL) all start inside it. See docs/load.md, "Measurement window", for what this leaves out.
import type { ConversationSource } from '../dataset/types.js';
import type { Phase } from '../model/phase.js';
import { runClosedLoop, type ModeContext } from './concurrency.js';
import type { RunControl } from './control.js';
import type { CreditCounters } from './counters.js';
import { runFixedSchedule } from './fixed-schedule.js';
import { CreditIssuer, type IssuerHooks } from './issuer.js';
import type { IssueResult, StopReason } from './phase-window.js';
import { runRate } from './rate.js';
import { waitUntil } from './timer.js';
import { type SessionCounts, SessionFeeder } from './sessions.js';
import type { CancellationSpec, PhaseSpec, SlotGate } from './types.js';

export interface BenchmarkPlan {
  warmup: PhaseSpec | null;
  profiling: PhaseSpec;
  /** How long in-flight requests may finish after a duration (or Ctrl-C) before they are cancelled; null: no limit. */
  graceNs: number | null;
  cancellation: CancellationSpec | null;
  /** Nap instead of spinning near send times (timer.ts): only when responses are stamped off the JS thread. */
  nap?: boolean;
  /** --start-at: the profiling phase starts at this CLOCK_MONOTONIC instant (after the warmup); null: at once. */
  startAtNs?: bigint | null;
  /** The transport's slot gate, for closed-loop phases of a plain count (concurrency.ts). */
  gate?: SlotGate;
}

export interface BenchmarkHooks extends IssuerHooks {
  onPhaseStart?(phase: Phase, counters: CreditCounters, spec: PhaseSpec): void;
  onPhaseEnd?(phase: Phase, outcome: PhaseOutcome): void;
}

export interface PhaseOutcome {
  phase: Phase;
  counters: CreditCounters;
  /** Cooldown counters (profiling only, when a cooldown ran). */
  cooldown: CreditCounters | null;
  start_ns: bigint;
  /** The measurement window's end (for profiling): the measured part stopped issuing here. */
  measured_end_ns: bigint;
  issue_end_ns: bigint;
  /** Every request of the phase had settled. */
  end_ns: bigint;
  reason: StopReason;
  /** Requests were still in flight when the grace period ended (or a second Ctrl-C came): they were cancelled. */
  grace_expired: boolean;
  sessions: SessionCounts;
}

export interface BenchmarkResult {
  warmup: PhaseOutcome | null;
  /** Null only when the run was stopped during the warmup. */
  profiling: PhaseOutcome | null;
  interrupted: boolean;
}

function runMode(spec: PhaseSpec, ctx: ModeContext): Promise<IssueResult> {
  switch (spec.mode.kind) {
    case 'concurrency':
      return runClosedLoop(spec, ctx);
    case 'rate':
      return runRate(spec, ctx);
    case 'fixed_schedule':
      return runFixedSchedule(spec, ctx);
  }
}

export async function runBenchmark(
  plan: BenchmarkPlan,
  source: ConversationSource,
  hooks: BenchmarkHooks,
  control: RunControl,
): Promise<BenchmarkResult> {
  const issuer = new CreditIssuer(hooks, control, plan.cancellation);
  const runPhase = async (spec: PhaseSpec): Promise<PhaseOutcome> => {
    const feeder = new SessionFeeder(source);
    const gate = plan.gate;
    // A stop sends nothing more: requests waiting at the gate end unsent.
    const offGate = gate ? control.onChange(() => control.stopped && gate.cancelWaiting()) : null;
    let r: IssueResult;
    let grace_expired: boolean;
    try {
      // The runner's PhaseWindow announces each label (the phase, then 'cooldown') with its counters.
      r = await runMode(spec, {
        issuer,
        feeder,
        control,
        onLabel: (label, counters) => hooks.onPhaseStart?.(label, counters, spec),
        nap: plan.nap ?? false,
        ...(gate ? { gate } : {}),
      });
      feeder.abandonWaiting();
      // A duration, a cooldown or a stop hands the in-flight requests the grace period; a count waits for them.
      const graceNow = r.reason === 'duration' || r.cooldown !== null || control.stopped;
      grace_expired = await issuer.drain(plan.graceNs, graceNow);
    } finally {
      offGate?.();
      gate?.close();
    }
    const outcome: PhaseOutcome = {
      phase: spec.phase,
      counters: r.counters,
      cooldown: r.cooldown,
      start_ns: r.start_ns,
      measured_end_ns: r.measured_end_ns,
      issue_end_ns: r.issue_end_ns,
      end_ns: process.hrtime.bigint(),
      reason: control.stopped && r.reason !== 'count' && r.reason !== 'duration' ? 'interrupted' : r.reason,
      grace_expired,
      sessions: { ...feeder.counts },
    };
    hooks.onPhaseEnd?.(spec.phase, outcome);
    return outcome;
  };

  const warmup = plan.warmup ? await runPhase(plan.warmup) : null;
  // Shards start their profiling phases together (a warmup that ends late starts it late: the export says so).
  if (plan.startAtNs != null && !control.stopped) await waitUntil(plan.startAtNs, control, { nap: plan.nap ?? false });
  const profiling = control.stopped ? null : await runPhase(plan.profiling);
  return { warmup, profiling, interrupted: control.stopped };
}

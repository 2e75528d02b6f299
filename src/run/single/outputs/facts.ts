// The run's own facts in profile_export.json: what it counted and sent with (tokenizer, transport),
// and how its phases went (load mode, interruption, credits per phase, the phases' bounds, the
// measurement window).
import type { PhaseOutcome } from '../../../load/benchmark.js';
import type { LoadMode } from '../../../load/plan.js';
import type { OutputReport, RunFinish, RunOutput } from '../output.js';

export class RunIdentityOutput implements RunOutput {
  readonly name = 'run_identity';

  constructor(
    private readonly tokenizer: string,
    private readonly transport: string,
  ) {}

  finish(): OutputReport {
    return { section: { tokenizer: this.tokenizer, transport: this.transport } };
  }
}

function phaseJson(o: PhaseOutcome | null): Record<string, unknown> | null {
  if (o === null) return null;
  return {
    start_ns: o.start_ns,
    measured_end_ns: o.measured_end_ns,
    issue_end_ns: o.issue_end_ns,
    end_ns: o.end_ns,
    stop_reason: o.reason,
    grace_period_expired: o.grace_expired,
    sessions: o.sessions,
  };
}

export class PhasesOutput implements RunOutput {
  readonly name = 'phases';

  constructor(private readonly mode: LoadMode) {}

  finish({ result }: RunFinish): OutputReport {
    const p = result.profiling;
    return {
      section: {
        load_mode: this.mode,
        interrupted: result.interrupted,
        // Credit accounting per phase: sent = completed + in flight; unsent were due but never got a slot.
        credits: {
          warmup: result.warmup?.counters.toJSON() ?? null,
          profiling: p?.counters.toJSON() ?? null,
          cooldown: p?.cooldown?.toJSON() ?? null,
        },
        phases: { warmup: phaseJson(result.warmup), profiling: phaseJson(p) },
        // GuideLLM's measurement window (see load/benchmark.ts): profiling start → measured end.
        measurement_window: p ? { start_ns: p.start_ns, end_ns: p.measured_end_ns } : null,
      },
    };
  }
}

// The run's settings + the conversation source → the benchmark plan: which load mode each phase runs,
// with what bounds. The mode is settled here because it depends on the source: a source with
// timestamps is replayed on its fixed schedule unless --no-fixed-schedule says otherwise.
// Every conflict found here is bad input, raised before the first request.
import type { ConversationSource } from '../dataset/types.js';
import { InvalidArgumentError } from '../errors.js';
import type { BenchmarkPlan } from './benchmark.js';
import { planReplay, readAll, type ReplayPlan } from './replay.js';
import type { ArrivalSpec, PhaseMode, PhaseSpec } from './types.js';
import { secondsToNs } from '../timers.js';
import { shardLoad, shardReplay, type ShardLoadSettings } from './shard-plan.js';
import { stagesPeak } from './stages.js';

export type LoadMode = 'concurrency' | 'rate' | 'fixed_schedule';

export interface ResolvedPlan {
  plan: BenchmarkPlan;
  mode: LoadMode;
  /** Connections the transport may open: the concurrency (or cap); null = no limit (open loop). */
  connections: number | null;
  replay: ReplayPlan | null;
}

const sToNs = (s: number | null): number | null => (s === null ? null : secondsToNs(s));

/** What the plan reads of a run (config/types.ts RunConfig has these fields). */
export interface PlanSettings extends ShardLoadSettings {
  readonly random_seed: number;
  readonly benchmark_duration_s: number | null;
}

export function arrivalSpec(cfg: PlanSettings, rate: number, phase: string, rampS: number | null): ArrivalSpec {
  return {
    pattern: cfg.load.arrival_pattern,
    rate,
    smoothness: cfg.load.arrival_smoothness,
    rampNs: sToNs(rampS),
    seed: `${cfg.random_seed}/${phase}`,
    // A shard sends every N-th arrival of the whole run's schedule (load/shard-plan.ts).
    ...(cfg.shard && cfg.shard.count > 1 ? { shard: { index: cfg.shard.index, count: cfg.shard.count } } : {}),
  };
}

/** Whether this run replays the source's timestamps. */
export function resolveFixedSchedule(cfg: PlanSettings, source: ConversationSource): boolean {
  const l = cfg.load;
  if (l.fixed_schedule === true) {
    if (!source.hasTimestamps) {
      throw new InvalidArgumentError(`--fixed-schedule: the ${source.kind} dataset has no timestamps to replay`);
    }
    return true;
  }
  if (l.fixed_schedule === false || !source.hasTimestamps) return false;
  // Timestamps and an explicit rate: the user must say which one wins.
  if (l.request_rate !== null || l.stages !== null) {
    throw new InvalidArgumentError(
      `${l.stages !== null ? '--stages' : '--request-rate'}: the ${source.kind} dataset has timestamps, replayed on their fixed schedule by default; add --no-fixed-schedule to use the rate instead`,
    );
  }
  return true;
}

export function buildPlan(cfg: PlanSettings, source: ConversationSource): ResolvedPlan {
  // A shard runs its part of the counts (load/shard-plan.ts); the whole run's otherwise.
  const share = shardLoad(cfg);
  const l = { ...cfg.load, concurrency_cap: share.concurrencyCap, warmup_concurrency: share.warmupConcurrency };
  const fixed = resolveFixedSchedule(cfg, source);
  let mode: LoadMode;
  let profilingMode: PhaseMode;
  let replay: ReplayPlan | null = null;
  if (fixed) {
    mode = 'fixed_schedule';
    replay = planReplay(readAll(source), {
      startOffsetMs: l.fixed_schedule_start_offset_ms,
      endOffsetMs: l.fixed_schedule_end_offset_ms,
      autoOffset: l.fixed_schedule_auto_offset,
    });
    if (l.cooldown_duration_s !== null) {
      throw new InvalidArgumentError(
        '--cooldown-duration: a fixed-schedule replay ends with its trace; add --no-fixed-schedule to run the dataset under a load mode with a cooldown',
      );
    }
    if (replay.schedule.entries.length === 0) {
      throw new InvalidArgumentError('--fixed-schedule-start-offset: no conversation of the trace falls between the start and end offsets');
    }
    profilingMode = { kind: 'fixed_schedule', cap: l.concurrency_cap, schedule: shardReplay(replay.schedule, cfg.shard) };
  } else if (l.stages?.target === 'rate') {
    mode = 'rate';
    const arrival = { ...arrivalSpec(cfg, stagesPeak(l.stages.stages), 'profiling', null), stages: l.stages.stages };
    profilingMode = { kind: 'rate', arrival, cap: l.concurrency_cap, capRampNs: null };
  } else if (l.request_rate !== null) {
    mode = 'rate';
    profilingMode = {
      kind: 'rate',
      arrival: arrivalSpec(cfg, l.request_rate, 'profiling', l.request_rate_ramp_s),
      cap: l.concurrency_cap,
      capRampNs: l.concurrency_cap === null ? null : sToNs(l.concurrency_ramp_s),
    };
  } else {
    mode = 'concurrency';
    profilingMode = { kind: 'concurrency', concurrency: share.concurrency, rampNs: sToNs(l.concurrency_ramp_s) };
    if (l.stages) profilingMode.stages = l.stages.stages;
  }

  const profiling: PhaseSpec = {
    phase: 'profiling',
    mode: profilingMode,
    requestCount: share.requestCount,
    durationNs: sToNs(cfg.benchmark_duration_s),
    cooldownNs: sToNs(l.cooldown_duration_s),
  };

  let warmup: PhaseSpec | null = null;
  if (share.warmupRequestCount > 0 || l.warmup_duration_s !== null) {
    // Its own rate or concurrency when given; else the profiling load (closed loop for a replay).
    let warmupMode: PhaseMode;
    if (l.warmup_request_rate !== null) {
      warmupMode = {
        kind: 'rate',
        arrival: arrivalSpec(cfg, l.warmup_request_rate, 'warmup', null),
        cap: l.warmup_concurrency,
        capRampNs: null,
      };
    } else if (l.warmup_concurrency !== null) {
      warmupMode = { kind: 'concurrency', concurrency: l.warmup_concurrency, rampNs: null };
    } else if (profilingMode.kind === 'rate') {
      warmupMode = { ...profilingMode, arrival: arrivalSpec(cfg, profilingMode.arrival.rate, 'warmup', null), capRampNs: null };
    } else {
      warmupMode = { kind: 'concurrency', concurrency: l.concurrency_cap ?? share.concurrency, rampNs: null };
    }
    warmup = {
      phase: 'warmup',
      mode: warmupMode,
      requestCount: share.warmupRequestCount > 0 ? share.warmupRequestCount : null,
      durationNs: sToNs(l.warmup_duration_s),
      cooldownNs: null,
    };
  }

  const caps = [profilingMode, warmup?.mode].map((m) =>
    m === undefined ? 0 : m.kind === 'concurrency' ? m.concurrency : m.cap === null ? Infinity : m.cap,
  );
  const maxConn = Math.max(...caps);
  return {
    plan: {
      warmup,
      profiling,
      graceNs: sToNs(l.grace_period_s),
      cancellation:
        l.cancellation_rate > 0 ? { rate: l.cancellation_rate, delayNs: secondsToNs(l.cancellation_delay_s), seed: cfg.random_seed } : null,
    },
    mode,
    connections: Number.isFinite(maxConn) ? maxConn : null,
    replay,
  };
}

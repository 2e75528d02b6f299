// A shard's part of the run's load (issue 18; the flags: config/shard.ts; the partition rules below). Counts are split with
// deterministic remainders; arrivals and trace entries go round robin over the one schedule every
// shard computes from the same seed, so each shard sends its own arrivals at their original times.
// The duration is not split: every shard runs the whole window, side by side with the others.
import { badFlag as bad, InvalidArgumentError } from '../errors.js';
import type { LoadConfig } from './config.js';
import { RateSchedule, type ArrivalSchedule } from './pacer.js';
import type { ArrivalSpec, ReplaySchedule } from './types.js';

/** This process's shard of the run (config/shard.ts ShardConfig has these fields). */
export interface ShardPart {
  /** 0-based shard index. */
  readonly index: number;
  /** Shards of the run, at least 1. */
  readonly count: number;
}

/** What a shard's counts are computed from (config/types.ts RunConfig has these fields). */
export interface ShardLoadSettings {
  readonly shard: ShardPart | null;
  readonly load: LoadConfig;
  readonly concurrency: number;
  readonly request_count: number | null;
  readonly warmup_request_count: number;
  readonly statistics: { readonly num_profile_runs: number };
}

// The partition rules: a count goes out as ⌊total/N⌋ each, the first total mod N shards one more; a
// stream of draws goes round robin (draw j belongs to shard j mod N).

/** This shard's part of a count: ⌊total/count⌋, plus one for the first total mod count shards. */
export function shareOf(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}

/** The global draw index of this shard's `k`-th draw. */
export function globalDraw(k: number, index: number, count: number): number {
  return index + k * count;
}

/** The items of a list this shard owns (round robin), in order. */
export function partition<T>(items: readonly T[], index: number, count: number): T[] {
  const out: T[] = [];
  for (let j = index; j < items.length; j += count) out.push(items[j]);
  return out;
}

/** `shareOf` for a count that must give each shard at least one (a concurrency, a request count). */
export function shareAtLeastOne(flag: string, total: number, shard: ShardPart): number {
  if (total < shard.count) bad('shard-count', `${shard.count} shards cannot split --${flag} ${total}: each needs at least 1`);
  return shareOf(total, shard.index, shard.count);
}

export interface ShardLoad {
  concurrency: number;
  requestCount: number | null;
  warmupRequestCount: number;
  concurrencyCap: number | null;
  warmupConcurrency: number | null;
}

/** The counts this process runs: the whole run's, or this shard's part of them. */
export function shardLoad(cfg: ShardLoadSettings): ShardLoad {
  const s = cfg.shard;
  const l = cfg.load;
  const whole: ShardLoad = {
    concurrency: cfg.concurrency,
    requestCount: cfg.request_count,
    warmupRequestCount: cfg.warmup_request_count,
    concurrencyCap: l.concurrency_cap,
    warmupConcurrency: l.warmup_concurrency,
  };
  if (s === null || s.count === 1) return whole;
  if (l.sweep !== null) throw new InvalidArgumentError('--shard-count: a sweep cannot be sharded; run one sharded run per point');
  if (cfg.statistics.num_profile_runs > 1) throw new InvalidArgumentError('--shard-count: not with --num-profile-runs');
  const closedLoop = l.request_rate === null;
  return {
    // A closed loop needs a slot on every shard; under a rate the concurrency is only a cap.
    concurrency: closedLoop ? shareAtLeastOne('concurrency', cfg.concurrency, s) : shareOf(cfg.concurrency, s.index, s.count),
    requestCount: cfg.request_count === null ? null : shareAtLeastOne('request-count', cfg.request_count, s),
    warmupRequestCount: shareOf(cfg.warmup_request_count, s.index, s.count),
    concurrencyCap: l.concurrency_cap === null ? null : shareAtLeastOne('concurrency', l.concurrency_cap, s),
    warmupConcurrency: l.warmup_concurrency === null ? null : shareAtLeastOne('warmup-concurrency', l.warmup_concurrency, s),
  };
}

/** Every `count`-th arrival of an inner schedule, from `index`: this shard's arrivals at their times. */
export class ShardSchedule implements ArrivalSchedule {
  constructor(
    private readonly inner: ArrivalSchedule,
    private readonly shard: ShardPart,
  ) {}

  targetNs(i: number): number {
    return this.inner.targetNs(globalDraw(i, this.shard.index, this.shard.count));
  }
}

/** The schedule of an arrival spec, this shard's part of it when the spec is sharded. */
export function arrivalSchedule(spec: ArrivalSpec): ArrivalSchedule {
  const all = new RateSchedule(spec);
  return spec.shard && spec.shard.count > 1 ? new ShardSchedule(all, spec.shard) : all;
}

/** This shard's trace entries, round robin in time order, at their original offsets from the common start. */
export function shardReplay(schedule: ReplaySchedule, shard: ShardPart | null): ReplaySchedule {
  if (shard === null || shard.count === 1) return schedule;
  const entries = partition(schedule.entries, shard.index, shard.count);
  if (entries.length === 0) {
    throw new InvalidArgumentError(
      `--shard-count: shard ${shard.index} of ${shard.count} gets no entry of the ${schedule.entries.length} to replay`,
    );
  }
  return { ...schedule, entries };
}

// Sharded runs (issue 18): one load, defined once for the whole run, split among N shard processes
// (plain hosts, or the pods of a Kubernetes Indexed Job). The flags are parsed here; the pure
// partition rules live in load/shard-plan.ts (dataset/shard-source.ts walks draws by the same rule):
// - a count (concurrency, request count, warmup count, a cap) goes out as ⌊total/N⌋ each, the
//   first total mod N shards one more;
// - a stream of draws (dataset entries, synthetic prompts, arrivals, trace entries) goes round
//   robin: draw j belongs to shard j mod N. Every shard walks the same seeded stream, so the
//   shards' draws are disjoint and together are exactly the draws of one unsharded run.
import { badFlag as bad } from '../errors.js';

export interface ShardConfig {
  /** 0-based shard index (--shard-index, else $JOB_COMPLETION_INDEX). */
  readonly index: number;
  /** Shards of the run (--shard-count), at least 1. */
  readonly count: number;
  /** --start-at: the wall-clock instant (Unix ms) every shard starts its profiling phase; null: at once. */
  readonly start_at_unix_ms: number | null;
  /** --start-at-max-late: a --start-at further than this in the past is bad input (s). */
  readonly start_at_max_late_s: number;
}

/** A shard whose profiling phase starts more than this after --start-at says so in its export. */
export const LATE_THRESHOLD_MS = 50;
export const DEFAULT_START_AT_MAX_LATE_S = 60;

export interface ShardFlags {
  'shard-index'?: number;
  'shard-count'?: number;
  'start-at'?: string | number;
  'start-at-max-late'?: number;
}

/** --start-at: ISO 8601 with a zone (2026-12-01T20:00:00Z) or Unix epoch seconds (fractions allowed) → Unix ms. */
export function parseStartAt(v: string | number): number {
  const text = String(v).trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // A zone is required: a local time would mean a different instant on each host.
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(text)) {
    bad('start-at', `expected ISO 8601 with a time zone (e.g. 2026-12-01T20:00:00Z) or Unix epoch seconds, got ${JSON.stringify(text)}`);
  }
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) bad('start-at', `not a valid date: ${JSON.stringify(text)}`);
  return ms;
}

function nonNegInt(flag: string, v: unknown): number {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) bad(flag, `expected an integer >= 0, got ${String(v)}`);
  return n;
}

/** The shard flags → ShardConfig, or null for an unsharded run without --start-at. */
export function parseShardFlags(f: ShardFlags, env: NodeJS.ProcessEnv, nowMs: number): ShardConfig | null {
  const given = f['shard-count'] !== undefined || f['shard-index'] !== undefined;
  const startAt = f['start-at'] === undefined ? null : parseStartAt(f['start-at']);
  const maxLate = f['start-at-max-late'] ?? DEFAULT_START_AT_MAX_LATE_S;
  if (typeof maxLate !== 'number' || !Number.isFinite(maxLate) || maxLate < 0) {
    bad('start-at-max-late', `expected seconds >= 0, got ${String(maxLate)}`);
  }
  if (!given && startAt === null) return null;
  let count = 1;
  let index = 0;
  if (given) {
    if (f['shard-count'] === undefined) bad('shard-count', 'is required with --shard-index');
    count = nonNegInt('shard-count', f['shard-count']);
    if (count === 0) bad('shard-count', 'must be at least 1, got 0');
    const fromEnv = env.JOB_COMPLETION_INDEX;
    if (f['shard-index'] !== undefined) index = nonNegInt('shard-index', f['shard-index']);
    else if (fromEnv !== undefined && fromEnv !== '') index = nonNegInt('shard-index', fromEnv);
    else bad('shard-index', 'is required with --shard-count (or set JOB_COMPLETION_INDEX, as an Indexed Job does)');
    if (index >= count) bad('shard-index', `must be below --shard-count ${count}, got ${index}`);
  }
  if (startAt !== null && nowMs - startAt > maxLate * 1000) {
    bad(
      'start-at',
      `${new Date(startAt).toISOString()} is ${((nowMs - startAt) / 1000).toFixed(1)} s in the past (more than --start-at-max-late ${maxLate} s)`,
    );
  }
  return Object.freeze({ index, count, start_at_unix_ms: startAt, start_at_max_late_s: maxLate });
}

// A shard's common start (issue 18, --start-at): the profiling phase's CLOCK_MONOTONIC deadline
// from the wall-clock instant, the shard's clock-error estimate, and the `shard` section of its
// export, which `servebench merge` reads (run/merge/merge.ts).
import { execFile } from 'node:child_process';
import { LATE_THRESHOLD_MS, type ShardConfig } from '../../config/shard.js';
import type { WallAnchor } from '../../export/json.js';

export interface ClockEstimate {
  /** chrony: `chronyc tracking`; http_date: the target server's Date header; none: neither answered. */
  source: 'chrony' | 'http_date' | 'none';
  /** This host's clock minus the reference's, ms (positive: this host is ahead); null with source none. */
  offset_ms: number | null;
  /** How far off the offset itself may be, ms. */
  uncertainty_ms: number | null;
}

/** The monotonic instant of --start-at on this host's wall clock; null without one. */
export function startAtMonotonic(shard: ShardConfig | null, anchor: WallAnchor): bigint | null {
  if (shard?.start_at_unix_ms == null) return null;
  return anchor.monotonic_ns + (BigInt(Math.round(shard.start_at_unix_ms * 1e6)) - anchor.unix_ns);
}

/** `chronyc -c tracking`: field 5 is the system time's offset from NTP time (s, positive: slow), 11/12 root delay and dispersion. */
export function parseChronyTracking(csv: string): ClockEstimate | null {
  const f = csv.trim().split(',');
  if (f.length < 12) return null;
  const slow = Number(f[4]);
  const delay = Number(f[10]);
  const dispersion = Number(f[11]);
  if (![slow, delay, dispersion].every(Number.isFinite)) return null;
  return { source: 'chrony', offset_ms: -slow * 1000, uncertainty_ms: (delay / 2 + dispersion) * 1000 };
}

function chrony(): Promise<ClockEstimate | null> {
  return new Promise((resolve) => {
    execFile('chronyc', ['-c', 'tracking'], { timeout: 1000 }, (err, stdout) => resolve(err ? null : parseChronyTracking(stdout)));
  });
}

/** One GET of the server's root: the local send and receive times and its Date header (ms), or null. */
async function dateOnce(url: URL): Promise<{ t0: number; t1: number; date: number } | null> {
  const t0 = Date.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(2000), redirect: 'manual' });
  const t1 = Date.now();
  await res.body?.cancel();
  const date = Date.parse(res.headers.get('date') ?? '');
  return Number.isFinite(date) ? { t0, t1, date } : null;
}

/**
 * The offset to the server's HTTP Date header. The header has 1 s resolution, so the server is
 * asked every 50 ms (at most ~1.2 s) until its second flips: the flip lies between the send of
 * the last answer with the old second and the receipt of the first with the new one.
 */
async function httpDate(baseUrl: string): Promise<ClockEstimate | null> {
  try {
    const url = new URL('/', baseUrl);
    let prev = await dateOnce(url);
    if (prev === null) return null;
    const first = prev;
    for (let i = 0; i < 24; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const cur = await dateOnce(url);
      if (cur === null) break;
      if (cur.date > prev.date) {
        const localFlip = (prev.t0 + cur.t1) / 2;
        return { source: 'http_date', offset_ms: localFlip - cur.date, uncertainty_ms: (cur.t1 - prev.t0) / 2 };
      }
      prev = cur;
    }
    return {
      source: 'http_date',
      offset_ms: (first.t0 + first.t1) / 2 - (first.date + 500),
      uncertainty_ms: 500 + (first.t1 - first.t0) / 2,
    };
  } catch {
    return null;
  }
}

/** chrony's state when it can be read, else the offset to the target server's Date header. */
export async function estimateClock(baseUrl: string): Promise<ClockEstimate> {
  return (await chrony()) ?? (await httpDate(baseUrl)) ?? { source: 'none', offset_ms: null, uncertainty_ms: null };
}

export interface ShardSection {
  index: number;
  count: number;
  start_at: string | null;
  start_at_unix_ns: bigint | null;
  /** When the profiling phase started, on this host's wall clock. */
  profiling_start_unix_ns: bigint | null;
  /** Profiling start − --start-at, ms (negative never: the shard waits). */
  late_ms: number | null;
  late: boolean;
  late_threshold_ms: number;
  clock: ClockEstimate;
}

export function shardSection(shard: ShardConfig, anchor: WallAnchor, profilingStartNs: bigint | null, clock: ClockEstimate): ShardSection {
  const startAt = shard.start_at_unix_ms === null ? null : BigInt(Math.round(shard.start_at_unix_ms * 1e6));
  const wall = profilingStartNs === null ? null : anchor.unix_ns + (profilingStartNs - anchor.monotonic_ns);
  const lateMs = startAt === null || wall === null ? null : Number(wall - startAt) / 1e6;
  return {
    index: shard.index,
    count: shard.count,
    start_at: shard.start_at_unix_ms === null ? null : new Date(shard.start_at_unix_ms).toISOString(),
    start_at_unix_ns: startAt,
    profiling_start_unix_ns: wall,
    late_ms: lateMs,
    late: lateMs !== null && lateMs > LATE_THRESHOLD_MS,
    late_threshold_ms: LATE_THRESHOLD_MS,
    clock,
  };
}

// The timeline integration of a run's request columns (a sweep line): a thin, validating wrapper
// over the one native call (native/timeline/timeline.h), decoding its Float64Array into named rows.
import { NativeArgumentError } from '../../errors.js';
import { callNative, native } from '../../native.js';

/**
 * The step functions the sweep reduces, in the order of the native result (native/timeline/timeline.h
 * TimelineRow). Per-user rows divide a throughput by the matching concurrency on each segment (0 where
 * that concurrency is 0); `active_*` rows are the same curves restricted to the time when their
 * phase has a request in flight (decode, prefill, or any).
 */
export const TIMELINE_ROWS = [
  'concurrency',
  'decode_concurrency',
  'prefill_concurrency',
  'decode_throughput',
  'prefill_throughput',
  'total_throughput',
  'decode_throughput_per_user',
  'prefill_throughput_per_user',
  'tokens_in_flight',
  'active_decode_throughput',
  'active_prefill_throughput',
  'active_total_throughput',
  'active_decode_throughput_per_user',
  'active_prefill_throughput_per_user',
] as const;
export type TimelineRow = (typeof TIMELINE_ROWS)[number];

/**
 * A run-level value of a step function over the run window (Effective / Active metrics): its
 * time-weighted average and duration-weighted percentiles ("p99: 99 % of the time at or below").
 */
export interface TimeWeightedStats {
  avg: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

/** Per-row stats in the native layout (native/timeline/timeline.h TimelineStat). */
const STATS = ['avg', 'p50', 'p90', 'p95', 'p99', 'max', 'weight_ns'] as const;
const HEADER = 3;

/** One row: time-weighted stats in base units, and the time they were weighted over. */
export interface TimelineRowStats extends TimeWeightedStats {
  /** ns: the window for Effective rows, the time the phase was active for Active rows. */
  weight_ns: number;
}

/**
 * Per-request columns, one entry per request. Times are ns relative to any fixed origin (the run
 * window's start, by convention): doubles hold integer ns exactly up to 2^53 ns, about 104 days.
 */
export interface TimelineColumns {
  start: Float64Array;
  /** First-token time; NaN when the request has none (it is then in prefill for its whole life). */
  generationStart: Float64Array;
  end: Float64Array;
  /** Input tokens; NaN when unknown (the request adds no prefill rate and no tokens in flight). */
  isl: Float64Array;
  /** Output tokens; NaN when unknown (the request adds no decode rate and no output tokens in flight). */
  osl: Float64Array;
}

export interface TimelineResult {
  /** Requests with a part of positive length inside the window. */
  requests: number;
  /** Steps of the curves with positive duration. */
  segments: number;
  window_ns: number;
  /** Stats are NaN where the weight is 0 (an empty window, or a phase that never ran). */
  rows: Record<TimelineRow, TimelineRowStats>;
}

const COLUMNS = ['start', 'generationStart', 'end', 'isl', 'osl'] as const;

/**
 * Integrates the columns over [windowStart, windowEnd] in one native call. Requests are clipped to
 * the window. The per-request rules (finite start <= end; generationStart NaN or within
 * [start, end]; isl / osl NaN or finite >= 0) are checked in that same native pass, which reads
 * every value anyway; a violation throws NativeArgumentError naming the request.
 */
export function timeline(columns: TimelineColumns, windowStart: number, windowEnd: number): TimelineResult {
  if (columns === null || typeof columns !== 'object') throw new NativeArgumentError('timeline: columns must be an object');
  const n = columns.start instanceof Float64Array ? columns.start.length : -1;
  for (const name of COLUMNS) {
    const col = columns[name];
    if (!(col instanceof Float64Array)) throw new NativeArgumentError(`timeline: ${name} must be a Float64Array`);
    if (col.length !== n) {
      throw new NativeArgumentError(`timeline: ${name} has ${col.length} entries, start has ${n} (one per request)`);
    }
  }
  if (!Number.isFinite(windowStart) || !Number.isFinite(windowEnd) || windowEnd < windowStart) {
    throw new NativeArgumentError(`timeline: bad window [${windowStart}, ${windowEnd}] (finite, end >= start)`);
  }
  const out = callNative(() =>
    native.timeline(columns.start, columns.generationStart, columns.end, columns.isl, columns.osl, windowStart, windowEnd),
  );
  if (out.length !== HEADER + TIMELINE_ROWS.length * STATS.length) {
    throw new Error(`timeline: the addon returned ${out.length} values; rebuild it (npm run build)`);
  }
  const rows = {} as Record<TimelineRow, TimelineRowStats>;
  TIMELINE_ROWS.forEach((row, r) => {
    const base = HEADER + r * STATS.length;
    const stats = {} as TimelineRowStats;
    STATS.forEach((stat, k) => (stats[stat] = out[base + k]));
    rows[row] = stats;
  });
  return { requests: out[0], segments: out[1], window_ns: out[2], rows };
}

// Run-level time-weighted (Effective / Active) metrics: builds the timeline columns from the profiling
// records, calls the native timeline integration once, and turns its rows into summary results.
import type { ProcessedRecord } from '../../records/types.js';
import type { TimeWeightedResult } from './summary.js';
import { latencyEndNs } from './latency-end.js';
import { timeline, type TimelineColumns } from './timeline.js';
import type { TimeWeightedMetricDef } from './types.js';

export interface TimeWeightedWindow {
  start_ns: bigint;
  end_ns: bigint;
}

/**
 * The window the Effective metrics average over: "from the first credit to the last response",
 * i.e. min(credit_issued_ns) over profiling records that completed (ok or error) to the end of the
 * last request_latency (max_response_timestamp's end). Cancelled requests do not widen it. Null
 * when no request succeeded with a latency.
 */
export function timeWeightedWindow(profiling: readonly ProcessedRecord[]): TimeWeightedWindow | null {
  let start: bigint | null = null;
  let end: bigint | null = null;
  for (const r of profiling) {
    if (r.status === 'cancelled') continue;
    const credit = r.raw.credit.credit_issued_ns;
    if (start === null || credit < start) start = credit;
    const last = latencyEndNs(r);
    if (last !== null && (end === null || last > end)) end = last;
  }
  return start === null || end === null ? null : { start_ns: start, end_ns: end };
}

/** The record metrics the columns are built from; a def's `requires` may name any of them. */
type Source = 'time_to_first_token' | 'input_sequence_length' | 'output_sequence_length';

export interface RecordColumns {
  columns: TimelineColumns;
  /** The Source tags that at least one record had a value for. */
  present: Set<string>;
}

/**
 * One column entry per successful record with a request_latency (error records carry no reliable
 * token counts or first token, so they stay out of the curves), times in ns relative to `origin`.
 * A request spans its request_latency: from start to its last content response. The first token is
 * start + time_to_first_token (NaN without one); ISL and OSL are the records' own counts (NaN when
 * unknown).
 */
export function recordColumns(records: readonly ProcessedRecord[], origin: bigint): RecordColumns {
  const ok = records.filter((r) => latencyEndNs(r) !== null);
  const n = ok.length;
  const columns: TimelineColumns = {
    start: new Float64Array(n),
    generationStart: new Float64Array(n),
    end: new Float64Array(n),
    isl: new Float64Array(n),
    osl: new Float64Array(n),
  };
  const present = new Set<string>();
  ok.forEach((r, i) => {
    // Differences of stamps stay far below 2^53 ns, so these doubles are exact.
    const start = Number(r.raw.start_ns - origin);
    const end = Number(latencyEndNs(r)! - origin);
    const value = (tag: Source): number => {
      const v = r.metrics.get(tag);
      if (typeof v !== 'number') return NaN;
      present.add(tag);
      return v;
    };
    const ttft = value('time_to_first_token');
    columns.start[i] = start;
    columns.end[i] = end;
    // Clamped into [start, end]: the first token cannot arrive after the response ended.
    columns.generationStart[i] = Number.isNaN(ttft) ? NaN : Math.min(start + ttft, end);
    columns.isl[i] = value('input_sequence_length');
    columns.osl[i] = value('output_sequence_length');
  });
  return { columns, present };
}

/**
 * The results of `defs` over the profiling records, in the order of `defs`. A metric has no value
 * when no request succeeded, when the window is empty, when no successful record had a value for
 * one of its `requires` tags, or (Active) when its phase never had a request in flight.
 */
export function summarizeTimeWeighted(profiling: readonly ProcessedRecord[], defs: readonly TimeWeightedMetricDef[]): TimeWeightedResult[] {
  if (defs.length === 0) return [];
  const window = timeWeightedWindow(profiling);
  if (window === null || window.end_ns <= window.start_ns) return [];
  const { columns, present } = recordColumns(profiling, window.start_ns);
  if (columns.start.length === 0) return [];
  const sweep = timeline(columns, 0, Number(window.end_ns - window.start_ns));
  const out: TimeWeightedResult[] = [];
  for (const def of defs) {
    if (!def.requires.every((tag) => present.has(tag))) continue;
    const row = sweep.rows[def.row];
    if (!(row.weight_ns > 0)) continue;
    const { avg, p50, p90, p95, p99, max } = row;
    if (![avg, p50, p90, p95, p99, max].every(Number.isFinite)) continue;
    out.push({
      tag: def.tag,
      header: def.header,
      unit: def.unit,
      display: def.display,
      group: def.group,
      flags: def.flags,
      kind: 'time_weighted',
      stats: { avg, p50, p90, p95, p99, max },
    });
  }
  return out;
}

// Run-level time-weighted (Effective / Active) metrics: the timeline columns, built a record at a
// time as the run's records finish (five numbers per successful request), one native timeline
// integration at the end, and its rows turned into summary results.
import type { ProcessedRecord } from '../../model/processed-record.js';
import { FloatColumn } from './column.js';
import type { TimeWeightedResult } from './summary.js';
import { latencyEndNs } from './latency-end.js';
import { timeline, type TimelineColumns } from './timeline.js';
import type { TimeWeightedMetricDef } from './types.js';

export interface TimeWeightedWindow {
  start_ns: bigint;
  end_ns: bigint;
}

/** The record metrics the columns are built from; a def's `requires` may name any of them. */
type Source = 'time_to_first_token' | 'input_sequence_length' | 'output_sequence_length';

/**
 * The sweep's input, fed every profiling record once. The window the Effective metrics average
 * over is "from the first credit to the last response": min(credit_issued_ns) over records that
 * completed (ok or error) to the end of the last request_latency; cancelled requests do not widen
 * it. One column entry per successful record with a request_latency (error records carry no
 * reliable token counts or first token, so they stay out of the curves). Times are kept relative
 * to the first such record's start and moved to the window's start at the end: differences of
 * stamps stay far below 2^53 ns, so these doubles are exact.
 */
export class TimeWeightedIntake {
  private anchor: bigint | null = null;
  private firstCredit: bigint | null = null;
  private lastEnd: bigint | null = null;
  private readonly start = new FloatColumn();
  private readonly end = new FloatColumn();
  private readonly ttft = new FloatColumn();
  private readonly isl = new FloatColumn();
  private readonly osl = new FloatColumn();
  /** The Source tags that at least one record had a value for. */
  private readonly present = new Set<string>();

  add(r: ProcessedRecord): void {
    if (r.status === 'cancelled') return;
    const credit = r.raw.credit.credit_issued_ns;
    if (this.firstCredit === null || credit < this.firstCredit) this.firstCredit = credit;
    const last = latencyEndNs(r);
    if (last === null) return;
    if (this.lastEnd === null || last > this.lastEnd) this.lastEnd = last;
    this.anchor ??= r.raw.start_ns;
    const value = (tag: Source): number => {
      const v = r.metrics.get(tag);
      if (typeof v !== 'number') return NaN;
      this.present.add(tag);
      return v;
    };
    this.start.push(Number(r.raw.start_ns - this.anchor));
    this.end.push(Number(last - this.anchor));
    this.ttft.push(value('time_to_first_token'));
    this.isl.push(value('input_sequence_length'));
    this.osl.push(value('output_sequence_length'));
  }

  /** Null when no request succeeded with a latency. */
  window(): TimeWeightedWindow | null {
    return this.firstCredit === null || this.lastEnd === null ? null : { start_ns: this.firstCredit, end_ns: this.lastEnd };
  }

  /**
   * The results of `defs`, in their order. A metric has no value when no request succeeded, when
   * the window is empty, when no successful record had a value for one of its `requires` tags, or
   * (Active) when its phase never had a request in flight.
   */
  results(defs: readonly TimeWeightedMetricDef[]): TimeWeightedResult[] {
    const window = this.window();
    if (defs.length === 0 || window === null || window.end_ns <= window.start_ns || this.anchor === null) return [];
    const sweep = timeline(this.columns(window.start_ns), 0, Number(window.end_ns - window.start_ns));
    const out: TimeWeightedResult[] = [];
    for (const def of defs) {
      if (!def.requires.every((tag) => this.present.has(tag))) continue;
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

  /**
   * The columns relative to `origin`: a request spans its request_latency, from start to its last
   * content response; its first token is start + time_to_first_token (NaN without one), clamped
   * into [start, end]: the first token cannot arrive after the response ended.
   */
  private columns(origin: bigint): TimelineColumns {
    const shift = Number(this.anchor! - origin);
    const n = this.start.length;
    const columns: TimelineColumns = {
      start: new Float64Array(n),
      generationStart: new Float64Array(n),
      end: new Float64Array(n),
      isl: this.isl.view().slice(),
      osl: this.osl.view().slice(),
    };
    const start = this.start.view();
    const end = this.end.view();
    const ttft = this.ttft.view();
    for (let i = 0; i < n; i++) {
      const s = start[i] + shift;
      const e = end[i] + shift;
      columns.start[i] = s;
      columns.end[i] = e;
      columns.generationStart[i] = Number.isNaN(ttft[i]) ? NaN : Math.min(s + ttft[i], e);
    }
    return columns;
  }
}

/** The window of a list of profiling records (see TimeWeightedIntake). */
export function timeWeightedWindow(profiling: readonly ProcessedRecord[]): TimeWeightedWindow | null {
  return intakeOf(profiling).window();
}

/** The results of `defs` over a list of profiling records (see TimeWeightedIntake.results). */
export function summarizeTimeWeighted(profiling: readonly ProcessedRecord[], defs: readonly TimeWeightedMetricDef[]): TimeWeightedResult[] {
  return intakeOf(profiling).results(defs);
}

function intakeOf(profiling: readonly ProcessedRecord[]): TimeWeightedIntake {
  const t = new TimeWeightedIntake();
  for (const r of profiling) t.add(r);
  return t;
}

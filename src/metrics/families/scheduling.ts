// Scheduling metrics: how well the harness kept to its schedule.
// - request_dispatch_delay (GuideLLM): start − targeted_start, for modes with an arrival schedule
//   (rate, fixed schedule); no value in closed loop, where a target would be circular.
// - Replay schedule lag (AIPerf reference, "Replay Schedule Lag Metrics"): computed once over the
//   whole profiling phase from every request sent at a trace timestamp, anchored to the least-late
//   one; exported, not shown in the console.
// - generation_delay (GuideLLM): time spent producing each conversation before it can be scheduled.
// - context_overflow_count (AIPerf reference, "Context Overflow Count"): error bodies that say the
//   context length was exceeded.
import type { ProcessedRecord } from '../../model/processed-record.js';
import type { RecordError } from '../../model/raw-record.js';
import { CountFold, diffNs, foldOf } from '../core/helpers.js';
import { FloatColumn } from '../core/column.js';
import { percentileSorted } from '../core/stats.js';
import { MetricFlag, type FoldSpec, type RecordFold, type RecordMetricDef, type RunMetricDef, type RunMetricInput } from '../core/types.js';

/** AIPerf flags a replay as degraded when the anchored send-lag p99 exceeds this. */
export const REPLAY_DEGRADED_P99_NS = 500e6;

export const requestDispatchDelay: RecordMetricDef = {
  kind: 'record',
  tag: 'request_dispatch_delay',
  header: 'Dispatch Delay',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: [],
  compute: (r) => (r.targeted_start_ns == null ? undefined : diffNs(r.start_ns, r.targeted_start_ns)),
};

// GuideLLM's generation delay: from the scheduler asking for the next conversation to its first
// turn being ready (dataset iteration and building the turn). One value per conversation, on its
// first turn's record. The HTTP body is built at dispatch; that cost is in the dispatch delay.
export const generationDelay: RecordMetricDef = {
  kind: 'record',
  tag: 'generation_delay',
  header: 'Generation Delay',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: [],
  compute: (r) => r.generation_delay_ns ?? undefined,
};

export const replaySendScheduleOffset: RecordMetricDef = {
  kind: 'record',
  tag: 'replay_send_schedule_offset',
  header: 'Replay Send Schedule Offset',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.NO_CONSOLE,
  group: 'none',
  requires: [],
  // Relative to the schedule's own zero (the phase start), so small numbers; only differences matter.
  compute: (r) => (r.trace_scheduled && r.targeted_start_ns != null ? diffNs(r.start_ns, r.targeted_start_ns) : undefined),
};

/**
 * Anchored send lags of every profiling request sent at a trace timestamp (ok, error or cancelled:
 * each was sent), ascending; empty when the run was not a fixed-schedule replay.
 */
export function replayLagsNs(records: readonly Pick<ProcessedRecord, 'raw'>[]): Float64Array {
  const offsets: number[] = [];
  for (const r of records) {
    const o = sendOffsetNs(r);
    if (o !== null) offsets.push(o);
  }
  return shiftedSorted(Float64Array.from(offsets));
}

/** A replayed request's actual − targeted send time, ns; null outside a replay. */
function sendOffsetNs(r: Pick<ProcessedRecord, 'raw'>): number | null {
  const c = r.raw.credit;
  if (c.trace_timestamp_ms === undefined || c.targeted_start_ns === null) return null;
  return diffNs(r.raw.start_ns, c.targeted_start_ns);
}

/** Sorted in place, then less the smallest. */
function shiftedSorted(offsets: Float64Array): Float64Array {
  const sorted = offsets.sort();
  const min = sorted.length > 0 ? sorted[0] : 0;
  for (let i = 0; i < sorted.length; i++) sorted[i] -= min;
  return sorted;
}

/**
 * The lag family reads every record, not only successful ones: each replayed request's send offset
 * (8 bytes a request, none outside a replay), sorted and shifted once for the four metrics.
 */
class LagFold implements RecordFold {
  private readonly offsets = new FloatColumn();
  private sorted: Float64Array | null = null;
  add(r: ProcessedRecord): void {
    const o = sendOffsetNs(r);
    if (o === null) return;
    this.offsets.push(o);
    this.sorted = null;
  }
  lags(): Float64Array {
    this.sorted ??= shiftedSorted(this.offsets.view().slice());
    return this.sorted;
  }
}
const LAGS: FoldSpec<LagFold> = { key: 'replay_sched_lag', create: () => new LagFold() };

function lags(run: RunMetricInput): Float64Array {
  return foldOf(run, LAGS)?.lags() ?? new Float64Array(0);
}

function lagPercentile(p: number, tag: string, header: string): RunMetricDef {
  return {
    kind: 'derived',
    tag,
    header,
    unit: 'ns',
    display: 'ms',
    flags: MetricFlag.NO_CONSOLE,
    group: 'none',
    requires: [],
    fold: LAGS,
    compute: (run) => {
      const l = lags(run);
      return l.length > 0 ? percentileSorted(l, p) : undefined;
    },
  };
}

export const replaySchedLagP50 = lagPercentile(50, 'replay_sched_lag_p50', 'Replay Schedule Lag p50');
export const replaySchedLagP90 = lagPercentile(90, 'replay_sched_lag_p90', 'Replay Schedule Lag p90');
export const replaySchedLagP99 = lagPercentile(99, 'replay_sched_lag_p99', 'Replay Schedule Lag p99');

export const replaySchedDegraded: RunMetricDef = {
  kind: 'derived',
  tag: 'replay_sched_degraded',
  header: 'Replay Schedule Degraded',
  unit: 'ratio',
  display: 'ratio',
  flags: MetricFlag.NO_CONSOLE,
  group: 'none',
  requires: ['replay_sched_lag_p99'],
  compute: (_run, v) => {
    const p99 = v.get('replay_sched_lag_p99');
    return typeof p99 === 'number' ? (p99 > REPLAY_DEGRADED_P99_NS ? 1 : 0) : undefined;
  },
};

/** Error texts of servers that refuse a prompt longer than the model's context (OpenAI, vLLM, SGLang, TGI, llama.cpp, Anthropic). */
const CONTEXT_OVERFLOW =
  /context[_ ]length[_ ]exceeded|maximum context length|context length|context window|context[_ ]size|exceed_context_size|prompt is too long|input is too long|inputs?` tokens \+ `max_new_tokens`/i;

export function isContextOverflow(error: RecordError | null): boolean {
  return error !== null && error.type !== 'cancelled' && CONTEXT_OVERFLOW.test(error.message);
}

const OVERFLOWS: FoldSpec<CountFold> = {
  key: 'context_overflow',
  create: () => new CountFold((r) => r.status === 'error' && isContextOverflow(r.error)),
};

export const contextOverflowCount: RunMetricDef = {
  kind: 'aggregate',
  tag: 'context_overflow_count',
  header: 'Context Overflow Count',
  unit: 'requests',
  display: 'requests',
  flags: MetricFlag.ERROR_ONLY,
  group: 'default',
  requires: [],
  // No value when nothing failed: the count only means something next to the errors.
  fold: OVERFLOWS,
  compute: (run) => {
    const f = foldOf(run, OVERFLOWS);
    return f && run.errored > 0 ? f.hits : undefined;
  },
};

export const schedulingRecordMetrics: readonly RecordMetricDef[] = [requestDispatchDelay, generationDelay, replaySendScheduleOffset];
export const schedulingRunMetrics: readonly RunMetricDef[] = [
  replaySchedLagP50,
  replaySchedLagP90,
  replaySchedLagP99,
  replaySchedDegraded,
  contextOverflowCount,
];

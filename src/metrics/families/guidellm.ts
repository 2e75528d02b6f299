// GuideLLM's metrics beyond AIPerf's catalogue (GuideLLM reference, "Performance Metrics"):
// - time_per_output_token: (last token − request start) / output tokens, the first token included.
// - Scheduling: request_scheduled_latency (end − targeted start), turn_predecessor_delay and
//   turn_scheduling_delay (the two parts of request_dispatch_delay, scheduling.ts). They exist only
//   for strategies with an arrival schedule (rate, replay): in closed loop a target would be
//   circular, so they have no value, and profile_export.json reports them as null (not 0).
// - slo_attainment and request_goodput: the share of requests meeting every --goodput objective,
//   and conforming requests per second.
import { CountFold, NO_FOLD, diffNs, foldOf, perSecond, runNumber, scalar, type NoFold } from '../core/helpers.js';
import { isGoodRequest } from './goodput.js';
import { MetricFlag, type FoldSpec, type RecordMetricDef, type RunMetricDef } from '../core/types.js';

/** The tags GuideLLM derives from targeted_start: null, not 0, without an arrival schedule. */
export const SCHEDULE_DELAY_TAGS = [
  'request_dispatch_delay',
  'request_scheduled_latency',
  'turn_predecessor_delay',
  'turn_scheduling_delay',
] as const;

export const timePerOutputToken: RecordMetricDef = {
  kind: 'record',
  tag: 'time_per_output_token',
  header: 'Time Per Output Token',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.STREAMING_ONLY | MetricFlag.PRODUCES_TOKENS_ONLY | MetricFlag.TOKEN_WEIGHTED,
  group: 'default',
  requires: ['output_sequence_length'],
  compute: (r, v) => {
    const osl = scalar(v, 'output_sequence_length');
    const last = r.token_ns[r.token_ns.length - 1];
    return osl >= 1 && last !== undefined ? diffNs(last, r.start_ns) / osl : undefined;
  },
};

// GuideLLM leaves these out of its console latency table (shared by every strategy); so do we.
const SCHEDULE_FLAGS = MetricFlag.NO_CONSOLE;

export const requestScheduledLatency: RecordMetricDef = {
  kind: 'record',
  tag: 'request_scheduled_latency',
  header: 'Scheduled Latency',
  unit: 'ns',
  display: 'ms',
  flags: SCHEDULE_FLAGS,
  group: 'none',
  requires: [],
  compute: (r) => (r.targeted_start_ns == null ? undefined : diffNs(r.end_ns, r.targeted_start_ns)),
};

export const turnPredecessorDelay: RecordMetricDef = {
  kind: 'record',
  tag: 'turn_predecessor_delay',
  header: 'Turn Predecessor Delay',
  unit: 'ns',
  display: 'ms',
  flags: SCHEDULE_FLAGS,
  group: 'none',
  requires: ['request_dispatch_delay'],
  // The wait, within the dispatch delay, for the previous turn to finish after this one was due;
  // 0 without a predecessor or when it finished before the target.
  compute: (r, v) => {
    const dispatch = Math.max(0, scalar(v, 'request_dispatch_delay'));
    const pred = r.predecessor_end_ns;
    if (r.targeted_start_ns == null) return undefined;
    if (pred == null) return 0;
    return Math.min(dispatch, Math.max(0, diffNs(pred, r.targeted_start_ns)));
  },
};

export const turnSchedulingDelay: RecordMetricDef = {
  kind: 'record',
  tag: 'turn_scheduling_delay',
  header: 'Turn Scheduling Delay',
  unit: 'ns',
  display: 'ms',
  flags: SCHEDULE_FLAGS,
  group: 'none',
  requires: ['request_dispatch_delay', 'turn_predecessor_delay'],
  compute: (_r, v) => scalar(v, 'request_dispatch_delay') - scalar(v, 'turn_predecessor_delay'),
};

/** Requests judged against the SLOs (not cancelled; a success needs a value for each), and the conforming ones. */
const ATTAINMENT: FoldSpec<CountFold | NoFold> = {
  key: 'slo_attainment',
  create: (options) => {
    const slos = options.goodput ?? [];
    if (slos.length === 0) return NO_FOLD;
    return new CountFold((r) => {
      if (r.status === 'cancelled') return null;
      if (r.status === 'ok' && !slos.every((s) => r.metrics.has(s.tag))) return null;
      return isGoodRequest(r, slos);
    });
  },
};

export const sloAttainment: RunMetricDef = {
  kind: 'aggregate',
  tag: 'slo_attainment',
  header: 'SLO Attainment',
  unit: 'ratio',
  display: 'ratio',
  flags: MetricFlag.GOODPUT | MetricFlag.LARGER_IS_BETTER,
  group: 'default',
  requires: [],
  // Errors are non-conforming; cancelled requests, and successes whose objectives cannot be
  // evaluated (no value for an objective's metric), are left out of both counts.
  fold: ATTAINMENT,
  compute: (run) => {
    const f = foldOf(run, ATTAINMENT);
    return f instanceof CountFold && f.judged > 0 ? f.hits / f.judged : undefined;
  },
};

export const requestGoodput: RunMetricDef = {
  kind: 'derived',
  tag: 'request_goodput',
  header: 'Request Goodput',
  unit: 'requests/s',
  display: 'requests/s',
  // The same count and window as AIPerf's goodput here (shown in the console), so exported only.
  flags: MetricFlag.GOODPUT | MetricFlag.LARGER_IS_BETTER | MetricFlag.NO_CONSOLE,
  group: 'none',
  requires: ['good_request_count', 'benchmark_duration'],
  compute: (_run, v) => perSecond(runNumber(v, 'good_request_count'), runNumber(v, 'benchmark_duration')),
};

export const guidellmRecordMetrics: readonly RecordMetricDef[] = [
  timePerOutputToken,
  requestScheduledLatency,
  turnPredecessorDelay,
  turnSchedulingDelay,
];
export const guidellmRunMetrics: readonly RunMetricDef[] = [sloAttainment, requestGoodput];

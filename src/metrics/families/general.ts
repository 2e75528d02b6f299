// General metrics (AIPerf reference, "General Metrics"): latency, counts, the run window and
// request throughput. Available for streaming and non-streaming runs alike.
import { MetricFlag, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { diffNs, perSecond, runNumber } from '../core/helpers.js';

export const requestLatency: RecordMetricDef = {
  kind: 'record',
  tag: 'request_latency',
  header: 'Request Latency',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: [],
  // AIPerf: content_responses[-1] − start, so a late usage chunk, [DONE] and the stream's close
  // (end_ns, the last byte) are not part of it; a stream without content has no value.
  compute: (r) => (r.last_content_ns === null ? undefined : diffNs(r.last_content_ns, r.start_ns)),
};

export const requestCount: RunMetricDef = {
  kind: 'aggregate',
  tag: 'request_count',
  header: 'Request Count',
  unit: 'requests',
  display: 'requests',
  flags: MetricFlag.LARGER_IS_BETTER,
  group: 'default',
  requires: [],
  compute: (run) => run.succeeded,
};

export const errorRequestCount: RunMetricDef = {
  kind: 'aggregate',
  tag: 'error_request_count',
  header: 'Error Request Count',
  unit: 'requests',
  display: 'requests',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: [],
  // Status 'error' only; cancelled requests are counted apart (summary counts), not as errors.
  compute: (run) => run.errored,
};

export const requestErrorRate: RunMetricDef = {
  kind: 'derived',
  tag: 'request_error_rate',
  header: 'Request Error Rate',
  unit: 'percent',
  display: '%',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: ['request_count', 'error_request_count'],
  compute: (_run, v) => {
    const ok = runNumber(v, 'request_count');
    const err = runNumber(v, 'error_request_count');
    return ok + err === 0 ? undefined : (100 * err) / (ok + err);
  },
};

export const minRequestTimestamp: RunMetricDef = {
  kind: 'aggregate',
  tag: 'min_request_timestamp',
  header: 'Minimum Request Timestamp',
  unit: 'ns',
  // An absolute CLOCK_MONOTONIC stamp: exported exactly in ns; the run's wall anchor converts it.
  display: 'ns',
  flags: MetricFlag.NONE,
  group: 'none',
  requires: [],
  compute: (run) => run.min_start_ns ?? undefined,
};

export const maxResponseTimestamp: RunMetricDef = {
  kind: 'aggregate',
  tag: 'max_response_timestamp',
  header: 'Maximum Response Timestamp',
  unit: 'ns',
  display: 'ns',
  flags: MetricFlag.NONE,
  group: 'none',
  // max(start + request_latency) over the records that have a request_latency (successful ones).
  requires: ['request_latency'],
  compute: (run) => run.max_response_ns ?? undefined,
};

export const benchmarkDuration: RunMetricDef = {
  kind: 'derived',
  tag: 'benchmark_duration',
  header: 'Benchmark Duration',
  unit: 'ns',
  display: 's',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: ['min_request_timestamp', 'max_response_timestamp'],
  compute: (_run, v) => {
    const start = v.get('min_request_timestamp');
    const end = v.get('max_response_timestamp');
    // Subtract as bigints so the difference is exact however large the stamps are.
    return typeof start === 'bigint' && typeof end === 'bigint' ? diffNs(end, start) : undefined;
  },
};

export const requestThroughput: RunMetricDef = {
  kind: 'derived',
  tag: 'request_throughput',
  header: 'Request Throughput',
  unit: 'requests/s',
  display: 'requests/s',
  flags: MetricFlag.LARGER_IS_BETTER,
  group: 'default',
  requires: ['request_count', 'benchmark_duration'],
  compute: (_run, v) => perSecond(runNumber(v, 'request_count'), runNumber(v, 'benchmark_duration')),
};

export const generalRecordMetrics: readonly RecordMetricDef[] = [requestLatency];

export const generalRunMetrics: readonly RunMetricDef[] = [
  requestCount,
  errorRequestCount,
  requestErrorRate,
  minRequestTimestamp,
  maxResponseTimestamp,
  benchmarkDuration,
  requestThroughput,
];

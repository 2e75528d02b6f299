// Effective and Active metrics (AIPerf's "Effective vs Active Metrics",
// https://docs.nvidia.com/aiperf/reference/effective-vs-active-metrics) and the
// coordinated-omission-aware effective_latency.
//
// Effective: the time-weighted average of a step function over the whole run window (first credit
// to last response). Active: the same, over the time when the curve's phase has a request in
// flight. Both report duration-weighted percentiles. The curves (native/timeline/timeline.h) treat each
// successful request as in prefill on [start, first token) and in decode on [first token, end),
// end being where its request_latency ends (the last content response), without a first token in
// prefill for its whole life:
//   prefill rate = ISL / (first token − start); decode rate = (OSL − 1) / (end − first token), the
//     first token counting as prefill's, as in ITL (the brief's 16 × 99 / 1.98 s ≈ 800 tok/s);
//   throughput = the sum of the rates of the requests in that phase; total = prefill + decode;
//   per user = a throughput over the matching concurrency on each step (0 where none);
//   tokens in flight = ISL while in prefill, ISL + OSL while in decode (the KV-cache proxy).
// See src/metrics/core/timeweighted.ts for the columns and the window.
import { MetricFlag, type RecordMetricDef, type TimeWeightedMetricDef } from '../core/types.js';
import { diffNs, scalar } from '../core/helpers.js';
import type { TimelineRow } from '../core/timeline.js';

/**
 * request_latency + (start_ns − credit_issued_ns): the latency plus the time the credit waited
 * before the request was sent, i.e. what a user who asked at credit time waited. It ends where
 * request_latency does (the last content response, not the last byte). Every scheduler stamps
 * credits, so it is computed whenever the record has a request_latency.
 */
export const effectiveLatency: RecordMetricDef = {
  kind: 'record',
  tag: 'effective_latency',
  header: 'Effective Latency',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.NONE,
  group: 'effective',
  requires: ['request_latency'],
  compute: (r, v) => scalar(v, 'request_latency') + diffNs(r.start_ns, r.credit_issued_ns),
};

// What each curve needs from the records: a value of these record metrics on at least one
// successful record (src/metrics/core/timeweighted.ts). Without any first token (a non-streaming run)
// the prefill / decode split is unknown, so only effective_concurrency is reported.
const PHASES = ['time_to_first_token'];
const DECODE = [...PHASES, 'output_sequence_length'];
const PREFILL = [...PHASES, 'input_sequence_length'];
const TOKENS = [...PHASES, 'input_sequence_length', 'output_sequence_length'];

function tw(
  tag: string,
  header: string,
  row: TimelineRow,
  unit: 'requests' | 'tokens' | 'tokens/s' | 'tokens/s/user',
  requires: string[],
): TimeWeightedMetricDef {
  const rate = unit === 'tokens/s' || unit === 'tokens/s/user';
  return {
    kind: 'time_weighted',
    tag,
    header,
    unit,
    display: unit,
    flags: rate ? MetricFlag.LARGER_IS_BETTER : MetricFlag.NONE,
    group: row.startsWith('active_') ? 'active' : 'effective',
    requires,
    row,
  };
}

export const effectiveTimeWeightedMetrics: readonly TimeWeightedMetricDef[] = [
  tw('effective_concurrency', 'Effective Concurrency', 'concurrency', 'requests', []),
  tw('effective_decode_concurrency', 'Effective Decode Concurrency', 'decode_concurrency', 'requests', PHASES),
  tw('effective_prefill_concurrency', 'Effective Prefill Concurrency', 'prefill_concurrency', 'requests', PHASES),
  tw('effective_decode_throughput', 'Effective Decode Throughput', 'decode_throughput', 'tokens/s', DECODE),
  tw('effective_prefill_throughput', 'Effective Prefill Throughput', 'prefill_throughput', 'tokens/s', PREFILL),
  tw('effective_total_throughput', 'Effective Total Throughput', 'total_throughput', 'tokens/s', TOKENS),
  tw('effective_decode_throughput_per_user', 'Effective Decode Throughput Per User', 'decode_throughput_per_user', 'tokens/s/user', DECODE),
  tw(
    'effective_prefill_throughput_per_user',
    'Effective Prefill Throughput Per User',
    'prefill_throughput_per_user',
    'tokens/s/user',
    PREFILL,
  ),
  tw('tokens_in_flight', 'Tokens In Flight', 'tokens_in_flight', 'tokens', TOKENS),
  tw('active_decode_throughput', 'Active Decode Throughput', 'active_decode_throughput', 'tokens/s', DECODE),
  tw('active_prefill_throughput', 'Active Prefill Throughput', 'active_prefill_throughput', 'tokens/s', PREFILL),
  tw('active_total_throughput', 'Active Total Throughput', 'active_total_throughput', 'tokens/s', TOKENS),
  tw(
    'active_decode_throughput_per_user',
    'Active Decode Throughput Per User',
    'active_decode_throughput_per_user',
    'tokens/s/user',
    DECODE,
  ),
  tw(
    'active_prefill_throughput_per_user',
    'Active Prefill Throughput Per User',
    'active_prefill_throughput_per_user',
    'tokens/s/user',
    PREFILL,
  ),
];

// Streaming metrics (AIPerf reference, "Streaming Metrics"). They read the stamps of responses
// that carried non-empty content or reasoning (`token_ns`); a role-only chunk is not in that list.
import type { MetricRecord } from '../../model/processed-record.js';
import { warnOnce } from '../../warnings.js';
import { MetricFlag, type RecordMetricDef } from '../core/types.js';
import { diffNs, gapsNs, NS_PER_S, perSecond, scalar } from '../core/helpers.js';

const STREAMING_TOKENS = MetricFlag.STREAMING_ONLY | MetricFlag.PRODUCES_TOKENS_ONLY;

export const timeToFirstToken: RecordMetricDef = {
  kind: 'record',
  tag: 'time_to_first_token',
  header: 'Time to First Token',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS,
  group: 'default',
  requires: [],
  compute: (r) => (r.token_ns.length > 0 ? diffNs(r.token_ns[0], r.start_ns) : undefined),
};

export const timeToSecondToken: RecordMetricDef = {
  kind: 'record',
  tag: 'time_to_second_token',
  header: 'Time to Second Token',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS,
  group: 'default',
  requires: [],
  compute: (r) => (r.token_ns.length > 1 ? diffNs(r.token_ns[1], r.token_ns[0]) : undefined),
};

export const timeToFirstOutputToken: RecordMetricDef = {
  kind: 'record',
  tag: 'time_to_first_output_token',
  header: 'Time to First Output Token',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS,
  group: 'default',
  requires: [],
  // A reasoning-only response has a TTFT but no first output token.
  compute: (r) => (r.first_output_ns === null ? undefined : diffNs(r.first_output_ns, r.start_ns)),
};

export const decodeDuration: RecordMetricDef = {
  kind: 'record',
  tag: 'decode_duration',
  header: 'Decode Duration',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS,
  group: 'default',
  requires: ['request_latency', 'time_to_first_token'],
  // The reference's formula (latency − TTFT): from the first to the last content response.
  compute: (_r, v) => scalar(v, 'request_latency') - scalar(v, 'time_to_first_token'),
};

export const interTokenLatency: RecordMetricDef = {
  kind: 'record',
  tag: 'inter_token_latency',
  header: 'Inter Token Latency',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS | MetricFlag.TOKEN_WEIGHTED,
  group: 'default',
  requires: ['request_latency', 'time_to_first_token', 'output_sequence_length'],
  compute: (r, v) => {
    const osl = scalar(v, 'output_sequence_length');
    // One token is assumed in the first chunk; with fewer than two tokens there is no gap to average.
    if (osl < 2) return undefined;
    return (scalar(v, 'request_latency') - scalar(v, 'time_to_first_token')) / (osl - firstChunkTokens(r, osl));
  },
};

/**
 * Tokens assumed to arrive with the first chunk: 1, or with --per-chunk-usage the server's
 * cumulative completion tokens through that chunk. A count inconsistent with OSL (≥ OSL, or < 1)
 * falls back to 1 with a one-time warning rather than dropping the metric.
 */
function firstChunkTokens(r: MetricRecord, osl: number): number {
  const n = r.first_chunk_tokens;
  if (n === null || n === undefined) return 1;
  if (n >= 1 && n < osl) return n;
  warnOnce(
    'itl:first_chunk_tokens',
    `--per-chunk-usage: the server reported ${n} tokens through the first chunk of a ${osl}-token response; ` +
      'ITL falls back to assuming one token in the first chunk for such records (warned once)',
  );
  return 1;
}

export const interChunkLatency: RecordMetricDef = {
  kind: 'record',
  tag: 'inter_chunk_latency',
  header: 'Inter Chunk Latency',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS | MetricFlag.PER_CHUNK,
  group: 'default',
  requires: [],
  compute: (r) => {
    if (r.token_ns.length < 2) return undefined;
    return gapsNs(r.token_ns);
  },
};

export const outputTokenThroughputPerUser: RecordMetricDef = {
  kind: 'record',
  tag: 'output_token_throughput_per_user',
  header: 'Output Token Throughput Per User',
  unit: 'tokens/s/user',
  display: 'tokens/s/user',
  flags: STREAMING_TOKENS | MetricFlag.LARGER_IS_BETTER,
  group: 'default',
  requires: ['inter_token_latency'],
  // 1 / ITL in seconds; a zero ITL (all tokens in one instant) has no finite rate.
  compute: (_r, v) => {
    const itl = scalar(v, 'inter_token_latency');
    return itl > 0 ? NS_PER_S / itl : undefined;
  },
};

export const prefillThroughputPerUser: RecordMetricDef = {
  kind: 'record',
  tag: 'prefill_throughput_per_user',
  header: 'Prefill Throughput Per User',
  unit: 'tokens/s/user',
  display: 'tokens/s/user',
  flags: STREAMING_TOKENS | MetricFlag.LARGER_IS_BETTER,
  group: 'default',
  requires: ['input_sequence_length', 'time_to_first_token'],
  compute: (_r, v) => perSecond(scalar(v, 'input_sequence_length'), scalar(v, 'time_to_first_token')),
};

export const streamingMetrics: readonly RecordMetricDef[] = [
  timeToFirstToken,
  timeToSecondToken,
  timeToFirstOutputToken,
  decodeDuration,
  interTokenLatency,
  interChunkLatency,
  outputTokenThroughputPerUser,
  prefillThroughputPerUser,
];

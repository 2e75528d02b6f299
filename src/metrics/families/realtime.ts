// GuideLLM's round-trip metrics of its realtime WebSocket backend (reference: guidellm-metrics.txt),
// from the stamps of the client events sent (sent_ns, realtime transport only) and of the received
// tokens (token_ns): absent on HTTP records, which have no sent stamps.
import type { MetricRecord } from '../../model/processed-record.js';
import { MetricFlag, type RecordMetricDef } from '../core/types.js';
import { diffNs } from '../core/helpers.js';

const STREAMING_TOKENS = MetricFlag.STREAMING_ONLY | MetricFlag.PRODUCES_TOKENS_ONLY;

function sentAndReceived(r: MetricRecord): [bigint[], bigint[] | BigInt64Array] | null {
  return r.sent_ns && r.sent_ns.length > 0 && r.token_ns.length > 0 ? [r.sent_ns, r.token_ns] : null;
}

/** Mean of stamps, relative to `origin` (ns as a number: no bigint overflow, sub-ns exact enough). */
function meanFrom(stamps: readonly bigint[] | BigInt64Array, origin: bigint): number {
  let sum = 0;
  for (const s of stamps) sum += Number(s - origin);
  return sum / stamps.length;
}

export const timeToLastRoundTrip: RecordMetricDef = {
  kind: 'record',
  tag: 'time_to_last_round_trip',
  header: 'Time To Last Round Trip',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS,
  group: 'default',
  requires: [],
  // The last sent packet → the last received token.
  compute: (r) => {
    const p = sentAndReceived(r);
    return p ? diffNs(p[1][p[1].length - 1], p[0][p[0].length - 1]) : undefined;
  },
};

export const averageRoundTripTime: RecordMetricDef = {
  kind: 'record',
  tag: 'average_round_trip_time',
  header: 'Average Round-Trip Time',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS,
  group: 'default',
  requires: [],
  // The mean of the received-token stamps − the mean of the sent-packet stamps.
  compute: (r) => {
    const p = sentAndReceived(r);
    return p ? meanFrom(p[1], r.start_ns) - meanFrom(p[0], r.start_ns) : undefined;
  },
};

export const realtimeRecordMetrics: RecordMetricDef[] = [timeToLastRoundTrip, averageRoundTripTime];

// HTTP trace metrics (AIPerf reference, "HTTP Trace Metrics", k6 names). Derived from the
// transport-neutral HttpTrace stamps of a record. The phases tile the request, from the moment it
// was handed to the transport (start_ns) to the last byte (end_ns):
//
//   start ─blocked─ connect start ─dns─ resolved ─connecting─ [TLS start ─tls_handshaking─ TLS end]
//   send start ─sending─ sent ─waiting─ first byte ─receiving─ end
//
// On https connections connecting ends where the TLS handshake begins (TCP connected), and
// tls_handshaking (k6's http_req_tls_handshaking) runs from there to the moment the request can be
// written; on plain ones tls_handshaking is 0.
// Connecting runs from name resolution to the moment the request can be written on the new
// connection: the handshake plus the client taking the connection into use (the handshake alone is
// connect_end_ns in the raw trace). Sending is the write of the request itself on either path.
// On a reused connection dns and connecting are 0 and blocked runs to the send start. Boundaries
// are made non-decreasing, so each phase is ≥ 0 and blocked + dns + connecting + tls_handshaking +
// sending + waiting + receiving = total = end − start exactly. duration (k6 http_req_duration) is
// sending + waiting + receiving; connection overhead is blocked + dns + connecting + tls_handshaking.
import type { MetricRecord } from '../../model/processed-record.js';
import { MetricFlag, type BaseUnit, type ConsoleGroup, type DisplayUnit, type RecordMetricDef } from '../core/types.js';
import { diffNs } from '../core/helpers.js';

export interface TracePhases {
  blocked: number;
  dns: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
  total: number;
  duration: number;
  overhead: number;
}

const cache = new WeakMap<object, TracePhases | null>();

const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

/** The k6 phases of a record (ns), or null when its trace lacks the send/response stamps. */
export function tracePhases(r: MetricRecord): TracePhases | null {
  const t = r.trace;
  if (!t) return null;
  const hit = cache.get(t);
  if (hit !== undefined) return hit;
  let out: TracePhases | null = null;
  if (t.send_start_ns !== null && t.send_end_ns !== null && t.first_byte_ns !== null) {
    const b0 = r.start_ns;
    let b1: bigint, b2: bigint, bt: bigint, b3: bigint;
    if (!t.connection_reused && t.connect_start_ns !== null) {
      b1 = maxBig(b0, t.connect_start_ns);
      b2 = maxBig(b1, t.dns_end_ns ?? b1);
      const tlsStart = t.tls_start_ns ?? null;
      bt = tlsStart !== null && (t.tls_end_ns ?? null) !== null ? maxBig(b2, tlsStart) : maxBig(b2, t.send_start_ns);
      b3 = maxBig(bt, t.send_start_ns);
    } else {
      b1 = b2 = bt = b3 = maxBig(b0, t.send_start_ns);
    }
    const b4 = maxBig(b3, t.send_end_ns);
    const b5 = maxBig(b4, t.first_byte_ns);
    const b6 = maxBig(b5, r.end_ns);
    out = {
      blocked: diffNs(b1, b0),
      dns: diffNs(b2, b1),
      connecting: diffNs(bt, b2),
      tls_handshaking: diffNs(b3, bt),
      sending: diffNs(b4, b3),
      waiting: diffNs(b5, b4),
      receiving: diffNs(b6, b5),
      total: diffNs(b6, b0),
      duration: diffNs(b6, b3),
      overhead: diffNs(b3, b0),
    };
  }
  cache.set(t, out);
  return out;
}

function traceMetric(
  tag: string,
  header: string,
  compute: (r: MetricRecord) => number | null | undefined,
  opts: { unit?: BaseUnit; display?: DisplayUnit; group?: ConsoleGroup; flags?: number } = {},
): RecordMetricDef {
  return {
    kind: 'record',
    tag,
    header,
    unit: opts.unit ?? 'ns',
    display: opts.display ?? 'ms',
    flags: MetricFlag.HTTP_TRACE_ONLY | (opts.flags ?? 0),
    group: opts.group ?? 'http_trace',
    requires: [],
    compute: (r) => compute(r) ?? undefined,
  };
}

const phase = (key: keyof TracePhases) => (r: MetricRecord) => tracePhases(r)?.[key];

export const httpReqBlocked = traceMetric('http_req_blocked', 'HTTP Blocked', phase('blocked'));
export const httpReqDnsLookup = traceMetric('http_req_dns_lookup', 'HTTP DNS Lookup', phase('dns'));
export const httpReqConnecting = traceMetric('http_req_connecting', 'HTTP Connecting', phase('connecting'));
export const httpReqTlsHandshaking = traceMetric('http_req_tls_handshaking', 'HTTP TLS Handshaking', phase('tls_handshaking'));
export const httpReqSending = traceMetric('http_req_sending', 'HTTP Sending', phase('sending'));
export const httpReqWaiting = traceMetric('http_req_waiting', 'HTTP Waiting (TTFB)', phase('waiting'));
export const httpReqReceiving = traceMetric('http_req_receiving', 'HTTP Receiving', phase('receiving'));
export const httpReqDuration = traceMetric('http_req_duration', 'HTTP Duration (excl. conn)', phase('duration'));
export const httpReqConnectionOverhead = traceMetric('http_req_connection_overhead', 'HTTP Connection Overhead', phase('overhead'));
export const httpReqTotal = traceMetric('http_req_total', 'HTTP Total Time', phase('total'));
export const httpReqDataSent = traceMetric('http_req_data_sent', 'HTTP Data Sent', (r) => r.trace?.bytes_sent, {
  unit: 'bytes',
  display: 'bytes',
});
export const httpReqDataReceived = traceMetric('http_req_data_received', 'HTTP Data Received', (r) => r.trace?.bytes_received, {
  unit: 'bytes',
  display: 'bytes',
});
export const httpReqConnectionReused = traceMetric(
  'http_req_connection_reused',
  'HTTP Connection Reused',
  (r) => (r.trace ? (r.trace.connection_reused ? 1 : 0) : undefined),
  // The average is the share of requests that reused a connection.
  { unit: 'ratio', display: 'ratio', flags: MetricFlag.LARGER_IS_BETTER },
);
export const httpReqChunksSent = traceMetric('http_req_chunks_sent', 'HTTP Chunks Sent', (r) => r.trace?.chunks_sent, {
  unit: 'count',
  display: 'count',
  group: 'none',
});
export const httpReqChunksReceived = traceMetric('http_req_chunks_received', 'HTTP Chunks Received', (r) => r.trace?.chunks_received, {
  unit: 'count',
  display: 'count',
  group: 'none',
});

export const httpTraceRecordMetrics: readonly RecordMetricDef[] = [
  httpReqBlocked,
  httpReqDnsLookup,
  httpReqConnecting,
  httpReqTlsHandshaking,
  httpReqSending,
  httpReqWaiting,
  httpReqReceiving,
  httpReqDuration,
  httpReqConnectionOverhead,
  httpReqTotal,
  httpReqDataSent,
  httpReqDataReceived,
  httpReqConnectionReused,
  httpReqChunksSent,
  httpReqChunksReceived,
];

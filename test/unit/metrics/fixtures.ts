// Hand-built records for metric tests. Times are given in ms offsets from the request start.
import { computeRecordMetrics } from '../../../src/metrics/record-metrics.js';
import type { MetricRecord, ProcessedRecord } from '../../../src/model/processed-record.js';
import type { Phase } from '../../../src/model/phase.js';
import type { RecordStatus } from '../../../src/model/raw-record.js';

export const MS = 1_000_000;
const msToNs = (ms: number) => BigInt(Math.round(ms * MS));

export interface RecordSpec {
  /** Absolute start, ns. */
  start?: bigint;
  /** Offsets from start, ms. */
  tokens?: number[];
  firstOutput?: number | null;
  end?: number;
  streaming?: boolean;
  valid?: boolean;
  input?: number | null;
  output?: number | null;
  reasoning?: number | null;
}

export function metricRecord(s: RecordSpec = {}): MetricRecord {
  const start = s.start ?? 1_000_000_000n;
  const tokens = s.tokens ?? [];
  const firstOutput = s.firstOutput === undefined ? (tokens.length > 0 ? tokens[0] : null) : s.firstOutput;
  return {
    valid: s.valid ?? true,
    streaming: s.streaming ?? true,
    credit_issued_ns: start,
    start_ns: start,
    end_ns: start + msToNs(s.end ?? 100),
    token_ns: tokens.map((t) => start + msToNs(t)),
    first_output_ns: firstOutput === null ? null : start + msToNs(firstOutput),
    // As records/process.ts derives it: the last token (streaming), the body (non-streaming).
    last_content_ns: !(s.streaming ?? true)
      ? start + msToNs(s.end ?? 100)
      : tokens.length > 0
        ? start + msToNs(tokens[tokens.length - 1])
        : null,
    input_tokens: s.input === undefined ? 100 : s.input,
    output_tokens: s.output === undefined ? 10 : s.output,
    reasoning_tokens: s.reasoning === undefined ? null : s.reasoning,
  };
}

export function processed(spec: RecordSpec, opts: { status?: RecordStatus; phase?: Phase; index?: number } = {}): ProcessedRecord {
  const status = opts.status ?? 'ok';
  const mi = metricRecord({ ...spec, valid: spec.valid ?? status === 'ok' });
  return {
    raw: {
      credit: {
        index: opts.index ?? 0,
        phase: opts.phase ?? 'profiling',
        x_request_id: `req-${opts.index ?? 0}`,
        credit_issued_ns: mi.credit_issued_ns,
        targeted_start_ns: null,
        turn: { prompt: 'p', isl: mi.input_tokens, max_tokens: null },
      },
      start_ns: mi.start_ns,
      end_ns: mi.end_ns,
      http_status: status === 'ok' ? 200 : 500,
      status,
      error: status === 'ok' ? null : { type: status === 'cancelled' ? 'cancelled' : 'http_5xx', message: 'x', http_status: 500 },
      streaming: mi.streaming,
      event_data: [],
      event_ns: [],
      event_type: [],
      body: null,
      bytes_sent: 0,
      bytes_received: 0,
    },
    status,
    error: status === 'ok' ? null : { type: status === 'cancelled' ? 'cancelled' : 'http_5xx', message: 'x', http_status: 500 },
    metric_input: mi,
    responses: [],
    usage: null,
    finish_reason: null,
    metrics: computeRecordMetrics(mi),
  };
}

// Dispatch delay, replay schedule lag (anchored to the least-late request) and context overflow.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { findMetric } from '../../../../src/metrics/core/summary.js';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { isContextOverflow, replayLagsNs } from '../../../../src/metrics/families/scheduling.js';
import type { MetricRecord, ProcessedRecord } from '../../../../src/model/processed-record.js';
import type { RecordError, RecordStatus } from '../../../../src/model/raw-record.js';

const MS = 1_000_000n;

function rec(
  startMs: number,
  targetMs: number | null,
  opts: { trace?: boolean; status?: RecordStatus; error?: RecordError | null } = {},
): ProcessedRecord {
  const status = opts.status ?? 'ok';
  const start_ns = 1_000_000n * MS + BigInt(Math.round(startMs * 1e6));
  const targeted = targetMs === null ? null : 1_000_000n * MS + BigInt(Math.round(targetMs * 1e6));
  const input: MetricRecord = {
    valid: status === 'ok',
    streaming: false,
    credit_issued_ns: start_ns,
    start_ns,
    end_ns: start_ns + 10n * MS,
    token_ns: [],
    first_output_ns: null,
    last_content_ns: start_ns + 10n * MS,
    input_tokens: 1,
    output_tokens: status === 'ok' ? 1 : null,
    reasoning_tokens: null,
    targeted_start_ns: targeted,
    trace_scheduled: opts.trace ?? false,
  };
  return {
    raw: {
      credit: {
        index: 0,
        phase: 'profiling',
        x_request_id: 'x',
        credit_issued_ns: start_ns,
        targeted_start_ns: targeted,
        turn: { prompt: 'p', isl: 1, max_tokens: 1 },
        ...(opts.trace ? { trace_timestamp_ms: targetMs! } : {}),
      },
      start_ns,
      end_ns: input.end_ns,
      http_status: 200,
      status,
      error: opts.error ?? null,
      streaming: false,
      event_data: [],
      event_ns: [],
      event_type: [],
      body: null,
      bytes_sent: 1,
      bytes_received: 1,
    },
    status,
    error: opts.error ?? null,
    metric_input: input,
    responses: [],
    usage: null,
    finish_reason: null,
    metrics: computeRecordMetrics(input),
  };
}

const single = (s: ReturnType<typeof summarize>, tag: string) => {
  const m = findMetric(s, tag);
  return m?.kind === 'single' ? m.stats.avg : undefined;
};

describe('request_dispatch_delay', () => {
  it('is start − targeted start for scheduled requests and has no value in closed loop', () => {
    expect(rec(12.5, 10).metrics.get('request_dispatch_delay')).toBeCloseTo(2.5e6, 0);
    expect(rec(12.5, null).metrics.has('request_dispatch_delay')).toBe(false);
    expect(rec(12.5, 10).metrics.has('replay_send_schedule_offset')).toBe(false);
    expect(rec(12.5, 10, { trace: true }).metrics.get('replay_send_schedule_offset')).toBeCloseTo(2.5e6, 0);
  });
});

describe('replay schedule lag', () => {
  it('anchors lags to the least-late request, over every request sent at a trace time (errors too)', () => {
    const records = [
      rec(3, 0, { trace: true }), // offset 3 ms: the least late → lag 0
      rec(105, 100, { trace: true }), // 5 → 2
      rec(213, 200, { trace: true, status: 'error', error: { type: 'http_5xx', message: 'HTTP 500', http_status: 500 } }), // 13 → 10
      rec(50, 40, { trace: false }), // not trace-scheduled: ignored
    ];
    expect(Array.from(replayLagsNs(records))).toEqual([0, 2e6, 10e6]);
    const s = summarize(records);
    expect(single(s, 'replay_sched_lag_p50')).toBeCloseTo(2e6, 0);
    expect(single(s, 'replay_sched_lag_p90')).toBeCloseTo(8.4e6, 0);
    expect(single(s, 'replay_sched_lag_p99')).toBeCloseTo(9.84e6, 0);
    expect(single(s, 'replay_sched_degraded')).toBe(0);
  });

  it('flags a replay whose lag p99 is over 500 ms as degraded', () => {
    const records = Array.from({ length: 10 }, (_, i) => rec(i * 100 + (i >= 5 ? 700 : 1), i * 100, { trace: true }));
    expect(single(summarize(records), 'replay_sched_degraded')).toBe(1);
  });

  it('has no value outside a fixed-schedule replay (a rate run has targets but no trace times)', () => {
    const s = summarize([rec(1, 0), rec(11, 10)]);
    expect(findMetric(s, 'replay_sched_lag_p50')).toBeUndefined();
    expect(findMetric(s, 'request_dispatch_delay')?.kind).toBe('distribution');
  });
});

describe('context overflow', () => {
  const err = (message: string): RecordError => ({ type: 'http_4xx', message, http_status: 400 });

  it.each([
    'HTTP 400: {"object":"error","message":"This model\'s maximum context length is 4096 tokens. However, you requested 5000 tokens"}',
    'HTTP 400: {"error":{"code":"context_length_exceeded","message":"..."}}',
    'HTTP 400: The prompt (total length 9000) is too long to fit into the model (context length 8192)',
    'HTTP 400: {"error":{"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}',
    'HTTP 422: Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096',
    'HTTP 400: prompt is too long: 210000 tokens > 200000 maximum',
  ])('recognises %s', (m) => expect(isContextOverflow(err(m))).toBe(true));

  it.each(['HTTP 500: internal error', 'HTTP 429: rate limited', 'connect ECONNREFUSED'])('not %s', (m) =>
    expect(isContextOverflow(err(m))).toBe(false),
  );

  it('counts overflowing errors; no value when nothing failed', () => {
    const overflow = err('HTTP 400: maximum context length is 10 tokens');
    const s = summarize([
      rec(0, null),
      rec(1, null, { status: 'error', error: overflow }),
      rec(2, null, { status: 'error', error: err('HTTP 500: boom') }),
    ]);
    expect(single(s, 'context_overflow_count')).toBe(1);
    expect(findMetric(summarize([rec(0, null)]), 'context_overflow_count')).toBeUndefined();
    expect(isContextOverflow({ type: 'cancelled', message: 'context length', http_status: null })).toBe(false);
  });
});

// GuideLLM's metrics on hand-built records: time per output token, scheduled latency, the two
// parts of the dispatch delay, SLO attainment and request goodput, and the null (not 0) report
// of the schedule delays without an arrival schedule.
import { describe, expect, it } from 'vitest';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { findMetric } from '../../../../src/metrics/core/summary.js';
import { buildProfileExport } from '../../../../src/export/json.js';
import type { MetricRecord, ProcessedRecord } from '../../../../src/model/processed-record.js';
import type { ResolvedSlo } from '../../../../src/metrics/core/options.js';
import type { MetricRegistry } from '../../../../src/metrics/core/registry.js';
import { registryFor } from '../../../../src/metrics/conventions.js';
import { MS, metricRecord, processed } from '../fixtures.js';

const ns = (ms: number) => BigInt(Math.round(ms * MS));

/** A processed record whose metric input is adjusted, metrics recomputed. */
function withInput(base: ProcessedRecord, patch: Partial<MetricRecord>, targetedMs?: number): ProcessedRecord {
  const mi = { ...base.metric_input, ...patch };
  if (targetedMs !== undefined) mi.targeted_start_ns = mi.start_ns + ns(targetedMs);
  const credit = { ...base.raw.credit, targeted_start_ns: mi.targeted_start_ns ?? null };
  return { ...base, raw: { ...base.raw, credit }, metric_input: mi, metrics: computeRecordMetrics(mi) };
}

describe('time_per_output_token (first token included)', () => {
  it('(last token − start) / output tokens', () => {
    // Tokens at 20, 25, 30 ms; end at 40 ms (usage chunk); 3 tokens: 30 / 3 = 10 ms.
    const m = computeRecordMetrics(metricRecord({ tokens: [20, 25, 30], end: 40, output: 3 }));
    expect(m.get('time_per_output_token')).toBeCloseTo(10 * MS, 0);
    // ITL (AIPerf) divides the span to the last content chunk by OSL − 1: (30 − 20) / 2.
    expect(m.get('inter_token_latency')).toBeCloseTo(5 * MS, 0);
  });
  it('no value without tokens, without a count, or when not streaming', () => {
    expect(computeRecordMetrics(metricRecord({ tokens: [], output: 3 })).has('time_per_output_token')).toBe(false);
    expect(computeRecordMetrics(metricRecord({ tokens: [5], output: 0 })).has('time_per_output_token')).toBe(false);
    expect(computeRecordMetrics(metricRecord({ tokens: [5], output: 2, streaming: false })).has('time_per_output_token')).toBe(false);
  });
});

describe('scheduled latency and the parts of the dispatch delay', () => {
  const start = 1_000_000_000n;
  // Content chunks at 20 and 30 ms; the response ends (usage, [DONE]) at 50 ms.
  const spec = { start, tokens: [20, 30], end: 50 };
  const base = (patch: Partial<MetricRecord>, registry?: MetricRegistry) =>
    computeRecordMetrics({ ...metricRecord(spec), ...patch }, registry);

  it("scheduled latency = request_end − targeted start = dispatch delay + GuideLLM's request latency", () => {
    const m = base({ targeted_start_ns: start - ns(8) }, registryFor('guidellm'));
    expect(m.get('request_dispatch_delay')).toBe(8 * MS);
    expect(m.get('request_scheduled_latency')).toBe(58 * MS);
    expect(m.get('request_scheduled_latency')).toBe((m.get('request_dispatch_delay') as number) + (m.get('request_latency') as number));
    // AIPerf's request latency (the default) ends at the last content chunk instead.
    const a = base({ targeted_start_ns: start - ns(8) });
    expect(a.get('request_scheduled_latency')).toBe(58 * MS);
    expect(a.get('request_latency')).toBe(30 * MS);
  });
  it('no predecessor: all of the delay is scheduling delay', () => {
    const m = base({ targeted_start_ns: start - ns(8) });
    expect(m.get('turn_predecessor_delay')).toBe(0);
    expect(m.get('turn_scheduling_delay')).toBe(8 * MS);
  });
  it('a predecessor still running past the target: its overrun is predecessor delay, the rest scheduling delay; they sum to the dispatch delay', () => {
    // Due at −8 ms, the previous turn ended at −3 ms, sent at 0.
    const m = base({ targeted_start_ns: start - ns(8), predecessor_end_ns: start - ns(3) });
    expect(m.get('turn_predecessor_delay')).toBe(5 * MS);
    expect(m.get('turn_scheduling_delay')).toBe(3 * MS);
  });
  it('a predecessor that finished before the target adds nothing; one that ran past the send is capped at the delay', () => {
    expect(base({ targeted_start_ns: start - ns(8), predecessor_end_ns: start - ns(20) }).get('turn_predecessor_delay')).toBe(0);
    expect(base({ targeted_start_ns: start - ns(8), predecessor_end_ns: start + ns(2) }).get('turn_predecessor_delay')).toBe(8 * MS);
  });
  it('closed loop (no target): none of them has a value', () => {
    const m = base({ targeted_start_ns: null, predecessor_end_ns: start - ns(3) });
    for (const tag of ['request_dispatch_delay', 'request_scheduled_latency', 'turn_predecessor_delay', 'turn_scheduling_delay'])
      expect(m.has(tag), tag).toBe(false);
  });
});

const meta = { config: {}, run: { start_ns: null, end_ns: null, wall_anchor: null } };

describe('schedule_delays in profile_export.json', () => {
  it('null, not 0, without an arrival schedule', () => {
    const s = summarize([processed({ tokens: [10], end: 20 }), processed({ tokens: [12], end: 22 }, { index: 1 })]);
    expect(s.arrival_schedule).toBe(false);
    const j = buildProfileExport(s, meta);
    expect(j.schedule_delays).toEqual({
      arrival_schedule: false,
      request_dispatch_delay: null,
      request_scheduled_latency: null,
      turn_predecessor_delay: null,
      turn_scheduling_delay: null,
    });
    expect(j.metrics.request_dispatch_delay).toBeUndefined();
  });
  it('their entries with an arrival schedule', () => {
    const recs = [0, 1, 2].map((i) => withInput(processed({ tokens: [10], end: 20 }, { index: i }), {}, -2 - i));
    const s = summarize(recs);
    expect(s.arrival_schedule).toBe(true);
    const sd = buildProfileExport(s, meta).schedule_delays as Record<string, any>;
    expect(sd.arrival_schedule).toBe(true);
    expect(sd.request_dispatch_delay.avg).toBeCloseTo(3, 6);
    expect(sd.request_scheduled_latency.avg).toBeCloseTo(23, 6);
    expect(sd.turn_predecessor_delay.avg).toBe(0);
    expect(sd.turn_scheduling_delay.avg).toBeCloseTo(3, 6);
  });
});

describe('SLO attainment and request goodput', () => {
  // TTFT objective 15 ms: 10 ms and 12 ms conform, 20 ms does not; one error; one cancelled;
  // one non-streaming success (no TTFT: its objective cannot be evaluated).
  const recs: ProcessedRecord[] = [
    processed({ tokens: [10], end: 1000 }, { index: 0 }),
    processed({ tokens: [12], end: 30 }, { index: 1 }),
    processed({ tokens: [20], end: 40 }, { index: 2 }),
    processed({ tokens: [], end: 10 }, { index: 3, status: 'error' }),
    processed({ tokens: [], end: 10 }, { index: 4, status: 'cancelled' }),
    processed({ tokens: [], end: 50, streaming: false }, { index: 5 }),
  ];
  const slos: ResolvedSlo[] = [{ tag: 'time_to_first_token', threshold: 15 * MS, largerIsBetter: false }];

  it('conforming / (judged successes + errors): 2 / 4', () => {
    const s = summarize(recs, { metricOptions: { goodput: slos } });
    expect(findMetric(s, 'slo_attainment')?.stats.avg).toBeCloseTo(0.5, 12);
    // AIPerf's fraction keeps the unevaluable success in its denominator: 2 / 5.
    expect(findMetric(s, 'good_request_fraction')?.stats.avg).toBeCloseTo(0.4, 12);
  });
  it('request goodput: conforming requests per second of the benchmark window (1 s here)', () => {
    const s = summarize(recs, { metricOptions: { goodput: slos } });
    const duration = findMetric(s, 'benchmark_duration')!.stats.avg / 1e9;
    expect(findMetric(s, 'request_goodput')?.stats.avg).toBeCloseTo(2 / duration, 9);
    expect(findMetric(s, 'request_goodput')?.stats.avg).toBeLessThanOrEqual(findMetric(s, 'request_throughput')!.stats.avg);
  });
  it('no objectives: no value (not 0)', () => {
    const s = summarize(recs);
    expect(findMetric(s, 'slo_attainment')).toBeUndefined();
    expect(findMetric(s, 'request_goodput')).toBeUndefined();
  });
});

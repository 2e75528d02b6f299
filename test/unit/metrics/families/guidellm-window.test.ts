// GuideLLM's measurement window under --convention guidellm (and in --convention all), on
// hand-built records that straddle each boundary. Window: measure_start 1000 ms, measure_end 2000 ms.
import { describe, expect, it } from 'vitest';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { registryFor } from '../../../../src/metrics/conventions.js';
import type { MeasurementWindow } from '../../../../src/metrics/core/options.js';
import { findMetric, type MetricsSummary } from '../../../../src/metrics/core/summary.js';
import { outputTokensInWindow, overlapsWindow } from '../../../../src/metrics/families/guidellm-window.js';
import type { ProcessedRecord } from '../../../../src/model/processed-record.js';
import { MS, processed, type RecordSpec } from '../fixtures.js';

const T0 = 100_000_000_000n;
const at = (ms: number) => T0 + BigInt(Math.round(ms * MS));
const WINDOW: MeasurementWindow = { start_ns: at(1000), end_ns: at(2000) };

/** A record under GuideLLM's definitions (as a run under --convention guidellm processes it). */
function rec(startMs: number, spec: Omit<RecordSpec, 'start'>, index: number): ProcessedRecord {
  const r = processed({ ...spec, start: at(startMs) }, { index });
  r.metrics = computeRecordMetrics(r.metric_input, registryFor('guidellm'));
  return r;
}

// Each record: start, tokens (ms from its start), last byte (ms from its start), output tokens.
// A: starts in the warmup (500), first token before measure_start (900): no TTFT; its decode
//    (900 → 1600) overlaps: ITL counts.
// B: starts in the warmup (800), first token after measure_start (1100): TTFT counts (partial overlap).
// C: wholly inside (1200 → 1500).
// D: starts inside (1900), first token after measure_end (2100): TTFT counts (start ≤ end), ITL does
//    not (first token → completion, 2100 → 2300, is after the window).
// E: starts in the warmup, done before measure_start (200 → 800): neither.
const A = rec(500, { tokens: [400, 700, 1000, 1100], end: 1100, output: 4, input: 10 }, 0);
const B = rec(800, { tokens: [300, 400, 500], end: 600, output: 3, input: 20 }, 1);
const C = rec(1200, { tokens: [100, 200, 300], end: 300, output: 3, input: 30 }, 2);
const D = rec(1900, { tokens: [200, 300, 400], end: 400, output: 3, input: 40 }, 3);
const E = rec(200, { tokens: [100, 500, 600], end: 600, output: 3, input: 50 }, 4);
const records = [A, B, C, D, E];

const guidellm = (window: MeasurementWindow | null, recs = records) =>
  summarize(recs, { registry: registryFor('guidellm'), metricOptions: { convention: 'guidellm', measurement_window: window } });

function dist(s: MetricsSummary, tag: string) {
  const m = findMetric(s, tag);
  if (m?.kind !== 'distribution') throw new Error(`${tag}: no distribution`);
  return m.stats;
}
const single = (s: MetricsSummary, tag: string) => findMetric(s, tag)?.stats.avg;

describe('the overlap rule', () => {
  it('a span counts when it touches the window at all; open bounds always do', () => {
    expect(overlapsWindow(at(0), at(999), WINDOW)).toBe(false);
    expect(overlapsWindow(at(0), at(1000), WINDOW)).toBe(true);
    expect(overlapsWindow(at(2000), at(3000), WINDOW)).toBe(true);
    expect(overlapsWindow(at(2001), at(3000), WINDOW)).toBe(false);
    expect(overlapsWindow(at(0), at(1), { start_ns: null, end_ns: at(2000) })).toBe(true);
    expect(overlapsWindow(at(5000), at(6000), { start_ns: at(1000), end_ns: null })).toBe(true);
  });
});

describe('TTFT, TTFOT and ITL under the window', () => {
  const s = guidellm(WINDOW);

  it('TTFT counts when start → first token overlaps: B, C and D, not A (first token before it) or E', () => {
    const ttft = dist(s, 'time_to_first_token');
    expect(ttft.count).toBe(3);
    // B 300, C 100, D 200 ms.
    expect(ttft.avg).toBeCloseTo(200 * MS, 0);
    expect(ttft.min).toBe(100 * MS);
    expect(ttft.max).toBe(300 * MS);
    expect(dist(s, 'time_to_first_output_token').count).toBe(3);
  });

  it('ITL counts when first token → completion overlaps: A, B and C, not D (after it) or E (before it)', () => {
    const itl = dist(s, 'inter_token_latency');
    // Token-weighted: A (4 tokens, 3 gaps of 700/3 ms), B (2 gaps of 100 ms), C (2 gaps of 100 ms).
    expect(itl.count).toBe(3 + 2 + 2);
    expect(itl.avg).toBeCloseTo(((700 + 200 + 200) / 7) * MS, 0);
  });

  it('request-level metrics keep every record; each record keeps its own values', () => {
    expect(dist(s, 'request_latency').count).toBe(5);
    expect(dist(s, 'time_per_output_token').count).toBe(4 + 3 + 3 + 3 + 3);
    expect(s.counts.succeeded).toBe(5);
    expect(A.metrics.has('time_to_first_token')).toBe(true);
    expect(D.metrics.has('inter_token_latency')).toBe(true);
  });

  it('no window (no warmup or cooldown), or an open one: nothing is filtered', () => {
    for (const w of [null, { start_ns: null, end_ns: null }]) {
      const all = guidellm(w);
      expect(dist(all, 'time_to_first_token').count).toBe(5);
      expect(dist(all, 'inter_token_latency').count).toBe(3 + 2 + 2 + 2 + 2);
    }
  });

  it('only a cooldown: the warmup side is open', () => {
    const s2 = guidellm({ start_ns: null, end_ns: at(2000) });
    expect(dist(s2, 'time_to_first_token').count).toBe(5);
    // D's decode starts after measure_end.
    expect(dist(s2, 'inter_token_latency').count).toBe(3 + 2 + 2 + 2);
  });

  it("AIPerf's definitions (the default) ignore the window", () => {
    const a = summarize(records, { metricOptions: { measurement_window: WINDOW } });
    expect(dist(a, 'time_to_first_token').count).toBe(5);
    expect(dist(a, 'inter_token_latency').count).toBe(5);
  });
});

describe('per-token rates count the token events inside the window', () => {
  it('output tokens: token k at first + k · (last − first) / (OSL − 1), counted when inside', () => {
    // A: tokens at 900, 1133.3, 1366.7, 1600 → all but the first inside.
    expect(outputTokensInWindow(A, WINDOW)).toBe(3);
    // B: 1100, 1200, 1300; C: 1300, 1400, 1500 → all.
    expect(outputTokensInWindow(B, WINDOW)).toBe(3);
    expect(outputTokensInWindow(C, WINDOW)).toBe(3);
    // D: 2100, 2200, 2300 → none; E: 300, 550, 800 → none.
    expect(outputTokensInWindow(D, WINDOW)).toBe(0);
    expect(outputTokensInWindow(E, WINDOW)).toBe(0);
    // A token exactly on a bound is inside.
    expect(outputTokensInWindow(B, { start_ns: at(1300), end_ns: at(1300) })).toBe(1);
  });

  it('output and total token throughput over the window length (1 s)', () => {
    const s = guidellm(WINDOW);
    expect(single(s, 'output_token_throughput')).toBeCloseTo(9, 9);
    // Prompt tokens count when the first token (prefill done) falls inside: B 20, C 30.
    expect(single(s, 'total_token_throughput')).toBeCloseTo(9 + 50, 9);
  });

  it('an open bound takes the run’s own: first request sent, last response', () => {
    // Only a cooldown at 2000 ms: the window is [E's start 200 ms, 2000 ms], 1.8 s.
    const s = guidellm({ start_ns: null, end_ns: at(2000) });
    // A 4, B 3, C 3, E 3; D none.
    expect(single(s, 'output_token_throughput')).toBeCloseTo(13 / 1.8, 9);
  });

  it('without a window: total tokens over the benchmark duration, as AIPerf', () => {
    const s = guidellm(null);
    const a = summarize(records);
    expect(single(s, 'total_osl')).toBe(16);
    // GuideLLM's request latency runs to the last byte, so its duration can only be longer or equal.
    const duration = (single(s, 'benchmark_duration') as number) / 1e9;
    expect(single(s, 'output_token_throughput')).toBeCloseTo(16 / duration, 9);
    expect(single(a, 'output_token_throughput')).toBeCloseTo(16 / ((single(a, 'benchmark_duration') as number) / 1e9), 9);
  });

  it('a non-streaming record delivers all its tokens with the body', () => {
    const body = rec(1500, { tokens: [], end: 100, output: 5, input: 7, streaming: false }, 9);
    expect(outputTokensInWindow(body, WINDOW)).toBe(5);
    expect(outputTokensInWindow(body, { start_ns: null, end_ns: at(1550) })).toBe(0);
  });
});

describe('--convention all compares the windowed GuideLLM values', () => {
  it("the GuideLLM column applies the window; AIPerf's does not", () => {
    const s = summarize(records, { metricOptions: { convention: 'all', measurement_window: WINDOW } });
    const row = (tag: string) => s.conventions!.rows.find((r) => r.tag === tag)!;
    const ttft = row('time_to_first_token');
    expect(ttft.values.aiperf?.kind === 'distribution' && ttft.values.aiperf.stats.count).toBe(5);
    expect(ttft.values.guidellm?.kind === 'distribution' && ttft.values.guidellm.stats.count).toBe(3);
    expect(row('output_token_throughput').values.guidellm?.stats.avg).toBeCloseTo(9, 9);
    expect(row('time_to_first_output_token')).toBeDefined();
  });
});

// The Effective / Active family end to end through summarize(): columns built from processed
// records, the run window, the no-value rules, effective_latency, and the exports.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { findMetric, type MetricsSummary, type TimeWeightedStats } from '../../../../src/metrics/core/summary.js';
import { defaultRegistry } from '../../../../src/metrics/catalogue.js';
import { effectiveTimeWeightedMetrics } from '../../../../src/metrics/families/effective.js';
import { renderConsole } from '../../../../src/export/console.js';
import { buildProfileExport } from '../../../../src/export/json.js';
import type { ProcessedRecord } from '../../../../src/model/processed-record.js';
import type { RecordStatus } from '../../../../src/model/raw-record.js';
import { MS, processed, type RecordSpec } from '../fixtures.js';

const T0 = 50_000_000_000n;
const at = (ms: number) => T0 + BigInt(Math.round(ms * MS));

/** A processed record whose credit was issued `wait` ms before it started. */
function rec(spec: RecordSpec & { start: bigint }, wait = 0, status: RecordStatus = 'ok'): ProcessedRecord {
  const r = processed(spec, { status });
  const credit = spec.start - BigInt(Math.round(wait * MS));
  r.raw.credit.credit_issued_ns = credit;
  r.metric_input.credit_issued_ns = credit;
  r.metrics = computeRecordMetrics(r.metric_input);
  return r;
}

function tw(s: MetricsSummary, tag: string): TimeWeightedStats & { group: string; unit: string } {
  const m = findMetric(s, tag);
  if (m?.kind !== 'time_weighted') throw new Error(`${tag} is not a time-weighted result`);
  return { ...m.stats, group: m.group, unit: m.unit };
}

const TW_TAGS = effectiveTimeWeightedMetrics.map((d) => d.tag);

describe('Effective and Active metrics from processed records', () => {
  // Window: first credit (0 ms) to the end of the last request_latency (A's last content, 1000 ms).
  // A request spans its request_latency: its last byte (usage, [DONE]) comes 100 ms later, outside.
  //   A: credit 0, start 0, first token 100, last content 1000, ISL 200, OSL 10: prefill 200/0.1 s =
  //      2000 tok/s on [0, 100), decode 9/0.9 s = 10 tok/s on [100, 1000); holds 200, then 210 tokens.
  //   B: credit 0, start 200 (200 ms in the credit queue), first token 300, last content 800, ISL 100,
  //      OSL 6: prefill 1000 tok/s on [200, 300), decode 5/0.5 s = 10 tok/s on [300, 800); holds 100, then 106.
  //   C: an error on [900, 1500]: neither in the curves nor at the window's end (it has no request_latency).
  // Segments (ms):   c dc pc  dt    pt  total  tif
  //   [0, 100)       1  0  1   0  2000   2000  200
  //   [100, 200)     1  1  0  10     0     10  210
  //   [200, 300)     2  1  1  10  1000   1010  310
  //   [300, 800)     2  2  0  20     0     20  316
  //   [800, 1000)    1  1  0  10     0     10  210
  // Percentile targets over 1000 ms: 500, 900, 950, 990 ms.
  const a = rec({ start: at(0), tokens: [100, 500, 1000], end: 1100, input: 200, output: 10 });
  const b = rec({ start: at(200), tokens: [100, 600], end: 700, input: 100, output: 6 }, 200);
  const c = rec({ start: at(900), tokens: [], end: 600, input: 100, output: null }, 0, 'error');
  const s = summarize([a, b, c]);

  it('reports every Effective and Active metric, in its group and unit', () => {
    for (const tag of TW_TAGS) expect(findMetric(s, tag)?.kind, tag).toBe('time_weighted');
    expect(tw(s, 'effective_concurrency').group).toBe('effective');
    expect(tw(s, 'tokens_in_flight').unit).toBe('tokens');
    expect(tw(s, 'active_prefill_throughput').group).toBe('active');
    expect(tw(s, 'effective_decode_throughput_per_user').unit).toBe('tokens/s/user');
  });

  it('concurrencies', () => {
    // c: Σ = 100 + 100 + 200 + 1000 + 200 = 1600 ms → 1600/1000; <=1: 400, <=2: 1000.
    expect(tw(s, 'effective_concurrency')).toMatchObject({ p50: 2, p90: 2, p99: 2, max: 2 });
    expect(tw(s, 'effective_concurrency').avg).toBeCloseTo(1600 / 1000, 9);
    // dc: Σ = 100 + 100 + 1000 + 200 = 1400; at 0: 100, <=1: 500, <=2: 1000.
    expect(tw(s, 'effective_decode_concurrency').avg).toBeCloseTo(1400 / 1000, 9);
    expect(tw(s, 'effective_decode_concurrency')).toMatchObject({ p50: 1, p90: 2, max: 2 });
    // pc: 1 for 200 ms; at 0: 800 < 900.
    expect(tw(s, 'effective_prefill_concurrency').avg).toBeCloseTo(200 / 1000, 9);
    expect(tw(s, 'effective_prefill_concurrency')).toMatchObject({ p50: 0, p90: 1, max: 1 });
  });

  it('throughputs: the tokens of each phase spread over the window', () => {
    // Decode tokens (OSL - 1): 9 + 5 = 14 over 1 s; at 0: 100 ms, <=10: 500 ms, <=20: 1000 ms.
    expect(tw(s, 'effective_decode_throughput').avg).toBeCloseTo(14, 9);
    expect(tw(s, 'effective_decode_throughput')).toMatchObject({ p50: 10, p90: 20, p99: 20, max: 20 });
    // Prefill tokens 200 + 100 over 1 s; at 0: 800, <=1000: 900, <=2000: 1000.
    expect(tw(s, 'effective_prefill_throughput').avg).toBeCloseTo(300, 9);
    expect(tw(s, 'effective_prefill_throughput')).toMatchObject({ p50: 0, p90: 1000, p95: 2000, max: 2000 });
    // Total 314 tokens; <=10: 300, <=20: 800, <=1010: 900, <=2000: 1000.
    expect(tw(s, 'effective_total_throughput').avg).toBeCloseTo(314, 9);
    expect(tw(s, 'effective_total_throughput')).toMatchObject({ p50: 20, p90: 1010, p95: 2000, max: 2000 });
    // Per user: decode 10 tok/s whenever someone decodes (900 ms); prefill equals the prefill curve.
    expect(tw(s, 'effective_decode_throughput_per_user').avg).toBeCloseTo(9, 9);
    expect(tw(s, 'effective_decode_throughput_per_user')).toMatchObject({ p50: 10, max: 10 });
    expect(tw(s, 'effective_prefill_throughput_per_user').avg).toBeCloseTo(300, 9);
  });

  it('tokens in flight', () => {
    // Σ = 200·100 + 210·100 + 310·100 + 316·500 + 210·200 = 272,000; <=200: 100, <=210: 400, <=310: 500.
    expect(tw(s, 'tokens_in_flight').avg).toBeCloseTo(272, 9);
    expect(tw(s, 'tokens_in_flight')).toMatchObject({ p50: 310, p90: 316, max: 316 });
  });

  it('active metrics: the same curves over the time their phase runs', () => {
    // Decode runs 900 ms: 14 tokens / 0.9 s; 10 for 400 ms, 20 for 500 ms (p50 target 450).
    expect(tw(s, 'active_decode_throughput').avg).toBeCloseTo(14 / 0.9, 9);
    expect(tw(s, 'active_decode_throughput')).toMatchObject({ p50: 20, p90: 20, max: 20 });
    // Prefill runs 200 ms: 300 tokens / 0.2 s; 1000 for 100 ms, 2000 for 100 ms (p50 target: exactly 100).
    expect(tw(s, 'active_prefill_throughput').avg).toBeCloseTo(1500, 9);
    expect(tw(s, 'active_prefill_throughput')).toMatchObject({ p50: 1000, p90: 2000, max: 2000 });
    // Some request in flight for 1000 ms: 314 tokens / 1 s; 10 (300), 20 (500), 1010, 2000 (100 each).
    expect(tw(s, 'active_total_throughput').avg).toBeCloseTo(314, 9);
    expect(tw(s, 'active_total_throughput')).toMatchObject({ p50: 20, p99: 2000, max: 2000 });
    expect(tw(s, 'active_decode_throughput_per_user').avg).toBeCloseTo(10, 9);
    expect(tw(s, 'active_prefill_throughput_per_user').avg).toBeCloseTo(1500, 9);
    // Effective dilutes what Active does not.
    expect(tw(s, 'active_prefill_throughput').avg).toBeGreaterThan(tw(s, 'effective_prefill_throughput').avg);
  });

  it('effective_latency = request_latency + the credit wait (last content − credit issued), next to request_latency', () => {
    expect(a.metrics.get('effective_latency')).toBe(1000 * MS);
    expect(b.metrics.get('effective_latency')).toBe(800 * MS);
    expect(b.metrics.get('request_latency')).toBe(600 * MS);
    expect(c.metrics.has('effective_latency')).toBe(false);
    const m = findMetric(s, 'effective_latency');
    expect(m?.kind === 'distribution' && m.group).toBe('effective');
    expect(m?.kind === 'distribution' && m.stats.max).toBe(1000 * MS);
    const order = defaultRegistry()
      .declarationOrder()
      .map((d) => d.tag);
    expect(order.indexOf('effective_latency')).toBe(order.indexOf('request_latency') + 1);
  });

  it('console: Effective and Active tables first, then the LLM metrics', () => {
    const out = renderConsole(s);
    const pos = ['Effective Metrics', 'Active Metrics', 'LLM Metrics'].map((t) => out.indexOf(t));
    expect(pos[0]).toBe(out.indexOf('Effective'));
    expect(pos[0]).toBeLessThan(pos[1]);
    expect(pos[1]).toBeLessThan(out.indexOf('Time to First Token'));
    const effective = out.slice(pos[0], pos[1]);
    expect(effective).toContain('Effective Latency (ms)');
    expect(effective).toContain('Tokens In Flight (tokens)');
    expect(effective).toMatch(/Effective Prefill Throughput \(tokens\/s\)\s*│\s*300\.00/);
    // The Active table has no min or std: no row fills them.
    const active = out.slice(pos[1], out.indexOf('LLM Metrics', pos[1]));
    const header = active.split('\n').find((l) => l.includes('Metric') && l.includes('avg'))!;
    expect(
      header
        .split('│')
        .map((x) => x.trim())
        .filter(Boolean),
    ).toEqual(['Metric', 'avg', 'max', 'p99', 'p90', 'p50']);
  });

  it('JSON: {unit, avg, p50, p90, p95, p99, max} in display units', () => {
    const j = buildProfileExport(s, { config: {}, run: { start_ns: null, end_ns: null, wall_anchor: null } });
    expect(Object.keys(j.metrics.active_prefill_throughput)).toEqual(['unit', 'avg', 'p50', 'p90', 'p95', 'p99', 'max']);
    expect(j.metrics.effective_prefill_concurrency).toMatchObject({ unit: 'requests', p50: 0, p90: 1, max: 1 });
  });
});

describe('Effective metrics: the window and when there is no value', () => {
  it('the window starts at the first credit, not the first request', () => {
    // Issued at 0, sent at 500 ms, last content at 1000 ms: in flight half the window.
    const s = summarize([rec({ start: at(500), tokens: [100, 500], end: 600, input: 10, output: 2 }, 500)]);
    expect(tw(s, 'effective_concurrency').avg).toBeCloseTo(0.5, 12);
    expect(tw(s, 'effective_concurrency').p50).toBe(0);
  });

  it('ignores warmup and cancelled requests', () => {
    const warm = processed({ start: at(-5000), tokens: [10], end: 100 }, { phase: 'warmup' });
    const cancelled = rec({ start: at(2000), tokens: [10], end: 3000 }, 0, 'cancelled');
    const s = summarize([warm, rec({ start: at(0), tokens: [100, 200], end: 1000, input: 10, output: 2 }), cancelled]);
    expect(tw(s, 'effective_concurrency')).toMatchObject({ avg: 1, p50: 1, max: 1 });
  });

  it('no requests, only errors, or a zero-length window: no value', () => {
    const none = (s: MetricsSummary) => TW_TAGS.filter((t) => findMetric(s, t) !== undefined);
    expect(none(summarize([]))).toEqual([]);
    expect(none(summarize([rec({ start: at(0), tokens: [], end: 10 }, 0, 'error')]))).toEqual([]);
    expect(none(summarize([rec({ start: at(0), tokens: [], end: 0, streaming: false })]))).toEqual([]);
  });

  it('without a first token (non-streaming) only effective_concurrency has a value', () => {
    const s = summarize([rec({ start: at(0), tokens: [], end: 1000, streaming: false, input: 10, output: 5 })]);
    expect(TW_TAGS.filter((t) => findMetric(s, t) !== undefined)).toEqual(['effective_concurrency']);
    expect(findMetric(s, 'effective_latency')?.kind).toBe('distribution');
  });

  it('without input token counts the prefill throughputs have no value, decode ones do', () => {
    const s = summarize([rec({ start: at(0), tokens: [100, 1000], end: 1100, input: null, output: 3 })]);
    expect(findMetric(s, 'effective_prefill_throughput')).toBeUndefined();
    expect(findMetric(s, 'active_prefill_throughput_per_user')).toBeUndefined();
    expect(findMetric(s, 'tokens_in_flight')).toBeUndefined();
    expect(tw(s, 'effective_decode_throughput').avg).toBeCloseTo(2 / 1, 9);
    expect(tw(s, 'effective_prefill_concurrency').avg).toBeCloseTo(0.1, 12);
  });

  it('an Active metric whose phase never ran has no value', () => {
    // First token at the start: zero-length prefill, so prefill is never active.
    const s = summarize([rec({ start: at(0), tokens: [0, 1000], end: 1200, input: 10, output: 3 })]);
    expect(findMetric(s, 'active_prefill_throughput')).toBeUndefined();
    expect(tw(s, 'effective_prefill_throughput')).toMatchObject({ avg: 0, max: 0 });
    expect(tw(s, 'active_decode_throughput').avg).toBeCloseTo(2, 9);
  });
});

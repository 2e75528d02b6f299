import { describe, expect, it } from 'vitest';
import { computeRecordMetrics } from '../../../src/metrics/record-metrics.js';
import { diffNs, gapsNs } from '../../../src/metrics/core/helpers.js';
import { metricRecord, MS } from './fixtures.js';

// Reference record: four content chunks at 50, 60, 75, 90 ms, last byte at 100 ms (the usage
// chunk and [DONE] after the last content), ISL 200, 10 output tokens, no reasoning.
// request_latency ends at the last content chunk (90 ms), not the last byte.
const base = { tokens: [50, 60, 75, 90], end: 100, input: 200, output: 10 };

describe('per-record metrics on a streaming record', () => {
  const m = computeRecordMetrics(metricRecord(base));

  it('times from the request start and between chunks', () => {
    expect(m.get('time_to_first_token')).toBe(50 * MS);
    expect(m.get('time_to_second_token')).toBe(10 * MS);
    expect(m.get('time_to_first_output_token')).toBe(50 * MS);
    expect(m.get('request_latency')).toBe(90 * MS);
    expect(m.get('decode_duration')).toBe(40 * MS);
    expect(m.get('inter_chunk_latency')).toEqual([10 * MS, 15 * MS, 15 * MS]);
  });

  it('ITL = (latency − TTFT) / (OSL − 1), and per-user throughput is its inverse in seconds', () => {
    expect(m.get('inter_token_latency')).toBeCloseTo((40 * MS) / 9, 6);
    expect(m.get('output_token_throughput_per_user')).toBeCloseTo(225, 9);
  });

  it('prefill and end-to-end throughput', () => {
    expect(m.get('prefill_throughput_per_user')).toBeCloseTo(200 / 0.05, 9);
    expect(m.get('e2e_output_token_throughput')).toBeCloseTo(10 / 0.09, 9);
  });

  it('token counts', () => {
    expect(m.get('input_sequence_length')).toBe(200);
    expect(m.get('output_token_count')).toBe(10);
    expect(m.get('output_sequence_length')).toBe(10);
    expect(m.has('reasoning_token_count')).toBe(false);
  });

  it('is produced in dependency order', () => {
    const tags = [...m.keys()];
    expect(tags.indexOf('request_latency')).toBeLessThan(tags.indexOf('decode_duration'));
    expect(tags.indexOf('output_sequence_length')).toBeLessThan(tags.indexOf('inter_token_latency'));
    expect(tags.indexOf('inter_token_latency')).toBeLessThan(tags.indexOf('output_token_throughput_per_user'));
  });
});

describe('edge cases yield no value, never 0', () => {
  it('OSL 1: no ITL and no per-user output throughput, but TTFT and decode duration', () => {
    const m = computeRecordMetrics(metricRecord({ tokens: [40], end: 45, output: 1 }));
    expect(m.get('time_to_first_token')).toBe(40 * MS);
    // One content response: the latency ends at it, so nothing is left to decode.
    expect(m.get('request_latency')).toBe(40 * MS);
    expect(m.get('decode_duration')).toBe(0);
    expect(m.has('inter_token_latency')).toBe(false);
    expect(m.has('output_token_throughput_per_user')).toBe(false);
    // One chunk: nothing to measure between chunks either.
    expect(m.has('time_to_second_token')).toBe(false);
    expect(m.has('inter_chunk_latency')).toBe(false);
  });

  it('non-streaming: no streaming metrics, but latency, counts and e2e throughput', () => {
    const m = computeRecordMetrics(metricRecord({ ...base, streaming: false, tokens: [], end: 200 }));
    for (const tag of [
      'time_to_first_token',
      'time_to_second_token',
      'time_to_first_output_token',
      'decode_duration',
      'inter_token_latency',
      'inter_chunk_latency',
      'output_token_throughput_per_user',
      'prefill_throughput_per_user',
    ]) {
      expect(m.has(tag), tag).toBe(false);
    }
    expect(m.get('request_latency')).toBe(200 * MS);
    expect(m.get('output_sequence_length')).toBe(10);
    expect(m.get('e2e_output_token_throughput')).toBeCloseTo(50, 9);
  });

  it('non-streaming ignores stamps even if present', () => {
    const m = computeRecordMetrics(metricRecord({ ...base, streaming: false }));
    expect(m.has('time_to_first_token')).toBe(false);
  });

  it('reasoning-only response: TTFT but no TTFO; OSL counts reasoning', () => {
    const m = computeRecordMetrics(metricRecord({ tokens: [30, 40, 50], firstOutput: null, end: 60, output: 0, reasoning: 5 }));
    expect(m.get('time_to_first_token')).toBe(30 * MS);
    expect(m.has('time_to_first_output_token')).toBe(false);
    expect(m.get('reasoning_token_count')).toBe(5);
    expect(m.get('output_token_count')).toBe(0);
    expect(m.get('output_sequence_length')).toBe(5);
    // (50 − 30) ms over 4 gaps: the latency ends at the last (reasoning) chunk.
    expect(m.get('inter_token_latency')).toBeCloseTo(5 * MS, 6);
  });

  it('reasoning then content: TTFO is the first content chunk, after TTFT', () => {
    const m = computeRecordMetrics(metricRecord({ tokens: [20, 30, 70, 80], firstOutput: 70, end: 90, output: 2, reasoning: 2 }));
    expect(m.get('time_to_first_token')).toBe(20 * MS);
    expect(m.get('time_to_first_output_token')).toBe(70 * MS);
    expect(m.get('output_sequence_length')).toBe(4);
  });

  it('a streaming response with no content: no TTFT, no request latency, nothing that needs them', () => {
    const m = computeRecordMetrics(metricRecord({ tokens: [], end: 30, output: 0 }));
    expect(m.has('time_to_first_token')).toBe(false);
    expect(m.has('decode_duration')).toBe(false);
    expect(m.has('inter_token_latency')).toBe(false);
    expect(m.has('prefill_throughput_per_user')).toBe(false);
    // The reference's content_responses[-1] does not exist: no value, not the last byte.
    expect(m.has('request_latency')).toBe(false);
    expect(m.has('effective_latency')).toBe(false);
    expect(m.get('output_sequence_length')).toBe(0);
  });

  it('unknown counts: no ISL, OSL, or anything derived from them', () => {
    const m = computeRecordMetrics(metricRecord({ ...base, input: null, output: null, reasoning: null }));
    for (const tag of [
      'input_sequence_length',
      'output_token_count',
      'output_sequence_length',
      'inter_token_latency',
      'output_token_throughput_per_user',
      'prefill_throughput_per_user',
      'e2e_output_token_throughput',
    ]) {
      expect(m.has(tag), tag).toBe(false);
    }
    expect(m.get('time_to_first_token')).toBe(50 * MS);
  });

  it('OSL is known when only the reasoning count is', () => {
    const m = computeRecordMetrics(metricRecord({ ...base, output: null, reasoning: 7 }));
    expect(m.get('output_sequence_length')).toBe(7);
    expect(m.has('output_token_count')).toBe(false);
  });

  it('zero ITL (everything at the last instant) has no finite per-user rate', () => {
    const m = computeRecordMetrics(metricRecord({ tokens: [100], end: 100, output: 5 }));
    expect(m.get('inter_token_latency')).toBe(0);
    expect(m.has('output_token_throughput_per_user')).toBe(false);
  });

  it('zero latency has no e2e throughput', () => {
    const m = computeRecordMetrics(metricRecord({ tokens: [], end: 0, streaming: false }));
    expect(m.get('request_latency')).toBe(0);
    expect(m.has('e2e_output_token_throughput')).toBe(false);
  });

  it('an invalid (error) record gets none of the success metrics', () => {
    const m = computeRecordMetrics(metricRecord({ ...base, valid: false }));
    // Only the ERROR_ONLY metrics (error_isl) are computed for it.
    expect([...m.keys()]).toEqual(['error_isl']);
  });
});

describe('token stamps as a typed column', () => {
  it('gapsNs of a BigInt64Array equals diffNs of each pair, across 32-bit word boundaries, signs and offsets', () => {
    let seed = 99;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const starts = [0n, -(2n ** 40n), 2n ** 32n - 5n, 2n ** 62n, -(2n ** 63n) + 1n, 10n ** 15n];
    for (const start of starts) {
      let t = start;
      const stamps = [t];
      // Gaps from 0 to ~2^45 ns, some negative (out-of-order stamps are not assumed away).
      for (let i = 0; i < 300; i++) stamps.push((t += BigInt(Math.floor((rnd() - 0.05) * 2 ** (rnd() * 45)))));
      const want = stamps.slice(1).map((s, i) => diffNs(s, stamps[i]));
      const col = BigInt64Array.from(stamps);
      expect(gapsNs(col)).toEqual(want);
      expect(gapsNs(stamps)).toEqual(want);
      // A view into a larger buffer (a column cut out of a batch).
      const big = new BigInt64Array(stamps.length + 3);
      big.set(col, 2);
      expect(gapsNs(big.subarray(2, 2 + stamps.length))).toEqual(want);
    }
    expect(gapsNs(new BigInt64Array([5n]))).toEqual([]);
  });

  it('a record with its stamps as a BigInt64Array has the same metrics as with a bigint[]', () => {
    const rec = metricRecord(base);
    const typed = { ...rec, token_ns: BigInt64Array.from(rec.token_ns) };
    expect(computeRecordMetrics(typed)).toEqual(computeRecordMetrics(rec));
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../src/errors.js';
import { defaultRegistry } from '../../../../src/metrics/catalogue.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import {
  goodputTags,
  goodRequestPredicate,
  isGoodRequest,
  parseGoodputSpec,
  resolveSlos,
} from '../../../../src/metrics/families/goodput.js';
import { findMetric, type MetricsSummary } from '../../../../src/metrics/core/summary.js';
import { catalogueProcessed } from '../catalogue-fixtures.js';
import { MS } from '../fixtures.js';

const reg = defaultRegistry();
const single = (s: MetricsSummary, tag: string) => {
  const m = findMetric(s, tag);
  return m?.kind === 'single' ? m.stats.avg : undefined;
};

function parseError(spec: string): string {
  try {
    parseGoodputSpec(spec, reg);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error(`no error for ${spec}`);
}

describe('--goodput parsing', () => {
  it('tag:value pairs separated by spaces or commas, or several flag values', () => {
    expect(parseGoodputSpec('time_to_first_token:200 inter_token_latency:20', reg)).toEqual([
      { tag: 'time_to_first_token', value: 200 },
      { tag: 'inter_token_latency', value: 20 },
    ]);
    expect(parseGoodputSpec(['time_to_first_token:0.5,request_latency:1e3'], reg)).toEqual([
      { tag: 'time_to_first_token', value: 0.5 },
      { tag: 'request_latency', value: 1000 },
    ]);
  });

  it('an unknown tag, a bad number or a malformed pair: one line naming it, with the valid tags', () => {
    for (const [spec, named] of [
      ['time_to_first_tokn:200', "unknown metric tag 'time_to_first_tokn'"],
      ['time_to_first_token:fast', "bad number 'fast'"],
      ['time_to_first_token:-5', "bad number '-5'"],
      ['time_to_first_token:200ms', "bad number '200ms'"],
      ['time_to_first_token=200', "malformed pair 'time_to_first_token=200'"],
      ['time_to_first_token:', "malformed pair 'time_to_first_token:'"],
      ['a:b:c', "malformed pair 'a:b:c'"],
      ['time_to_first_token:1 time_to_first_token:2', "'time_to_first_token' is given twice"],
      ['   ', 'expected at least one TAG:VALUE pair'],
    ]) {
      const msg = parseError(spec);
      expect(msg, spec).toContain(named);
      expect(msg).toMatch(/^--goodput: /);
      expect(msg).not.toContain('\n');
      expect(msg).toContain('valid tags: ');
      expect(msg).toContain('inter_token_latency');
    }
  });

  it('valid tags are the per-request metrics of successful requests', () => {
    const tags = goodputTags(reg);
    expect(tags).toContain('time_to_first_token');
    expect(tags).toContain('output_token_throughput_per_user');
    expect(tags).not.toContain('error_isl');
    expect(tags).not.toContain('request_throughput');
  });
});

describe('isGoodRequest', () => {
  // TTFT 50 ms, latency 90 ms (the last content chunk; the last byte at 100 ms), 10 output tokens →
  // ITL 40/9 ms, per-user 225 tok/s.
  const base = { tokens: [50, 60, 75, 90], end: 100, output: 10 };

  it('thresholds are in display units; smaller-is-better metrics must be ≤, larger-is-better ≥', () => {
    const r = catalogueProcessed(base);
    const ok = (spec: string) => isGoodRequest(r, resolveSlos(parseGoodputSpec(spec, reg), reg));
    expect(ok('time_to_first_token:50')).toBe(true); // exactly at the threshold
    expect(ok('time_to_first_token:49.9')).toBe(false);
    expect(ok('time_to_first_token:60 inter_token_latency:4.5')).toBe(true);
    expect(ok('time_to_first_token:60 inter_token_latency:4.4')).toBe(false);
    expect(ok('output_token_throughput_per_user:220')).toBe(true);
    expect(ok('output_token_throughput_per_user:230')).toBe(false);
    // The latency objective is judged on the latency to the last content chunk, not the last byte.
    expect(ok('request_latency:90')).toBe(true);
    expect(ok('request_latency:89.9')).toBe(false);
    // A list metric meets the SLO only if every element does (ICL 10, 15, 15 ms).
    expect(ok('inter_chunk_latency:15')).toBe(true);
    expect(ok('inter_chunk_latency:12')).toBe(false);
  });

  it('a failed request, or one without a value for an SLO metric, is never good', () => {
    const slos = resolveSlos(parseGoodputSpec('time_to_first_token:1000', reg), reg);
    expect(isGoodRequest(catalogueProcessed(base, {}, { status: 'error' }), slos)).toBe(false);
    expect(isGoodRequest(catalogueProcessed({ ...base, streaming: false }), slos)).toBe(false);
    expect(isGoodRequest(catalogueProcessed(base), [])).toBe(false);
  });

  it("goodRequestPredicate judges records with the config's SLOs", () => {
    const good = goodRequestPredicate(parseGoodputSpec('time_to_first_token:60', reg), reg);
    expect(good(catalogueProcessed(base))).toBe(true);
    expect(good(catalogueProcessed({ ...base, tokens: [70, 80], end: 100 }))).toBe(false);
  });

  it('resolves thresholds into base units', () => {
    expect(resolveSlos([{ tag: 'time_to_first_token', value: 200 }], reg)).toEqual([
      { tag: 'time_to_first_token', threshold: 200 * MS, largerIsBetter: false },
    ]);
  });
});

describe('goodput metrics', () => {
  // TTFTs of 10, 20, 30, 40 ms over a 1 s window, plus one error.
  const records = [10, 20, 30, 40].map((t, i) =>
    catalogueProcessed({ start: 1_000_000_000n + BigInt(i) * 200_000_000n, tokens: [t], end: 50, output: 1 }, {}, { index: i }),
  );
  records.push(catalogueProcessed({ start: 1_000_000_000n, tokens: [], end: 1000 }, {}, { status: 'error', index: 9 }));

  it('count, fraction with errors in the denominator, and goodput per second', () => {
    const s = summarize(records, { metricOptions: { goodput: resolveSlos(parseGoodputSpec('time_to_first_token:25', reg), reg) } });
    expect(single(s, 'good_request_count')).toBe(2);
    expect(single(s, 'good_request_fraction')).toBeCloseTo(2 / 5, 12);
    const duration = single(s, 'benchmark_duration')!;
    expect(single(s, 'goodput')).toBeCloseTo(2 / (duration / 1e9), 9);
    expect(single(s, 'goodput')!).toBeLessThanOrEqual(single(s, 'request_throughput')!);
  });

  it('without SLOs the goodput metrics have no value', () => {
    const s = summarize(records);
    for (const tag of ['good_request_count', 'good_request_fraction', 'goodput']) expect(findMetric(s, tag), tag).toBeUndefined();
  });
});

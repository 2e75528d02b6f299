// MetricHistogram (src/metrics/core/histogram.ts): unit scales, signed values, merge, export, and the
// summary's histograms.json.
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { HistogramDecodeError, InvalidArgumentError } from '../../../../src/errors.js';
import { buildHistogramsJson } from '../../../../src/export/histograms.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { decodeCompressed } from '../../../../src/metrics/core/histogram-codec.js';
import { FRACTIONAL_SCALE, MetricHistogram, histogramScale } from '../../../../src/metrics/core/histogram.js';
import { histogramStats } from '../../../../src/metrics/core/stats.js';
import { MS, processed } from '../fixtures.js';
import { rng } from '../../../helpers/rng.js';

function rank(p: number, n: number): number {
  const fp = (p / 100) * n;
  const ulp = fp > 0 ? 2 ** (Math.floor(Math.log2(fp)) - 52) : 0;
  return Math.max(Math.ceil(fp - ulp), 1);
}

const PS = [0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100];

describe('MetricHistogram scale', () => {
  it('is 1 for whole-number units and 1e6 for fractional ones', () => {
    expect(histogramScale('ns')).toBe(1);
    expect(histogramScale('tokens')).toBe(1);
    expect(histogramScale('requests')).toBe(1);
    expect(histogramScale('tokens/s')).toBe(FRACTIONAL_SCALE);
    expect(histogramScale('tokens/s/user')).toBe(1e6);
    expect(histogramScale('percent')).toBe(1e6);
    expect(histogramScale('ratio')).toBe(1e6);
  });

  it('keeps fractional rates within 0.1 % of exact nearest rank at the default 3 digits', () => {
    // Per-user throughputs from 0.001 to ~10^4 tok/s (lognormal, wide).
    const r = rng(11);
    const values = Array.from({ length: 20_000 }, () =>
      Math.exp(Math.log(50) + 2.5 * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())),
    );
    values.push(0.001);
    const h = new MetricHistogram('tokens/s/user');
    for (const v of values) h.add(v);
    const sorted = [...values].sort((a, b) => a - b);
    const got = h.percentiles(PS);
    PS.forEach((p, i) => {
      const exact = sorted[rank(p, sorted.length) - 1];
      expect(Math.abs(got[i] - exact) / exact).toBeLessThanOrEqual(1e-3);
    });
    const m = h.moments()!;
    expect(m.min).toBe(0.001);
    expect(m.max).toBe(sorted[sorted.length - 1]);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(Math.abs(m.avg - mean) / mean).toBeLessThan(1e-12);
  });
});

describe('MetricHistogram signed values', () => {
  // osl_mismatch_diff_pct is negative when a request stops early.
  const values = [-50, -12.5, -12.5, 0, 3, 7.25, 100, -0.5, 40, 12];
  const h = new MetricHistogram('percent');
  for (const v of values) h.add(v);
  const sorted = [...values].sort((a, b) => a - b);

  it('keeps exact moments across the sign', () => {
    const m = h.moments()!;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const std = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
    expect(m.count).toBe(10);
    expect(m.min).toBe(-50);
    expect(m.max).toBe(100);
    expect(m.avg).toBeCloseTo(mean, 12);
    expect(m.std).toBeCloseTo(std, 9);
    expect(h.sum).toBeCloseTo(mean * values.length, 9);
    expect(h.clamped).toBe(0);
  });

  it('gives the nearest-rank value at every percentile, negatives included', () => {
    // Scaled by 1e6 every value here sits in a bucket narrower than 10^-3 of it.
    const got = h.percentiles(PS);
    PS.forEach((p, i) => {
      const exact = sorted[rank(p, sorted.length) - 1];
      expect(Math.abs(got[i] - exact)).toBeLessThanOrEqual(Math.abs(exact) * 1e-3);
    });
    expect(got[0]).toBe(-50);
    expect(got[PS.indexOf(100)]).toBe(100);
    expect(h.percentiles([50])[0]).toBe(0); // rank 5 of 10: -0.5 is 4th, 0 is 5th
  });

  it('exports the negative side separately and reads it back', () => {
    const e = h.toExport();
    expect(e.encoded_negative).toBeDefined();
    const back = MetricHistogram.fromExport(e);
    expect(back.count).toBe(10);
    // Decoded, its range is the buckets' (within 10^-3), no longer the exact min and max.
    const [want, got] = [h.percentiles([0, 50, 100]), back.percentiles([0, 50, 100])];
    want.forEach((w, i) => expect(Math.abs(got[i] - w)).toBeLessThanOrEqual(Math.abs(w) * 1e-3));
  });
});

describe('MetricHistogram values it cannot record', () => {
  it('leaves out NaN, infinities and values at or beyond 2^62 once scaled, counting them, and records the rest', () => {
    const h = new MetricHistogram('tokens/s'); // scale 1e6: 2^62 / 1e6 ≈ 4.6e12 is the largest recordable
    for (const v of [5, NaN, Infinity, -Infinity, 1e300, -1e300, 5e12, 7]) h.add(v);
    h.addWeighted(1e20, 3);
    expect(h.skipped).toBe(7);
    expect(h.count).toBe(2);
    expect(h.moments()).toMatchObject({ min: 5, max: 7 });
  });

  it('addAll records the recordable values of a column that holds bad ones', () => {
    const h = new MetricHistogram('ns');
    h.addAll(Float64Array.from([1, 2 ** 62, 3, NaN, 2 ** 61]));
    expect(h.skipped).toBe(2);
    expect(h.count).toBe(3);
    expect(h.moments()!.max).toBe(2 ** 61);
  });
});

describe('MetricHistogram merge, export and checks', () => {
  const gen = {
    ns: (r: () => number) => Math.round(1e6 + r() * 9e7),
    'tokens/s': (r: () => number) => r() * 300 + 0.001,
    percent: (r: () => number) => r() * 200 - 100,
  };
  function filled(seed: number, n: number, unit: keyof typeof gen = 'ns'): { h: MetricHistogram; values: number[] } {
    const r = rng(seed);
    const values = Array.from({ length: n }, () => gen[unit](r));
    const h = new MetricHistogram(unit);
    for (const v of values) h.add(v);
    return { h, values };
  }

  it('merging two equals one histogram of all the values', () => {
    for (const unit of ['ns', 'tokens/s', 'percent'] as const) {
      const a = filled(1, 5000, unit);
      const b = filled(2, 9000, unit);
      const all = new MetricHistogram(unit);
      for (const v of [...a.values, ...b.values]) all.add(v);
      a.h.merge(b.h);
      expect(a.h.percentiles(PS)).toEqual(all.percentiles(PS));
      expect(a.h.toExport()).toEqual(all.toExport());
      const [ma, mall] = [a.h.moments()!, all.moments()!];
      expect([ma.count, ma.min, ma.max]).toEqual([mall.count, mall.min, mall.max]);
      expect(ma.avg).toBeCloseTo(mall.avg, 9);
    }
  });

  it('exports HdrHistogram compressed base64 that hdr-histogram-js reads, in scaled units', () => {
    const { h, values } = filled(3, 2000, 'tokens/s');
    const e = h.toExport();
    expect(e).toMatchObject({ unit: 'tokens/s', scale: 1e6 });
    const js = hdr.decodeFromCompressedBase64(e.encoded);
    expect(js.totalCount).toBe(values.length);
    expect(js.getValueAtPercentile(50) / e.scale).toBeCloseTo(h.percentiles([50])[0], 3);
  });

  it('refuses bad input with the project error classes', () => {
    const h = new MetricHistogram('ns');
    expect(() => h.percentiles([101])).toThrow(InvalidArgumentError);
    expect(() => new MetricHistogram('ns', { significantDigits: 0 })).toThrow(InvalidArgumentError);
    expect(() => new MetricHistogram('ns', { scale: -1 })).toThrow(InvalidArgumentError);
    expect(() => h.merge(new MetricHistogram('tokens/s'))).toThrow(/cannot merge/);
    expect(() => h.merge(new MetricHistogram('ns', { significantDigits: 4 }))).toThrow(/cannot merge/);
    for (const bad of ['', 'not base64!', 'AAAAAAAAAAAA', 'HISTFAAAACh4nJNpmSzMwMDAwQABzFCaEUzOmgEhAC0rAdw=']) {
      let err: unknown;
      try {
        decodeCompressed(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(HistogramDecodeError);
      expect((err as HistogramDecodeError).code).toBe('SB_HDR_DECODE');
    }
  });

  it('reset empties both sides', () => {
    const h = new MetricHistogram('percent');
    h.add(-3);
    h.add(4);
    h.reset();
    expect([h.count, h.moments(), h.percentiles([50])]).toEqual([0, undefined, []]);
  });

  it('histogramStats is undefined when empty, and the summary statistics otherwise', () => {
    const h = new MetricHistogram('ns');
    expect(histogramStats(h)).toBeUndefined();
    for (const v of [30, 10, 20]) h.add(v * MS);
    const s = histogramStats(h)!;
    expect([s.count, s.avg, s.min, s.max]).toEqual([3, 20 * MS, 10 * MS, 30 * MS]);
    expect(s.p50).toBe(20_004_863); // 20 ms in the 16384-ns bucket starting 19 988 480: its top
  });
});

describe('histograms.json from a summary', () => {
  const T0 = 10_000_000_000n;
  const at = (ms: number) => T0 + BigInt(ms * MS);
  const recs = [
    processed({ start: at(0), tokens: [40, 50, 60], end: 100, input: 100, output: 10 }, { index: 1 }),
    processed({ start: at(100), tokens: [60, 80], end: 200, input: 100, output: 20 }, { index: 2 }),
  ];

  it('holds every distribution that has values, at the summary precision, decodable to the same counts', () => {
    const s = summarize(recs, { significantDigits: 4 });
    const doc = buildHistogramsJson(s)!;
    expect(doc.significant_digits).toBe(4);
    expect(Object.keys(doc.metrics)).toEqual(expect.arrayContaining(['time_to_first_token', 'request_latency', 'inter_chunk_latency']));
    expect(doc.metrics.reasoning_token_count).toBeUndefined();
    for (const m of s.metrics) {
      if (m.kind !== 'distribution') continue;
      const e = doc.metrics[m.tag];
      expect(e, m.tag).toBeDefined();
      const back = MetricHistogram.fromExport(e);
      expect(back.count).toBe(m.stats.count);
      expect(back.significantDigits).toBe(4);
      expect(e.scale).toBe(histogramScale(m.unit));
    }
  });

  it('is absent for a summary built by hand', () => {
    expect(buildHistogramsJson({ metrics: [], counts: { issued: 0, succeeded: 0, errored: 0, cancelled: 0 } })).toBeNull();
  });
});

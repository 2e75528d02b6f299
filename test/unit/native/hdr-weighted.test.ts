// The native histogram's weighted recording and mode (native/hdr/hdr.h: RecordWeighted, Mode).
import { describe, expect, it } from 'vitest';
import { native } from '../../../src/native.js';

const { Histogram } = native;

describe('recordWeighted', () => {
  it('equals recording each value weight times: same counts, statistics and encoding', () => {
    const values = [12_345, 3, 987_654_321, 3, 50_000];
    const weights = [4, 1, 2, 0, 7];
    const a = new Histogram(3);
    a.recordWeighted(Float64Array.from(values), Float64Array.from(weights));
    const b = new Histogram(3);
    b.recordValues(Float64Array.from(values.flatMap((v, i) => Array<number>(weights[i]).fill(v))));
    expect(a.count).toBe(14);
    expect([a.count, a.min, a.max, a.sum]).toEqual([b.count, b.min, b.max, b.sum]);
    expect(a.mean).toBeCloseTo(b.mean, 6);
    expect(a.std).toBeCloseTo(b.std, 3);
    const ps = Float64Array.from([0, 1, 25, 50, 75, 99, 100]);
    expect(Array.from(a.valuesAtPercentiles(ps))).toEqual(Array.from(b.valuesAtPercentiles(ps)));
    expect(a.encode().equals(b.encode())).toBe(true);
  });
  it('scales, and clamps negative values to 0 counting them weight times', () => {
    const h = new Histogram(3);
    h.recordWeighted(Float64Array.from([-1, 0.5]), Float64Array.from([3, 2]), 10);
    expect(h.count).toBe(5);
    expect(h.clamped).toBe(3);
    expect(h.max).toBe(5);
  });
  it('all or nothing: a bad weight or value records nothing and says which entry', () => {
    const h = new Histogram(3);
    h.recordValues(Float64Array.from([7]));
    for (const [values, weights] of [
      [
        [1, 2],
        [1, 1.5],
      ],
      [
        [1, 2],
        [1, -1],
      ],
      [
        [1, NaN],
        [1, 1],
      ],
      [
        [1, 2],
        [1, Infinity],
      ],
    ]) {
      expect(() => h.recordWeighted(Float64Array.from(values), Float64Array.from(weights))).toThrow(/entry 1/);
    }
    expect(h.count).toBe(1);
    expect(() => h.recordWeighted(Float64Array.from([1]), Float64Array.from([1, 2]))).toThrow(/same length/);
    expect(() => h.recordWeighted([1] as unknown as Float64Array, Float64Array.from([1]))).toThrow(TypeError);
  });
});

describe('mode', () => {
  it('the most populated bucket, lowest on a tie, {0, 0} when empty', () => {
    const h = new Histogram(3);
    expect(h.mode()).toEqual({ value: 0, count: 0 });
    h.recordValues(Float64Array.from([5, 9, 9, 5, 1]));
    expect(h.mode()).toEqual({ value: 5, count: 2 });
    h.recordWeighted(Float64Array.from([1_000_000]), Float64Array.from([3]));
    const m = h.mode();
    expect(m.count).toBe(3);
    // A 512-wide bucket at 3 digits; its middle, clamped to the exact max.
    expect(m.value).toBe(1_000_000);
  });
});

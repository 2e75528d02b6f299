// The special functions behind the confidence intervals, against published table values.
import { describe, expect, it } from 'vitest';
import {
  binomialCdf,
  incompleteBeta,
  lnGamma,
  normalCdf,
  normalQuantile,
  studentTCdf,
  studentTQuantile,
} from '../../../../src/metrics/core/special.js';

describe('lnGamma', () => {
  it('matches factorials and Γ(1/2) = √π', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 13);
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    // ln(100!) = 363.73937555556347
    expect(lnGamma(101)).toBeCloseTo(363.73937555556347, 9);
  });
});

describe('normal distribution', () => {
  it('CDF at table points', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 13);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 13);
    // Far tail keeps its relative precision.
    expect(normalCdf(-10) / 7.61985302416047e-24).toBeCloseTo(1, 9);
  });
  it('quantiles: 1.959964 at 0.975, 2.575829 at 0.995, symmetric', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489, 11);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959963984540054, 12);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 9);
  });
  it('refuses p outside (0, 1)', () => {
    expect(() => normalQuantile(0)).toThrow(RangeError);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe("Student's t quantiles against table values", () => {
  // Two-sided 95 % (p = 0.975), from any t table.
  const t975: [number, number][] = [
    [1, 12.7062],
    [2, 4.3027],
    [3, 3.1824],
    [4, 2.7764],
    [5, 2.5706],
    [9, 2.2622],
    [10, 2.2281],
    [20, 2.086],
    [30, 2.0423],
    [60, 2.0003],
    [120, 1.9799],
  ];
  it.each(t975)('t(0.975, %i) = %f', (df, t) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(t, 4);
  });
  it('other levels: t(0.95, 9) = 1.8331, t(0.995, 4) = 4.6041, t(0.9995, 3) = 12.9240, t(0.9, 1000) ≈ 1.2824', () => {
    expect(studentTQuantile(0.95, 9)).toBeCloseTo(1.8331, 4);
    expect(studentTQuantile(0.995, 4)).toBeCloseTo(4.6041, 4);
    expect(studentTQuantile(0.9995, 3)).toBeCloseTo(12.924, 3);
    expect(studentTQuantile(0.9, 1000)).toBeCloseTo(1.2824, 4);
  });
  it('is symmetric and tends to the normal quantile', () => {
    expect(studentTQuantile(0.025, 7)).toBeCloseTo(-studentTQuantile(0.975, 7), 12);
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959963984540054, 5);
  });
  it('inverts the CDF', () => {
    for (const df of [3, 7.5, 25]) {
      for (const p of [0.6, 0.9, 0.975, 0.999]) expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 12);
    }
  });
});

describe('binomial CDF and incomplete beta', () => {
  it('matches direct sums', () => {
    // B(10, 0.3): P(B ≤ 3) = 0.6496107184
    expect(binomialCdf(3, 10, 0.3)).toBeCloseTo(0.6496107184, 10);
    expect(binomialCdf(0, 72, 0.05)).toBeCloseTo(0.95 ** 72, 14);
    expect(binomialCdf(-1, 5, 0.5)).toBe(0);
    expect(binomialCdf(5, 5, 0.5)).toBe(1);
    expect(incompleteBeta(0.5, 2, 2)).toBeCloseTo(0.5, 14);
  });
});

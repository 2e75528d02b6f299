import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/model/rng.js';
import { ListSchedule, pace, type PaceBounds, RateSchedule, gammaSample, timeForCount, unitGap } from '../../../src/load/pacer.js';
import { concurrencyAt, slotOpensAtNs } from '../../../src/load/ramp.js';
import type { ArrivalSpec } from '../../../src/load/types.js';

const MS = 1e6;
const spec = (over: Partial<ArrivalSpec> = {}): ArrivalSpec => ({
  pattern: 'constant',
  rate: 1000,
  smoothness: 1,
  rampNs: null,
  seed: 1,
  ...over,
});
const noBounds: PaceBounds = { count: null, durationNs: null };

function gaps(pattern: ArrivalSpec['pattern'], smoothness: number, n: number, seed = 7): number[] {
  const s = new RateSchedule(spec({ pattern, smoothness, rate: 100, seed }));
  const out: number[] = [];
  let prev = s.targetNs(0);
  for (let i = 1; i <= n; i++) {
    const t = s.targetNs(i);
    out.push(t - prev);
    prev = t;
  }
  return out;
}

function cv(xs: number[]): { mean: number; cv: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
  return { mean, cv: sd / mean };
}

describe('pace(): a table of moments for a constant 1000 req/s schedule', () => {
  const s = new RateSchedule(spec());
  it.each([
    // elapsed, sent, bounds, decision
    ['first request at the start', 0, 0, noBounds, { action: 'send' }],
    ['second request waits its 1 ms', 0, 1, noBounds, { action: 'wait', ns: 1 * MS }],
    ['half way to the second', 0.5 * MS, 1, noBounds, { action: 'wait', ns: 0.5 * MS }],
    ['exactly on time', 1 * MS, 1, noBounds, { action: 'send' }],
    ['late by 0.5 ms: send now', 1.5 * MS, 1, noBounds, { action: 'send' }],
    ['count reached', 1.5 * MS, 3, { count: 3, durationNs: null }, { action: 'stop' }],
    ['count not yet reached', 2 * MS, 2, { count: 3, durationNs: null }, { action: 'send' }],
    ['next target inside the duration', 2 * MS, 2, { count: null, durationNs: 2.5 * MS }, { action: 'send' }],
    ['next target at or past the duration: never scheduled', 2 * MS, 3, { count: null, durationNs: 2.5 * MS }, { action: 'stop' }],
    ['a target exactly at the duration is past it', 0, 2, { count: null, durationNs: 2 * MS }, { action: 'stop' }],
  ] as const)('%s', (_name, elapsed, sent, bounds, decision) => {
    expect(pace(s, elapsed, sent, bounds)).toEqual(decision);
  });

  it('catches up after a stall: every overdue request is sent at once, none skipped, targets unchanged', () => {
    const sched = new RateSchedule(spec());
    // The loop stalled until 10.2 ms with 3 sent: requests 3..10 are all due.
    let sent = 3;
    const decisions: string[] = [];
    for (;;) {
      const d = pace(sched, 10.2 * MS, sent, noBounds);
      decisions.push(d.action);
      if (d.action !== 'send') {
        expect(d).toEqual({ action: 'wait', ns: expect.closeTo(0.8 * MS, 3) });
        break;
      }
      sent++;
    }
    expect(decisions.filter((a) => a === 'send')).toHaveLength(8);
    expect(sent).toBe(11);
    // The planned times of the late requests stay what they were.
    for (let i = 0; i <= 11; i++) expect(sched.targetNs(i)).toBe(i * MS);
  });
});

describe('pace(): the same table over random schedules', () => {
  it.each(['poisson', 'gamma'] as const)('%s: send at each (seeded) target, wait in between, stop at the bounds', (pattern) => {
    const s = new RateSchedule(spec({ pattern, smoothness: 4, seed: 9 }));
    const t1 = s.targetNs(1);
    const t2 = s.targetNs(2);
    expect(t1).toBeGreaterThan(0);
    expect(t2).toBeGreaterThan(t1);
    expect(pace(s, 0, 0, noBounds)).toEqual({ action: 'send' });
    expect(pace(s, 0, 1, noBounds)).toEqual({ action: 'wait', ns: t1 });
    expect(pace(s, t1, 1, noBounds)).toEqual({ action: 'send' });
    expect(pace(s, t1, 2, noBounds)).toEqual({ action: 'wait', ns: t2 - t1 });
    // After a stall past both targets, both go at once.
    expect(pace(s, t2 + 1, 1, noBounds)).toEqual({ action: 'send' });
    expect(pace(s, t2 + 1, 2, noBounds)).toEqual({ action: 'send' });
    expect(pace(s, t2 + 1, 2, { count: 2, durationNs: null })).toEqual({ action: 'stop' });
    expect(pace(s, 0, 2, { count: null, durationNs: t2 })).toEqual({ action: 'stop' });
  });
});

describe('schedules', () => {
  it('constant: request i at i / rate, from the phase start', () => {
    const s = new RateSchedule(spec({ rate: 250 }));
    expect([0, 1, 2, 1000].map((i) => s.targetNs(i))).toEqual([0, 4 * MS, 8 * MS, 4000 * MS]);
  });

  it('asking for an earlier index replays the same stream', () => {
    const s = new RateSchedule(spec({ pattern: 'poisson', seed: 3 }));
    const a = [5, 6, 7].map((i) => s.targetNs(i));
    s.targetNs(5000);
    expect([5, 6, 7].map((i) => s.targetNs(i))).toEqual(a);
  });

  it('poisson and gamma are seeded: same seed, same schedule; another seed, another', () => {
    for (const pattern of ['poisson', 'gamma'] as const) {
      const a = new RateSchedule(spec({ pattern, smoothness: 3, seed: 'x' }));
      const b = new RateSchedule(spec({ pattern, smoothness: 3, seed: 'x' }));
      const c = new RateSchedule(spec({ pattern, smoothness: 3, seed: 'y' }));
      expect(a.targetNs(100)).toBe(b.targetNs(100));
      expect(a.targetNs(100)).not.toBe(c.targetNs(100));
      expect(a.targetNs(0)).toBe(0);
    }
  });

  it.each([
    // rate 1000/s ramped from 0 over 1 s: N(t) = 500 t² (t in s) during the ramp, 1000 t − 500 after
    ['first request at the start', 0, 0],
    ['request 1 at sqrt(2 T / R)', 1, Math.sqrt((2 * 1e9 * 1) / 1e-6)],
    ['request 125 half way through the ramp', 125, 0.5e9],
    ['request 500 when the ramp ends', 500, 1e9],
    ['then 1 ms apart', 501, 1e9 + 1 * MS],
    ['request 1500 one second later', 1500, 2e9],
  ])('linear rate ramp: %s', (_name, i, expected) => {
    const s = new RateSchedule(spec({ rampNs: 1e9 }));
    expect(s.targetNs(i)).toBeCloseTo(expected, 0);
    expect(timeForCount(i, 1000, 1e9)).toBeCloseTo(expected, 0);
  });

  it('a list schedule (trace replay) is its offsets, and nothing past its end', () => {
    const s = new ListSchedule([0, 5 * MS, 5 * MS, 9 * MS]);
    expect(pace(s, 5 * MS, 1, { count: 4, durationNs: null })).toEqual({ action: 'send' });
    expect(pace(s, 5 * MS, 2, { count: 4, durationNs: null })).toEqual({ action: 'send' });
    expect(pace(s, 5 * MS, 3, { count: 4, durationNs: null })).toEqual({ action: 'wait', ns: 4 * MS });
    expect(pace(s, 50 * MS, 4, { count: 4, durationNs: null })).toEqual({ action: 'stop' });
    expect(pace(s, 0, 3, { count: 4, durationNs: 8 * MS })).toEqual({ action: 'stop' });
  });

  it('rejects a rate of 0 and a non-positive smoothness', () => {
    expect(() => new RateSchedule(spec({ rate: 0 }))).toThrow(RangeError);
    expect(() => new RateSchedule(spec({ pattern: 'gamma', smoothness: 0 }))).toThrow(RangeError);
  });
});

describe('the concurrency cap and its ramp', () => {
  it.each([
    // elapsed, target, ramp → allowed in flight
    [0, 8, null, 8],
    [0, 8, 1e9, 1],
    [0.124e9, 8, 1e9, 1],
    [0.125e9, 8, 1e9, 2],
    [0.5e9, 8, 1e9, 5],
    [0.999e9, 8, 1e9, 8],
    [1e9, 8, 1e9, 8],
    [5e9, 8, 1e9, 8],
    [0.3e9, 1, 1e9, 1],
  ])('concurrencyAt(%d, %d, %s) = %d', (elapsed, target, ramp, allowed) => {
    expect(concurrencyAt(elapsed, target, ramp)).toBe(allowed);
  });

  it('slot k opens exactly when the allowed concurrency passes k', () => {
    for (const [target, ramp] of [
      [8, 1e9],
      [3, 7e8],
      [64, 2e9],
    ]) {
      for (let k = 0; k < target; k++) {
        const t = slotOpensAtNs(k, target, ramp);
        expect(concurrencyAt(t, target, ramp)).toBeGreaterThan(k);
        if (t > 0) expect(concurrencyAt(t - 1, target, ramp)).toBeLessThanOrEqual(k);
      }
    }
    expect(slotOpensAtNs(5, 8, null)).toBe(0);
  });
});

describe('property: inter-arrival statistics', () => {
  const N = 20_000;
  it('constant: CV 0, mean 1/rate', () => {
    const r = cv(gaps('constant', 1, N));
    expect(r.cv).toBeLessThan(1e-9);
    expect(r.mean).toBeCloseTo(10 * MS, 0);
  });

  it.each([1, 2, 3])('poisson (seed %d): CV ≈ 1, mean ≈ 1/rate', (seed) => {
    const r = cv(gaps('poisson', 1, N, seed));
    expect(r.cv).toBeGreaterThan(0.95);
    expect(r.cv).toBeLessThan(1.05);
    expect(r.mean / (10 * MS)).toBeGreaterThan(0.97);
    expect(r.mean / (10 * MS)).toBeLessThan(1.03);
  });

  it.each([
    [0.25, 2],
    [0.5, Math.SQRT2],
    [1, 1],
    [4, 0.5],
    [16, 0.25],
  ])('gamma with smoothness %d: CV ≈ 1/sqrt(smoothness) = %d, mean ≈ 1/rate', (k, expected) => {
    const r = cv(gaps('gamma', k, N, 11));
    // Heavier tails (small k) estimate their CV less precisely from 20k samples.
    const tol = k < 1 ? 0.1 : 0.04;
    expect(Math.abs(r.cv / expected - 1)).toBeLessThan(tol);
    expect(Math.abs(r.mean / (10 * MS) - 1)).toBeLessThan(k < 1 ? 0.06 : 0.03);
  });

  it('unit gaps have mean 1 for every pattern', () => {
    for (const [p, k] of [
      ['constant', 1],
      ['poisson', 1],
      ['gamma', 0.3],
      ['gamma', 7],
    ] as const) {
      const rng = new Rng(`g/${p}/${k}`);
      let sum = 0;
      for (let i = 0; i < N; i++) sum += unitGap(p, k, rng);
      expect(sum / N).toBeGreaterThan(0.95);
      expect(sum / N).toBeLessThan(1.05);
    }
    const rng = new Rng(1);
    for (let i = 0; i < 1000; i++) expect(gammaSample(0.2, rng)).toBeGreaterThanOrEqual(0);
  });
});

import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/model/rng.js';

function draws(r: Rng, n: number): number[] {
  return Array.from({ length: n }, () => r.next());
}

function meanStd(xs: number[]): { mean: number; std: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return { mean, std: Math.sqrt(v) };
}

describe('Rng', () => {
  it('is pinned: seed 1 gives the same stream on every platform and version', () => {
    // A change here changes every synthetic dataset for a given --random-seed.
    const r = new Rng(1);
    expect([r.nextUint32(), r.nextUint32(), r.nextUint32(), r.nextUint32()]).toEqual([350175097, 640680501, 3603964963, 713971460]);
    expect(new Rng('abc').next()).toBe(0.0489733582197347);
  });

  it('equal seeds give equal streams; different seeds differ', () => {
    expect(draws(new Rng(99), 50)).toEqual(draws(new Rng(99), 50));
    expect(draws(new Rng(99), 50)).not.toEqual(draws(new Rng(100), 50));
  });

  it('next() is uniform in [0, 1)', () => {
    const xs = draws(new Rng(3), 20000);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    // Mean of U(0,1) is 0.5 with SE 0.29/sqrt(20000) = 0.002; allow 5 SE.
    expect(Math.abs(meanStd(xs).mean - 0.5)).toBeLessThan(0.01);
    const buckets = new Array<number>(10).fill(0);
    for (const x of xs) buckets[Math.floor(x * 10)] += 1;
    for (const b of buckets) expect(Math.abs(b - 2000)).toBeLessThan(200); // SE ~42
  });

  it('int(lo, hi) covers both ends and nothing outside', () => {
    const r = new Rng(4);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(r.int(-2, 3));
    expect([...seen].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2, 3]);
    expect(r.int(7, 7)).toBe(7);
    expect(() => r.int(3, 2)).toThrow(RangeError);
    expect(() => r.int(0.5, 2)).toThrow(RangeError);
  });

  it('normal(mean, std) has the requested mean and spread', () => {
    const r = new Rng(5);
    const xs = Array.from({ length: 20000 }, () => r.normal(100, 15));
    const { mean, std } = meanStd(xs);
    // SE of the mean is 15/sqrt(20000) = 0.11; SE of std is ~0.075. Allow ~5 SE.
    expect(Math.abs(mean - 100)).toBeLessThan(0.55);
    expect(Math.abs(std - 15)).toBeLessThan(0.4);
    expect(xs.every(Number.isFinite)).toBe(true);
    // About 68% within one std.
    const within = xs.filter((x) => Math.abs(x - 100) < 15).length / xs.length;
    expect(Math.abs(within - 0.6827)).toBeLessThan(0.02);
  });

  it('pick() returns members and reaches all of them; empty throws', () => {
    const r = new Rng(6);
    const arr = ['a', 'b', 'c'];
    const seen = new Set(Array.from({ length: 200 }, () => r.pick(arr)));
    expect(seen).toEqual(new Set(arr));
    expect(() => r.pick([])).toThrow(RangeError);
  });

  it('shuffle() permutes in place, deterministically', () => {
    const a = Array.from({ length: 50 }, (_, i) => i);
    const out = new Rng(8).shuffle(a);
    expect(out).toBe(a);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(a).not.toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(new Rng(8).shuffle(Array.from({ length: 50 }, (_, i) => i))).toEqual(a);
  });

  it('fork() is independent of draws on the parent, and does not advance it', () => {
    const fresh = new Rng(10);
    const used = new Rng(10);
    draws(used, 123);
    expect(draws(used.fork('isl'), 20)).toEqual(draws(fresh.fork('isl'), 20));

    const parent = new Rng(10);
    parent.fork('x');
    expect(draws(parent, 20)).toEqual(draws(new Rng(10), 20));
  });

  it('fork() streams differ by label, from the parent, and nest', () => {
    const r = new Rng(11);
    const isl = draws(r.fork('isl'), 20);
    expect(isl).not.toEqual(draws(r.fork('osl'), 20));
    expect(isl).not.toEqual(draws(new Rng(11), 20));
    expect(draws(r.fork('a').fork('b'), 5)).toEqual(draws(new Rng(11).fork('a').fork('b'), 5));
    expect(draws(r.fork('a').fork('b'), 5)).not.toEqual(draws(r.fork('b').fork('a'), 5));
  });
});

import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/model/rng.js';
import { IndexSampler } from '../../../src/dataset/sampling.js';

function draw(s: IndexSampler, n: number): number[] {
  return Array.from({ length: n }, () => s.next());
}

describe('IndexSampler', () => {
  it('sequential: file order, wrapping around', () => {
    expect(draw(new IndexSampler(4, 'sequential', new Rng(1)), 10)).toEqual([0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
  });

  it('shuffle: every pass of size draws is a permutation, and passes differ', () => {
    const s = new IndexSampler(20, 'shuffle', new Rng(3));
    const passes = Array.from({ length: 5 }, () => draw(s, 20));
    for (const p of passes) expect([...p].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(new Set(passes.map((p) => p.join(','))).size).toBe(5);
    expect(passes[0]).not.toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('random: seeded (same seed, same draws; other seed, other draws), with replacement, roughly uniform', () => {
    const a = draw(new IndexSampler(10, 'random', new Rng(7)), 5000);
    const b = draw(new IndexSampler(10, 'random', new Rng(7)), 5000);
    const c = draw(new IndexSampler(10, 'random', new Rng(8)), 5000);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    // With replacement: some index repeats within the first 10 draws (p of none repeating = 10!/10^10).
    expect(new Set(a.slice(0, 10)).size).toBeLessThan(10);
    const counts = new Array(10).fill(0);
    for (const i of a) counts[i]++;
    // Binomial(5000, 0.1): sd = 21.2; allow 5 sd.
    for (const n of counts) expect(Math.abs(n - 500)).toBeLessThan(106);
  });

  it('shuffle is seeded too', () => {
    expect(draw(new IndexSampler(30, 'shuffle', new Rng(5)), 60)).toEqual(draw(new IndexSampler(30, 'shuffle', new Rng(5)), 60));
  });

  it('rejects an empty dataset', () => {
    expect(() => new IndexSampler(0, 'sequential', new Rng(1))).toThrow(RangeError);
  });
});

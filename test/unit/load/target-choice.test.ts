// Which URL and model each request goes to: smooth weighted round robin, seeded random.
import { describe, expect, it } from 'vitest';
import { TargetSelector, WeightedRoundRobin } from '../../../src/load/target-choice.js';

function counts(picks: number[], n: number): number[] {
  const out = new Array<number>(n).fill(0);
  for (const p of picks) out[p]++;
  return out;
}

describe('WeightedRoundRobin', () => {
  it('splits exactly by the weights over each cycle, interleaved', () => {
    const w = new WeightedRoundRobin([3, 1]);
    const picks = Array.from({ length: 8 }, () => w.next());
    expect(counts(picks, 2)).toEqual([6, 2]);
    // Smooth: the light target is not starved for a whole cycle at a time.
    expect(picks.slice(0, 4)).toContain(1);
  });

  it('equal weights are plain round robin; a zero weight gets nothing', () => {
    const rr = new WeightedRoundRobin([1, 1, 1]);
    expect(Array.from({ length: 6 }, () => rr.next())).toEqual([0, 1, 2, 0, 1, 2]);
    const z = new WeightedRoundRobin([0, 2]);
    expect(
      counts(
        Array.from({ length: 10 }, () => z.next()),
        2,
      ),
    ).toEqual([0, 10]);
  });

  it('fractional weights split to within one pick', () => {
    const w = new WeightedRoundRobin([0.7, 0.2, 0.1]);
    expect(
      counts(
        Array.from({ length: 1000 }, () => w.next()),
        3,
      ),
    ).toEqual([700, 200, 100]);
  });
});

describe('TargetSelector', () => {
  const base = { urlCount: 2, urlWeights: null, models: ['a', 'b'], modelWeights: null, seed: 7 } as const;

  it('round robin over URLs and models', () => {
    const s = new TargetSelector({ ...base, strategy: 'round_robin' });
    expect(Array.from({ length: 4 }, () => s.next())).toEqual([
      { url: 0, model: 'a' },
      { url: 1, model: 'b' },
      { url: 0, model: 'a' },
      { url: 1, model: 'b' },
    ]);
  });

  it('random is seeded: equal seeds give equal picks, both models used', () => {
    const pick = (seed: number) => {
      const s = new TargetSelector({ ...base, strategy: 'random', seed });
      return Array.from({ length: 200 }, () => s.next().model);
    };
    expect(pick(1)).toEqual(pick(1));
    expect(pick(1)).not.toEqual(pick(2));
    const a = pick(1).filter((m) => m === 'a').length;
    expect(a).toBeGreaterThan(70);
    expect(a).toBeLessThan(130);
  });

  it('weighted models follow --model-weights', () => {
    const s = new TargetSelector({ ...base, strategy: 'weighted', modelWeights: [1, 3] });
    const models = Array.from({ length: 40 }, () => s.next().model);
    expect(models.filter((m) => m === 'b').length).toBe(30);
  });
});

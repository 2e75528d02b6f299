import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/model/rng.js';
import { IndexSampler } from '../../../src/dataset/sampling.js';
import { IndexedSource } from '../../../src/dataset/source.js';
import type { Conversation } from '../../../src/dataset/types.js';

function source(cache: boolean, strategy: 'sequential' | 'shuffle' = 'shuffle') {
  const built: number[] = [];
  const src = new IndexedSource({
    kind: 'test',
    hasTimestamps: false,
    sampler: new IndexSampler(6, strategy, new Rng(9)),
    cache,
    build: (i): Conversation => {
      built.push(i);
      return { id: `c${i}`, turns: [{ prompt: `p${i}`, isl: i, max_tokens: null, timestamp_ms: null, delay_ms: null }] };
    },
  });
  return { src, built };
}

describe('IndexedSource', () => {
  it('prefetch builds the next draws ahead and leaves the order of next() unchanged', () => {
    const plain = source(true).src;
    const expected = Array.from({ length: 15 }, () => plain.next().id);
    const { src, built } = source(true);
    expect(src.prefetch(4, 10_000)).toBe(4);
    expect(built).toHaveLength(4);
    expect(Array.from({ length: 15 }, () => src.next().id)).toEqual(expected);
    // Each entry is built once, however often it is drawn.
    expect([...built].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('without a cache, nothing is built ahead and each draw builds afresh', () => {
    const { src, built } = source(false, 'sequential');
    expect(src.prefetch(4, 10_000)).toBe(0);
    for (let i = 0; i < 8; i++) src.next();
    expect(built).toEqual([0, 1, 2, 3, 4, 5, 0, 1]);
  });

  it('prefetch stops at its time budget', () => {
    const { src } = source(true);
    expect(src.prefetch(1000, 0)).toBe(0);
    expect(src.next().id).toMatch(/^c\d$/);
  });

  it('hands out copies', () => {
    const { src } = source(true, 'sequential');
    const a = src.next();
    a.turns[0].prompt = 'x';
    a.turns.push(a.turns[0]);
    for (let i = 0; i < 5; i++) src.next();
    const again = src.next();
    expect(again.turns).toHaveLength(1);
    expect(again.turns[0].prompt).toBe('p0');
  });
});

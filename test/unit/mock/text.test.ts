import { describe, expect, it } from 'vitest';
import { createRng, generateText, VOCAB, WordSource } from '../../../src/mock/text.js';
import { countTokens } from '../../helpers/mock.js';

describe('mock text generator', () => {
  it('has 128 distinct words, each exactly one cl100k token', () => {
    expect(VOCAB.length).toBe(128);
    expect(new Set(VOCAB).size).toBe(128);
    const bad = VOCAB.filter((w) => countTokens(w) !== 1);
    expect(bad).toEqual([]);
  });

  it('a generated 500-token output counts exactly 500 tokens under cl100k', () => {
    for (const seed of [0, 1, 42, 0xdeadbeef]) {
      expect(countTokens(generateText(seed, 500))).toBe(500);
    }
  });

  it('chunked output concatenates to the same exact count', () => {
    const src = new WordSource(7);
    let text = '';
    for (let i = 0; i < 100; i++) text += src.take(3);
    expect(countTokens(text)).toBe(300);
  });

  it('is deterministic under a seed and differs across seeds', () => {
    expect(generateText(123, 200)).toBe(generateText(123, 200));
    expect(generateText(123, 200)).not.toBe(generateText(124, 200));
    // Taking in pieces gives the same text as taking at once.
    const a = new WordSource(9);
    expect(a.take(5) + a.take(15)).toBe(generateText(9, 20));
  });

  it('uses the whole vocabulary', () => {
    const words = new Set(generateText(5, 5000).split(' ').slice(1));
    expect(words.size).toBe(128);
  });

  it('rng is a uint32 stream', () => {
    const r = createRng(1);
    for (let i = 0; i < 1000; i++) {
      const v = r();
      expect(Number.isInteger(v) && v >= 0 && v < 2 ** 32).toBe(true);
    }
  });
});

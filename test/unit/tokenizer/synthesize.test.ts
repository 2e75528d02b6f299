import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/model/rng.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import { PromptSynthesizer, getTokenPool } from '../../../src/tokenizer/synthesize.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { mergingTokenizer, prependingTokenizer } from '../../helpers/fake-tokenizers.js';

let tok: TextTokenizer;
let corpusTokens: number;

beforeAll(async () => {
  tok = await loadTokenizer();
  corpusTokens = getTokenPool(tok).ids.length;
});

function expectExact(t: TextTokenizer, syn: PromptSynthesizer, lengths: number[]): void {
  const wrong: string[] = [];
  for (const n of lengths) {
    const got = t.count(syn.next(n));
    if (got !== n) wrong.push(`${n}→${got}`);
  }
  expect(wrong).toEqual([]);
}

const FIXED = [0, 1, 2, 3, 4, 5, 7, 50, 128, 1000, 4096];

describe('PromptSynthesizer (default tokenizer)', () => {
  it('uses the fast sliced path for the default tokenizer', () => {
    expect(new PromptSynthesizer(tok, new Rng(1)).mode).toBe('sliced');
  });

  it('hits exact lengths for fixed and a few hundred random lengths', () => {
    const syn = new PromptSynthesizer(tok, new Rng(11));
    const r = new Rng('lengths');
    const random = Array.from({ length: 300 }, () => r.int(0, 3000));
    expectExact(tok, syn, [...FIXED, ...random]);
  });

  it('hits exact lengths around and beyond the corpus size (cycling)', () => {
    const syn = new PromptSynthesizer(tok, new Rng(12));
    const L = corpusTokens;
    expectExact(tok, syn, [L - 3, L - 2, L - 1, L, L + 1, L + 2, L + 3, 2 * L, 3 * L + 5, 32768]);
  });

  it('hits exact lengths for every length 0..300 from many start offsets', () => {
    const syn = new PromptSynthesizer(tok, new Rng(13));
    expectExact(
      tok,
      syn,
      Array.from({ length: 301 }, (_, i) => i),
    );
  });

  it('is reproducible: the same seed gives the same prompts', () => {
    const lengths = [5, 100, 1, 2000, 37, 0, 512];
    const a = new PromptSynthesizer(tok, new Rng(42));
    const b = new PromptSynthesizer(tok, new Rng(42));
    expect(lengths.map((n) => a.next(n))).toEqual(lengths.map((n) => b.next(n)));
  });

  it('a different seed gives different prompts', () => {
    const a = new PromptSynthesizer(tok, new Rng(42));
    const b = new PromptSynthesizer(tok, new Rng(43));
    for (const n of [3, 50, 1000]) expect(a.next(n)).not.toBe(b.next(n));
  });

  it('consecutive prompts differ, from their first tokens on (no trivial prefix-cache hits)', () => {
    const syn = new PromptSynthesizer(tok, new Rng(7));
    for (const n of [1, 2, 3, 10, 500]) {
      const prompts = Array.from({ length: 200 }, () => syn.next(n));
      expect(new Set(prompts).size).toBe(prompts.length);
      if (n >= 3) {
        const firstThree = prompts.map((p) => tok.encode(p).slice(0, 3).join(','));
        expect(new Set(firstThree).size).toBe(prompts.length);
      }
    }
  });

  it('prompt text is ordinary words, not control characters or replacement characters', () => {
    const p = new PromptSynthesizer(tok, new Rng(3)).next(300);
    expect(p).toMatch(/^[\x20-\x7e]+$/);
    expect(p.split(' ').length).toBeGreaterThan(150);
  });

  it('stays exact with verify on', () => {
    const syn = new PromptSynthesizer(tok, new Rng(5), { verify: true });
    expectExact(tok, syn, FIXED);
  });

  it('rejects lengths that are negative or not integers', () => {
    const syn = new PromptSynthesizer(tok, new Rng(1));
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => syn.next(n)).toThrow(InvalidArgumentError);
    }
  });
});

describe('PromptSynthesizer (other tokenizer shapes)', () => {
  it('handles a tokenizer that prepends a space (SentencePiece style) on the fast path', () => {
    const fake = prependingTokenizer(tok, '/fake/prepend/tokenizer.json');
    const syn = new PromptSynthesizer(fake, new Rng(21));
    expect(syn.mode).toBe('sliced');
    const r = new Rng('fake-lengths');
    expectExact(fake, syn, [...FIXED, ...Array.from({ length: 100 }, () => r.int(0, 4000))]);
    expect(syn.next(20)).not.toMatch(/^ /);
  });

  it('falls back to decode/re-encode/fix-up for a tokenizer it cannot slice, still exact', () => {
    const fake = mergingTokenizer('/fake/merge/tokenizer.json');
    const syn = new PromptSynthesizer(fake, new Rng(22));
    expect(syn.mode).toBe('verified');
    const r = new Rng('merge-lengths');
    expectExact(fake, syn, [...FIXED, ...Array.from({ length: 100 }, () => r.int(0, 3000))]);
    const prompts = Array.from({ length: 50 }, () => syn.next(40));
    expect(new Set(prompts).size).toBe(50);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/model/rng.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import { SegmentSynthesizer, TRACE_BLOCK_TOKENS } from '../../../src/tokenizer/segments.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { mergingTokenizer, prependingTokenizer } from '../../helpers/fake-tokenizers.js';

let tok: TextTokenizer;
beforeAll(async () => {
  tok = await loadTokenizer();
});

const B = TRACE_BLOCK_TOKENS;

/** Length of the common token prefix of two prompts. */
function commonTokens(t: TextTokenizer, a: string, b: string): number {
  const x = t.encode(a);
  const y = t.encode(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

describe('SegmentSynthesizer (default tokenizer)', () => {
  it('takes the sliced path (its self-test passes under cl100k)', () => {
    expect(new SegmentSynthesizer(tok, 1).sliced).toBe(true);
  });

  it('a block is exactly 512 tokens and the same text for the same seed and id', () => {
    const a = new SegmentSynthesizer(tok, 5);
    const b = new SegmentSynthesizer(tok, 5);
    for (const id of [0, 1, 2, 77, 123456, 2 ** 40]) {
      expect(tok.count(a.block(id))).toBe(B);
      expect(a.block(id)).toBe(b.block(id));
    }
  });

  it('different ids and different seeds give different blocks, from their first tokens', () => {
    const s = new SegmentSynthesizer(tok, 5);
    const firsts = new Set(Array.from({ length: 300 }, (_, id) => tok.encode(s.block(id)).slice(0, 3).join(',')));
    expect(firsts.size).toBe(300);
    expect(new SegmentSynthesizer(tok, 6).block(0)).not.toBe(s.block(0));
  });

  it('hash prompts have exact lengths for cuts inside, at and past the blocks', () => {
    const s = new SegmentSynthesizer(tok, 9);
    const r = new Rng('segment-lengths');
    const wrong: string[] = [];
    for (let i = 0; i < 60; i++) {
      const nBlocks = r.int(1, 5);
      const ids = Array.from({ length: nBlocks }, () => r.int(0, 20));
      const total = r.int(1, nBlocks * B + 300);
      const got = tok.count(s.hashPrompt(ids, total));
      if (got !== total) wrong.push(`${ids}/${total}→${got}`);
    }
    for (const total of [1, 2, 3, 4, B - 1, B, B + 1, 2 * B, 3 * B + 17]) {
      const got = tok.count(s.hashPrompt([3, 4], total));
      if (got !== total) wrong.push(`[3,4]/${total}→${got}`);
    }
    expect(wrong).toEqual([]);
  });

  it('prompts sharing leading hash ids share those blocks byte for byte and token for token', () => {
    const s = new SegmentSynthesizer(tok, 11);
    const p1 = s.hashPrompt([1, 2, 3], 3 * B);
    const p2 = s.hashPrompt([1, 2, 9, 10], 3 * B + 200);
    const p3 = s.hashPrompt([1, 7], B + 100);
    const shared12 = s.block(1) + s.block(2);
    expect(p1.startsWith(shared12)).toBe(true);
    expect(p2.startsWith(shared12)).toBe(true);
    expect(p3.startsWith(s.block(1))).toBe(true);
    expect(p3.startsWith(shared12)).toBe(false);
    expect(commonTokens(tok, p1, p2)).toBeGreaterThanOrEqual(2 * B);
    expect(commonTokens(tok, p1, p3)).toBeGreaterThanOrEqual(B);
    // The third block differs, so the shared token prefix stops within a few tokens of 2B.
    expect(commonTokens(tok, p1, p2)).toBeLessThan(2 * B + 3);
  });

  it('a cut-short last block is a token prefix of the full block', () => {
    const s = new SegmentSynthesizer(tok, 12);
    const full = tok.encode(s.hashPrompt([4, 5], 2 * B));
    for (const r of [1, 3, 4, 50, 300, B - 1]) {
      const cut = tok.encode(s.hashPrompt([4, 5], B + r));
      expect(cut.length).toBe(B + r);
      expect(cut).toEqual(full.slice(0, B + r));
    }
  });

  it('withPrefix keeps the prefix tokens and hits the exact total', () => {
    const s = new SegmentSynthesizer(tok, 13);
    const prefix = s.freshPrompt(100);
    for (const total of [100, 101, 103, 104, 500, 4000]) {
      const p = s.withPrefix(prefix, 100, total);
      expect(p.startsWith(prefix)).toBe(true);
      expect(tok.count(p)).toBe(total);
      expect(tok.encode(p).slice(0, 100)).toEqual(tok.encode(prefix));
    }
    const a = s.withPrefix(prefix, 100, 300);
    const b = s.withPrefix(prefix, 100, 300);
    expect(a).not.toBe(b);
  });

  it('continuations are distinct and exact after any clean-ended text', () => {
    const s = new SegmentSynthesizer(tok, 14);
    const head = s.freshPrompt(20);
    const seen = new Set<string>();
    for (const n of [1, 2, 3, 4, 10, 700, 2500]) {
      const c = s.continuation(n);
      seen.add(c);
      expect(tok.count(head + c)).toBe(20 + n);
    }
    expect(seen.size).toBe(7);
  });
});

describe('SegmentSynthesizer (other tokenizer shapes)', () => {
  it('a space-prepending tokenizer stays on the sliced path, exact and prefix-sharing', () => {
    const fake = prependingTokenizer(tok, '/fake/prepend-seg/tokenizer.json');
    const s = new SegmentSynthesizer(fake, 21);
    expect(s.sliced).toBe(true);
    for (const total of [1, 5, B, B + 1, 2 * B + 99]) expect(fake.count(s.hashPrompt([1, 2, 3], total))).toBe(total);
    const p1 = s.hashPrompt([1, 2], 2 * B);
    const p2 = s.hashPrompt([1, 3], 2 * B);
    expect(commonTokens(fake, p1, p2)).toBeGreaterThanOrEqual(B);
  });

  it('a tokenizer it cannot slice gets the repair path: still exact, shared blocks still identical text', () => {
    const fake = mergingTokenizer('/fake/merge-seg/tokenizer.json');
    const s = new SegmentSynthesizer(fake, 22, { blockTokens: 64 });
    expect(s.sliced).toBe(false);
    const p1 = s.hashPrompt([1, 2, 3], 3 * 64);
    const p2 = s.hashPrompt([1, 2, 4], 2 * 64 + 10);
    expect(fake.count(p1)).toBe(192);
    expect(fake.count(p2)).toBe(138);
    expect(p1.startsWith(s.block(1) + s.block(2))).toBe(true);
    expect(p2.startsWith(s.block(1) + s.block(2))).toBe(true);
    expect(fake.count(s.withPrefix(s.freshPrompt(30), 30, 90))).toBe(90);
  });
});

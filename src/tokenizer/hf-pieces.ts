// Piece-cached counting (piece-cache.ts) for a @huggingface/tokenizers Tokenizer. Its pre-tokenizer
// is the slow part (about 2.7 µs per token: a regex split, then every byte mapped to a character),
// so the text is split once with the pre-tokenizer's own outer regex and each distinct piece goes
// through the whole pre-tokenizer and model once. Only for tokenizers where that is the same count:
// the outer step is a regex split (a Split, or a regex ByteLevel), no fused unknowns, and no
// text-level options; a text holding an added token is counted whole. Reaches into the library's
// fields (the package is pinned); anything unexpected, or a self-check that disagrees, gives null
// and the caller counts whole texts as before.
import type { Tokenizer } from '@huggingface/tokenizers';
import { pieceCounter } from './piece-cache.js';

interface Internals {
  splitter_unnormalized?: { split(text: string): string[] };
  splitter_normalized?: { split(text: string): string[] };
  normalizer?: ((text: string) => string) | null;
  pre_tokenizer?: (((text: string, options: { section_index: number }) => string[]) & PreTokenizerFields) | null;
  model?: ((tokens: string[]) => string[]) & { fuse_unk?: boolean };
  added_tokens_map?: Map<string, unknown>;
  remove_space?: boolean;
  do_lowercase_and_remove_accent?: boolean;
}

interface PreTokenizerFields {
  tokenizers?: PreTokenizerFields[];
  pattern?: RegExp | null;
  config?: { type?: string; invert?: boolean; behavior?: string; use_regex?: boolean; add_prefix_space?: boolean };
  use_regex?: boolean;
  add_prefix_space?: boolean;
}

/** The outer split of a pre-tokenizer config: its regex and whether gaps are pieces; null if none fits. */
function outerSplit(json: Record<string, unknown>, pre: PreTokenizerFields): { split: RegExp; gaps: boolean } | null {
  const cfg = json.pre_tokenizer as { type?: string; pretokenizers?: { type?: string }[] } | null | undefined;
  if (!cfg) return null;
  let first: PreTokenizerFields | undefined = pre;
  let type = cfg.type;
  if (type === 'Sequence') {
    first = pre.tokenizers?.[0];
    type = cfg.pretokenizers?.[0]?.type;
  }
  if (!first || !(first.pattern instanceof RegExp) || !first.pattern.global || !first.pattern.unicode) return null;
  if (type === 'Split') {
    const c = first.config ?? {};
    if (c.invert === true) return { split: first.pattern, gaps: false };
    if ((c.behavior ?? '').toLowerCase() === 'isolated') return { split: first.pattern, gaps: true };
    return null;
  }
  if (type === 'ByteLevel' && first.use_regex === true && first.add_prefix_space !== true) return { split: first.pattern, gaps: false };
  return null;
}

/** Texts the self-check counts both ways: spaces, digits, punctuation, non-Latin scripts, emoji. */
const PROBES = [
  'Hello, world! The server streams 12345 tokens at 3.14 ms each.',
  "  don't   stop\n\n\tnow  ",
  'naïve café — Straße, ПРИВЕТ мир, 東京は晴れ、😀👍🏽 ok',
  'if (x) {\n  return y[i] + 1;\n}\r\n// done',
  ' a  b   c    d',
];

/** A piece-cached count equal to `full` for this tokenizer, or null where that cannot be shown. */
export function hfPieceCounter(
  tok: Tokenizer,
  json: Record<string, unknown>,
  full: (text: string) => number,
): ((text: string) => number) | null {
  const t = tok as unknown as Internals;
  const { splitter_unnormalized: outer, splitter_normalized: inner, pre_tokenizer: pre, model } = t;
  if (!outer || !inner || !pre || typeof pre !== 'function' || typeof model !== 'function') return null;
  if (model.fuse_unk === true || t.remove_space === true || t.do_lowercase_and_remove_accent === true) return null;
  const shape = outerSplit(json, pre);
  if (shape === null) return null;
  const normalize = typeof t.normalizer === 'function' ? t.normalizer : null;
  const added = t.added_tokens_map;
  if (!(added instanceof Map)) return null;
  const byPiece = pieceCounter({
    split: shape.split,
    gaps: shape.gaps,
    // Both are the library's callable objects (no Function.prototype.call on them): called directly.
    countPiece: (piece) => model(pre(piece, { section_index: 0 })).length,
    fallback: () => false,
  });
  const count = (text: string): number => {
    // An added token splits the text into sections the library treats apart (a text that is one is
    // one section): count it whole.
    if (outer.split(text).length !== 1 || added.has(text)) return full(text);
    const norm = normalize ? normalize(text) : text;
    if (norm.length === 0) return 0;
    if (inner.split(norm).length !== 1 || added.has(norm)) return full(text);
    return byPiece(norm);
  };
  try {
    for (const p of PROBES) if (count(p) !== full(p)) return null;
  } catch {
    return null;
  }
  return count;
}

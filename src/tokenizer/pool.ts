// The token pool: the built-in corpus encoded once per tokenizer, plus the tables that let
// a prompt of exactly N tokens be cut from it without re-encoding (see synthesize.ts).
//
// Why this works: BPE tokenizers first split text into pre-tokens (words, numbers,
// punctuation runs) and encode each pre-token on its own. So a slice of the corpus that
// starts at a word boundary and ends at a "clean" cut encodes to exactly the ids of that
// slice. Which cuts are clean is not assumed: each one is checked here by encoding a small
// window around it, once per tokenizer.

import { CORPUS } from './corpus.js';
import type { TextTokenizer } from './types.js';

/**
 * 'sliced': per-token strings concatenate to the corpus and the tables below are valid,
 * so prompts are string slices (fast). Byte-level BPE (GPT, Llama 3, Qwen, DeepSeek) and
 * SentencePiece BPE with a "▁" prefix (Llama 2) both get here. 'verified': anything else
 * (tokens that do not decode one by one into the corpus, cuts that fail their check), so
 * prompts are decoded and re-encoded until their length is exact (slower, still exact).
 */
export type PoolMode = 'sliced' | 'verified';

export interface TokenPool {
  mode: PoolMode;
  /** Token ids of one copy of the corpus; prompts cycle through it. */
  ids: number[];
  /**
   * The corpus text, as the tokens spell it: `off[i]` is the char offset where token i
   * starts (off[L] = text.length). For tokenizers that prepend a space to their input,
   * `ids` encode this text minus its first space.
   */
  text: string;
  off: Int32Array;
  /** Token positions a prompt body may start at (word starts with a clean left edge). */
  starts: Int32Array;
  /** endOk[b] = 1 when a prompt body may end just before token b (mod L). */
  endOk: Uint8Array;
  /** Words that encode to one token alone (heads) or after a space (mids, stored with the space). */
  heads: string[];
  mids: string[];
  /** Distinct ids of the corpus, for the prefix in 'verified' mode. */
  uniqueIds: number[];
  /**
   * ' ' when the tokenizer prepends a space to its input (SentencePiece style), else ''.
   * Text that starts with a space then encodes at the start of a prompt with one token too many.
   */
  lead: string;
}

/** Window size (tokens) used to check a cut; more than any English pre-token spans. */
const WINDOW = 6;
/** How far a window may stretch to begin or end at a word start. */
const STRETCH = 10;

function sameIds(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function mod(i: number, n: number): number {
  return ((i % n) + n) % n;
}

/**
 * Per-token strings that concatenate to `expected`, or null. Each token is decoded after an
 * anchor token and the anchor's text cut off, because decoders such as SentencePiece's strip
 * the leading space of whatever they decode first.
 */
function tokenStrings(tok: TextTokenizer, ids: number[], expected: string): string[] | null {
  const anchorIds = tok.encode('a');
  const anchor = anchorIds[anchorIds.length - 1];
  if (anchor === undefined) return null;
  const base = tok.decode([anchor]);
  const strs = ids.map((id) => {
    const both = tok.decode([anchor, id]);
    return both.startsWith(base) ? both.slice(base.length) : '\u0000';
  });
  return strs.join('') === expected ? strs : null;
}

export function buildTokenPool(tok: TextTokenizer): TokenPool {
  const text = CORPUS;
  // Tokenizers that prepend a space to every input (SentencePiece's "▁" prefix) encode
  // CORPUS without its first space the way others encode CORPUS: try both readings.
  let lead = '';
  let ids = tok.encode(text);
  let strs = tokenStrings(tok, ids, text);
  if (!strs) {
    const idsLead = tok.encode(text.slice(1));
    const strsLead = tokenStrings(tok, idsLead, text);
    if (strsLead) [lead, ids, strs] = [' ', idsLead, strsLead];
  }
  const L = ids.length;
  const uniqueIds = [...new Set(ids)];
  const off = new Int32Array(L + 1);
  const verified = (): TokenPool => ({
    mode: 'verified',
    ids,
    text,
    off,
    starts: new Int32Array(0),
    endOk: new Uint8Array(0),
    heads: [],
    mids: [],
    uniqueIds,
    lead,
  });
  if (!strs) return verified();
  for (let i = 0; i < L; i++) off[i + 1] = off[i] + strs[i].length;

  /** Real text whose encoding is `virtual`'s tokens: drops the space such tokenizers add back. */
  const real = (virtual: string): string | null => (virtual.startsWith(lead) ? virtual.slice(lead.length) : null);
  const encodes = (virtual: string, expected: number[]): boolean => {
    const r = real(virtual);
    return r !== null && sameIds(tok.encode(r), expected);
  };
  const tokStrs = strs;

  // Prompts longer than the corpus wrap around, so two copies must encode as two copies.
  if (!encodes(text + text, ids.concat(ids))) return verified();

  const wordStart = (i: number): boolean => {
    const s = tokStrs[mod(i, L)];
    return s.length > 1 && s[0] === ' ' && s[1] !== ' ';
  };
  const cycText = (a: number, b: number): string => {
    let out = '';
    for (let i = a; i < b; i++) out += tokStrs[mod(i, L)];
    return out;
  };
  const cycIds = (a: number, b: number): number[] => {
    const out: number[] = [];
    for (let i = a; i < b; i++) out.push(ids[mod(i, L)]);
    return out;
  };
  const windowHolds = (a: number, b: number): boolean => encodes(cycText(a, b), cycIds(a, b));

  // A left window that begins at a word start, so its own first pre-token is whole.
  const leftFrom = (b: number): number => {
    let a = b - WINDOW;
    while (a > b - WINDOW - STRETCH && !wordStart(a)) a--;
    return a;
  };
  // A right window that ends just before a word start, for the same reason.
  const rightTo = (b: number): number => {
    let e = b + WINDOW;
    while (e < b + WINDOW + STRETCH && !wordStart(e)) e++;
    return e;
  };

  const endOk = new Uint8Array(L);
  const starts: number[] = [];
  for (let b = 0; b < L; b++) {
    if (windowHolds(leftFrom(b), b)) endOk[b] = 1;
    if (wordStart(b) && windowHolds(b, rightTo(b))) starts.push(b);
  }

  // Prefix words (see synthesize.ts): letters only, in corpus order. A head is the prompt's
  // first word and is one token alone; a mid is " word" and adds one token after a head.
  const words = [...new Set(tokStrs.filter((s) => /^ [a-z]{3,}$/.test(s)))];
  const heads = words.map((w) => w.slice(1)).filter((h) => tok.count(h) === 1);
  const h0 = heads[0];
  const mids = h0 === undefined ? [] : words.filter((m) => tok.count(h0 + m) === 2);

  if (starts.length === 0 || heads.length < 2 || mids.length < 2) return verified();
  return { mode: 'sliced', ids, text, off, starts: Int32Array.from(starts), endOk, heads, mids, uniqueIds, lead };
}

// Prompts assembled from segments that concatenate without merging tokens across their
// edges, for prefix-cache realism:
// - trace blocks: one per hash id (Mooncake traces), the same text wherever it appears, so
//   requests that share a hash id share that block byte for byte and token for token;
// - continuations: fresh text that follows a shared prefix (a block, a prefix-pool prompt).
//
// Why the edges are clean (sliced pools): every segment starts with three "mid" words
// (" word", one token each) and ends at a checked clean cut of the corpus (pool.endOk), and
// BPE pre-tokenizers split before a space followed by a letter, so A+B encodes as A's tokens
// then B's. This is not assumed: a self-test checks it once per tokenizer. A tokenizer that
// fails it (or a 'verified' pool) takes the repair path: segments are decoded ids fixed up to
// their length, and a prompt's last segment is trimmed or extended until the total is exact;
// shared segments are then still byte-identical, but tokens may merge across their edges.

import { TokenizerLoadError } from '../errors.js';
import { Rng } from '../model/rng.js';
import { bodyText, cycIds, getTokenPool, prefixCode, PromptSynthesizer, verifiedPrompt } from './synthesize.js';
import type { TokenPool } from './pool.js';
import type { TextTokenizer } from './types.js';

/** Tokens per hash id in Mooncake-style traces. */
export const TRACE_BLOCK_TOKENS = 512;

const MIDS = 3;
const FIXUP_ROUNDS = 10;
const PICK_RETRIES = 5;
/** Repair-mode blocks are costly to make (encode/decode), so they are kept, up to this many. */
const BLOCK_CACHE_MAX = 50_000;

export interface SegmentOptions {
  /** Tokens per trace block (default 512). */
  blockTokens?: number;
}

/** Where a block's text comes from in a sliced pool: its three mids and its body's corpus start. */
interface BlockLayout {
  code: bigint;
  mids: string[];
  start: number;
}

const selfTested = new Map<string, boolean>();

export class SegmentSynthesizer {
  readonly blockTokens: number;
  private readonly pool: TokenPool;
  private readonly key: string;
  private readonly blockSalt: bigint;
  private readonly contSalt: bigint;
  private readonly rng: Rng;
  private readonly fresh: PromptSynthesizer;
  private contCounter = 0n;
  private readonly cache = new Map<number, string>();
  /** True when segments are plain slices whose edges were checked to be clean. */
  readonly sliced: boolean;

  /**
   * Every text depends only on `seed` (and, for continuations, on how many came before).
   * `trial` (self-test only) takes the sliced path without checking it first.
   */
  constructor(
    private readonly tok: TextTokenizer,
    seed: number | string,
    options: SegmentOptions = {},
    trial = false,
  ) {
    this.blockTokens = options.blockTokens ?? TRACE_BLOCK_TOKENS;
    if (!Number.isInteger(this.blockTokens) || this.blockTokens < 1) {
      throw new RangeError(`block size must be a positive integer, got ${this.blockTokens}`);
    }
    this.pool = getTokenPool(tok);
    this.key = `${seed}/segments`;
    const root = new Rng(this.key);
    const salt = (r: Rng): bigint => (BigInt(r.nextUint32()) << 32n) | BigInt(r.nextUint32());
    this.blockSalt = salt(root.fork('block-salt'));
    this.contSalt = salt(root.fork('cont-salt'));
    this.rng = root.fork('picks');
    this.fresh = new PromptSynthesizer(tok, root.fork('fresh'));
    this.sliced = this.pool.mode === 'sliced' && this.pool.mids.length >= 2 && (trial || passesSelfTest(tok, this.blockTokens));
  }

  /** The full text of block `id`: `blockTokens` tokens, the same for every call with this seed. */
  block(id: number): string {
    return this.blockPrefix(id, this.blockTokens);
  }

  /**
   * A prompt of exactly `total` tokens: block after block for `hashIds` (the last one cut short
   * when `total` ends inside it), then fresh text if `total` reaches past the blocks. With a
   * `key` (a trace line), that fresh text depends only on the seed and the key, so replaying
   * the line gives the same prompt.
   */
  hashPrompt(hashIds: readonly number[], total: number, key?: number): string {
    const parts: string[] = [];
    let left = total;
    for (const id of hashIds) {
      if (left === 0) break;
      const take = Math.min(this.blockTokens, left);
      parts.push(this.blockPrefix(id, take));
      left -= take;
    }
    if (left > 0) {
      if (key !== undefined) parts.push(this.continuation(left, key));
      else parts.push(parts.length === 0 ? this.fresh.next(left) : this.continuation(left));
    }
    return this.finish(parts, total);
  }

  /** `prefix` (which counts `prefixTokens` alone) followed by fresh text, exactly `total` tokens. */
  withPrefix(prefix: string, prefixTokens: number, total: number): string {
    if (total < prefixTokens) throw new RangeError(`total ${total} is shorter than the prefix (${prefixTokens})`);
    if (total === prefixTokens) return prefix;
    return this.finish([prefix, this.continuation(total - prefixTokens)], total);
  }

  /** A fresh prompt of exactly `tokens` tokens, to be used at the start of a prompt. */
  freshPrompt(tokens: number): string {
    return this.fresh.next(tokens);
  }

  /**
   * Fresh text of `tokens` tokens meant to follow other text (it starts with a space-led word).
   * Without a `key` each call gives new text; with one, the text depends only on seed and key.
   */
  continuation(tokens: number, key?: number): string {
    const counter = key === undefined ? this.contCounter++ : BigInt(key);
    if (tokens === 0) return '';
    const pool = this.pool;
    const picks = key === undefined ? this.rng : new Rng(`${this.key}/cont/${key}`);
    if (this.sliced) {
      const M = BigInt(pool.mids.length);
      const k = Math.min(MIDS, tokens);
      const code = prefixCode(counter, this.contSalt, M ** BigInt(k));
      const mids = midsOf(pool, code, k);
      if (tokens <= MIDS) return mids.join('');
      const s = cleanStart(pool, picks.int(0, pool.starts.length - 1), tokens - MIDS);
      if (s !== null) return mids.join('') + bodyText(pool, s, tokens - MIDS);
    }
    return this.verified(tokens, counter, this.contSalt, picks.int(0, pool.ids.length - 1), picks);
  }

  private layout(id: number): BlockLayout {
    const pool = this.pool;
    const M = BigInt(pool.mids.length);
    const k = Math.min(MIDS, this.blockTokens);
    const code = prefixCode(BigInt(id), this.blockSalt, M ** BigInt(k));
    const pick = new Rng(`${this.key}/block/${id}`).int(0, pool.starts.length - 1);
    const start = this.blockTokens > MIDS ? cleanStart(pool, pick, this.blockTokens - MIDS) : 0;
    return { code, mids: midsOf(pool, code, k), start: start ?? 0 };
  }

  /** The first `r` tokens of block `id` (r <= blockTokens). */
  private blockPrefix(id: number, r: number): string {
    if (!this.sliced) {
      const full = this.verifiedBlock(id);
      return r === this.blockTokens ? full : this.tok.decode(this.tok.encode(full).slice(0, r));
    }
    const pool = this.pool;
    const { code, mids, start } = this.layout(id);
    if (r <= MIDS) return mids.slice(0, r).join('');
    // Cut at the last clean boundary at or before r, then pad with one-token words: the
    // result is as long a token prefix of the full block as the tokenizer allows (all of it
    // under cl100k, where every boundary of the corpus is clean).
    const L = pool.ids.length;
    const want = r - MIDS;
    let c = want;
    while (c > 0 && !pool.endOk[(start + c) % L]) c--;
    let text = mids.join('') + bodyText(pool, start, c);
    const M = pool.mids.length;
    for (let j = 0; j < want - c; j++) text += pool.mids[(Number(code % BigInt(M)) + j + 1) % M];
    return text;
  }

  private verifiedBlock(id: number): string {
    let text = this.cache.get(id);
    if (text === undefined) {
      const picks = new Rng(`${this.key}/block/${id}`);
      text = this.verified(this.blockTokens, BigInt(id), this.blockSalt, picks.int(0, this.pool.ids.length - 1), picks);
      if (this.cache.size >= BLOCK_CACHE_MAX) this.cache.clear();
      this.cache.set(id, text);
    }
    return text;
  }

  private verified(n: number, counter: bigint, salt: bigint, pick: number, retry: Rng = this.rng): string {
    for (let attempt = 0; attempt < PICK_RETRIES; attempt++) {
      const text = verifiedPrompt(this.tok, this.pool, n, counter, salt, attempt === 0 ? pick : retry.int(0, this.pool.ids.length - 1));
      if (text !== null) return text;
    }
    throw new TokenizerLoadError(`tokenizer '${this.tok.name}': cannot synthesize a segment of exactly ${n} tokens`);
  }

  /** Joins segments into a prompt of exactly `total` tokens. */
  private finish(parts: string[], total: number): string {
    if (this.sliced) {
      const text = parts.join('');
      // A tokenizer that prepends a space reads a leading space as one more token; it adds that
      // space back itself, so dropping it keeps the tokens (and the count) unchanged.
      return this.pool.lead === ' ' && text.startsWith(' ') ? text.slice(1) : text;
    }
    const head = parts.slice(0, -1).join('');
    let tail = parts[parts.length - 1] ?? '';
    let next = 0;
    for (let round = 0; round < FIXUP_ROUNDS; round++) {
      const got = this.tok.count(head + tail);
      if (got === total) return head + tail;
      const ids = this.tok.encode(tail);
      if (got > total) {
        if (ids.length === 0) break;
        tail = this.tok.decode(ids.slice(0, Math.max(0, ids.length - (got - total))));
      } else {
        const add = cycIds(this.pool, next, total - got);
        next += add.length;
        tail = this.tok.decode(ids.concat(add));
      }
    }
    throw new TokenizerLoadError(`tokenizer '${this.tok.name}': cannot assemble a prompt of exactly ${total} tokens`);
  }
}

function midsOf(pool: TokenPool, code: bigint, k: number): string[] {
  const M = BigInt(pool.mids.length);
  const out: string[] = [];
  let c = code;
  for (let i = 0; i < k; i++) {
    out.push(pool.mids[Number(c % M)]);
    c /= M;
  }
  return out;
}

/** The first body start from `pick` on whose `n`-token body ends at a clean cut, or null. */
function cleanStart(pool: TokenPool, pick: number, n: number): number | null {
  const L = pool.ids.length;
  const S = pool.starts.length;
  for (let k = 0; k < S; k++) {
    const s = pool.starts[(pick + k) % S];
    if (pool.endOk[(s + n) % L]) return s;
  }
  return null;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Checks, once per tokenizer, what the sliced path relies on: exact totals, blocks that keep
 * their tokens whatever follows them, and a prefix that keeps its tokens before a continuation.
 */
function passesSelfTest(tok: TextTokenizer, B: number): boolean {
  const key = `${tok.path}#${B}`;
  const cached = selfTested.get(key);
  if (cached !== undefined) return cached;
  let ok = true;
  try {
    // Its own synthesizer with a fixed seed, so the caller's streams are not touched.
    const t = new SegmentSynthesizer(tok, 'servebench-segment-self-test', { blockTokens: B }, true);
    const cases: [number[], number][] = [
      [[0, 1, 2], 3 * B],
      [[0, 1, 3], 2 * B + 1],
      [[0, 1, 4], 2 * B + 7],
      [[0, 1, 5], 3 * B - 1],
      [[0, 6], B + 40],
      [[0], B + 300],
      [[9], 2],
    ];
    const enc = cases.map(([ids, n]) => {
      const text = t.hashPrompt(ids, n);
      const got = tok.encode(text);
      if (got.length !== n) ok = false;
      return got;
    });
    // All but the last case share block 0, cases 0, 1 and 3 block 1 too: tokens must agree there.
    const shared = (a: number, b: number, n: number) => sameIds((enc[a] ?? []).slice(0, n), (enc[b] ?? []).slice(0, n));
    if (!shared(0, 1, 2 * B) || !shared(0, 3, 2 * B) || !shared(0, 4, B) || !shared(2, 5, B)) ok = false;
    const prefix = t.freshPrompt(57);
    const whole = t.withPrefix(prefix, 57, 200);
    const ids = tok.encode(whole);
    if (ids.length !== 200 || !sameIds(ids.slice(0, 57), tok.encode(prefix))) ok = false;
  } catch {
    ok = false;
  }
  selfTested.set(key, ok);
  return ok;
}

// Synthetic prompts of an exact token length under a given tokenizer, reproducible from a seed.
//
// A prompt of N >= 3 tokens is: a head word, two mid words, then N-3 tokens of the built-in
// corpus starting at a random word boundary (wrapping around for long prompts). The three
// prefix words come from a counter mapped through a bijection, so within one synthesizer
// prompts of the same length never repeat until heads*mids^2 prompts (~10^7 for the default
// tokenizer) and the random start offset varies the rest. That keeps a server's prefix cache
// from trivially hitting: prompts differ from their first token. Prompts of 1 or 2 tokens
// can only differ in those tokens and may repeat after heads (or heads*mids) prompts.
// Prompts longer than the corpus (~1.6k tokens under cl100k) repeat it; a server using
// n-gram / prompt-lookup speculation may decode after such prompts unusually fast.
//
// Exactness: in 'sliced' mode every cut point was checked when the pool was built and a
// self-test re-counts sample prompts; otherwise ('verified' mode) each prompt is decoded,
// re-encoded and trimmed or extended until it counts exactly N.

import { TokenizerLoadError, InvalidArgumentError } from '../errors.js';
import { Rng } from '../model/rng.js';
import { buildTokenPool, type TokenPool } from './pool.js';
import type { TextTokenizer } from './types.js';

/**
 * The longest prompt, in tokens, servebench synthesizes (--isl, a trace's input_length, prefixes):
 * the longest context window any model offers (10M tokens). Past it the prompt text would near
 * V8's string limit and no server could take it; a larger value is bad input.
 */
export const MAX_PROMPT_TOKENS = 10_000_000;

export interface SynthesizerOptions {
  /**
   * Re-count every prompt with the tokenizer and repair it if the count is off. Costs one
   * full encode per prompt (~2 ms per 1000 tokens); the self-test normally makes it unneeded.
   */
  verify?: boolean;
}

// prefixCode, bodyText, cycIds and verifiedPrompt are shared with segments.ts (trace blocks).

/** Multiplier of the counter→prefix bijection; prime, so coprime with any smaller modulus. */
const STEP = 2654435761n;
const FIXUP_ROUNDS = 10;
const START_RETRIES = 5;

const pools = new Map<string, TokenPool>();

/** The pool for a tokenizer, built and self-tested on first use (~0.1–0.2 s), then cached by path. */
export function getTokenPool(tok: TextTokenizer): TokenPool {
  let pool = pools.get(tok.path);
  if (!pool) {
    pool = buildTokenPool(tok);
    if (pool.mode === 'sliced' && !selfTest(tok, pool)) pool = { ...pool, mode: 'verified' };
    pools.set(tok.path, pool);
  }
  return pool;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** modulus → its step (a run uses a few moduli, and every prompt needs one: BigInt gcds are slow). */
const steps = new Map<bigint, bigint>();

/** counter → code in [0, modulus), one-to-one over any `modulus` consecutive counters. */
export function prefixCode(counter: bigint, salt: bigint, modulus: bigint): bigint {
  let step = steps.get(modulus);
  if (step === undefined) {
    step = STEP % modulus;
    while (gcd(step, modulus) !== 1n) step += 1n;
    if (steps.size < 64) steps.set(modulus, step);
  }
  return (counter * step + salt) % modulus;
}

/** N-token text of the corpus starting at token s (cyclic), as string slices. */
export function bodyText(pool: TokenPool, s: number, n: number): string {
  const L = pool.ids.length;
  const { text, off } = pool;
  const end = s + n;
  if (end <= L) return text.slice(off[s], off[end]);
  const full = Math.floor(end / L) - 1;
  return text.slice(off[s]) + text.repeat(full) + text.slice(0, off[end % L]);
}

function slicedPrompt(pool: TokenPool, n: number, counter: bigint, salt: bigint, pick: number): string | null {
  const H = BigInt(pool.heads.length);
  const M = BigInt(pool.mids.length);
  const modulus = n === 1 ? H : n === 2 ? H * M : H * M * M;
  const code = prefixCode(counter, salt, modulus);
  const head = pool.heads[Number(code % H)];
  if (n === 1) return head;
  const mid1 = pool.mids[Number((code / H) % M)];
  if (n === 2) return head + mid1;
  const prefix = head + mid1 + pool.mids[Number(code / H / M)];
  const body = n - 3;
  if (body === 0) return prefix;
  const L = pool.ids.length;
  const S = pool.starts.length;
  // Walk forward from the random start until the cut at the far end is a clean one.
  for (let k = 0; k < S; k++) {
    const s = pool.starts[(pick + k) % S];
    if (pool.endOk[(s + body) % L]) return prefix + bodyText(pool, s, body);
  }
  return null;
}

export function cycIds(pool: TokenPool, from: number, n: number): number[] {
  const L = pool.ids.length;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = pool.ids[(from + i) % L];
  return out;
}

/** Generic path: decode candidate ids, then re-encode and trim/extend until the count is exact. */
export function verifiedPrompt(tok: TextTokenizer, pool: TokenPool, n: number, counter: bigint, salt: bigint, pick: number): string | null {
  const U = BigInt(pool.uniqueIds.length);
  const k = Math.min(n, 3);
  let code = prefixCode(counter, salt, U ** BigInt(k));
  const ids: number[] = [];
  for (let i = 0; i < k; i++) {
    ids.push(pool.uniqueIds[Number(code % U)]);
    code /= U;
  }
  let next = pick % pool.ids.length;
  ids.push(...cycIds(pool, next, n - k));
  next += n - k;
  let text = tok.decode(ids);
  for (let round = 0; round < FIXUP_ROUNDS; round++) {
    const got = tok.encode(text);
    if (got.length === n) return text;
    if (got.length > n) {
      text = tok.decode(got.slice(0, n));
    } else {
      const add = cycIds(pool, next, n - got.length);
      next += add.length;
      text = tok.decode(got.concat(add));
    }
  }
  return null;
}

/** Re-counts a spread of lengths, including ones that wrap the corpus; false sends the pool to 'verified'. */
function selfTest(tok: TextTokenizer, pool: TokenPool): boolean {
  const L = pool.ids.length;
  const rng = new Rng('servebench-pool-self-test');
  const lengths = [1, 2, 3, 4, 5, 9, 33, 257, L - 1, L, L + 1, 2 * L + 17];
  let counter = 0n;
  for (const n of lengths) {
    for (let rep = 0; rep < 2; rep++) {
      const text = slicedPrompt(pool, n, counter++, 12345n, rng.int(0, pool.starts.length - 1));
      if (text === null || tok.count(text) !== n) return false;
    }
  }
  return true;
}

export class PromptSynthesizer {
  private readonly pool: TokenPool | null;
  private readonly salt: bigint;
  private counter = 0n;

  /** Builds (or reuses) the tokenizer's pool; draws its salt from `rng`, which it then owns. */
  constructor(
    private readonly tok: TextTokenizer,
    private readonly rng: Rng,
    private readonly options: SynthesizerOptions = {},
  ) {
    // A calibrated table (the server's tokenizer) needs no pool: it cannot encode locally.
    this.pool = tok.prompts ? null : getTokenPool(tok);
    this.salt = (BigInt(rng.nextUint32()) << 32n) | BigInt(rng.nextUint32());
  }

  /** 'sliced' (fast) or 'verified' (re-encodes every prompt); see pool.ts. */
  get mode(): TokenPool['mode'] | 'calibrated' {
    return this.pool?.mode ?? 'calibrated';
  }

  /** A prompt that counts exactly `tokens` tokens under this tokenizer (add_special_tokens off). */
  next(tokens: number): string {
    if (!Number.isInteger(tokens) || tokens < 0) {
      throw new InvalidArgumentError(`prompt length must be a non-negative integer, got ${tokens}`);
    }
    const counter = this.counter++;
    if (tokens === 0) return '';
    if (this.tok.prompts) return this.tok.prompts.prompt(tokens, counter, this.salt);
    const pool = this.pool as TokenPool;
    if (pool.mode === 'sliced') {
      const text = slicedPrompt(pool, tokens, counter, this.salt, this.rng.int(0, pool.starts.length - 1));
      if (text !== null && (!this.options.verify || this.tok.count(text) === tokens)) return text;
    }
    for (let attempt = 0; attempt < START_RETRIES; attempt++) {
      const pick = this.rng.int(0, pool.ids.length - 1);
      const text = verifiedPrompt(this.tok, pool, tokens, counter, this.salt, pick);
      if (text !== null) return text;
    }
    throw new TokenizerLoadError(`tokenizer '${this.tok.name}': cannot synthesize a prompt of exactly ${tokens} tokens`);
  }
}

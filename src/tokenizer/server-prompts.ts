// Synthetic prompts exact under the server's tokenizer (--tokenizer server), with no request per
// prompt: the corpus cut is calibrated against the server once, at start, and every prompt is then
// made from the table, cached per length.
//
// A prompt of N >= 4 tokens is: three prefix words (a head, two mids; one token each, checked),
// then q whole copies of the corpus, the corpus's first k words, and d filler words (mids again),
// where the server counted `prefix + corpus words 0..k` for every calibrated k. The prefix varies
// from prompt to prompt (a server's prefix cache does not hit from the first token); the rest is
// the same for one length. What the table assumes of the tokenizer (prefix words, whole corpus
// copies and fillers add their own tokens and nothing else at a word boundary) is checked against
// the server on samples, and a self-test counts sample prompts of assorted lengths; a tokenizer
// that breaks it is refused at start rather than giving prompts of the wrong length.
import { TokenizerLoadError } from '../errors.js';
import { CORPUS } from './corpus.js';
import type { PromptSource } from './types.js';

/** Counts every text; the server's tokenizer through ServerTokenCounter.countAll. */
export type CountAll = (texts: readonly string[]) => Promise<number[]>;

/** Calibrate every STRIDE-th word boundary; the fillers bridge the rest. */
const STRIDE = 4;
/** Prefix words kept (32³ prefixes per length), from twice as many candidates. */
const MAX_PREFIX_WORDS = 32;

function fail(why: string): never {
  throw new TokenizerLoadError(`--tokenizer server: cannot make prompts of exact length under the server's tokenizer (${why})`);
}

/** Prefix codes: counter → (head, mid, mid) one-to-one over head·mid² counters (same bijection idea as synthesize.ts). */
function pickCode(counter: bigint, salt: bigint, modulus: bigint): bigint {
  let step = 2654435761n % modulus;
  const gcd = (a: bigint, b: bigint): bigint => {
    while (b) [a, b] = [b, a % b];
    return a;
  };
  while (gcd(step, modulus) !== 1n) step += 1n;
  return (counter * step + salt) % modulus;
}

export class ServerPrompts implements PromptSource {
  /** Body text per length (after the prefix): the cache the hot path reads. */
  private readonly bodies = new Map<number, string>();

  private constructor(
    private readonly heads: string[],
    private readonly mids: string[],
    /** Word-boundary char offsets into CORPUS, and the body's token count there, both non-decreasing. */
    private readonly cutChars: number[],
    private readonly cutTokens: number[],
    /** Tokens of one whole corpus copy after the prefix. */
    private readonly copyTokens: number,
  ) {}

  /** Calibrates against the server: about corpus words / STRIDE + 8·MAX_PREFIX_WORDS counts (~650), in parallel. */
  static async calibrate(countAll: CountAll): Promise<ServerPrompts> {
    const words = CORPUS.match(/ [^ ]+/g) ?? [];
    if (words.join('') !== CORPUS) fail('the corpus does not split into words');
    const candidates = [...new Set(words.filter((w) => /^ [a-z]{3,}$/.test(w)))].slice(0, 2 * MAX_PREFIX_WORDS);

    const headCounts = await countAll(candidates.map((w) => w.slice(1)));
    let heads = candidates.map((w) => w.slice(1)).filter((_, i) => headCounts[i] === 1);
    if (heads.length < 2) fail('too few one-token words');
    const h0 = heads[0];
    const midCounts = await countAll(candidates.map((m) => h0 + m));
    let mids = candidates.filter((_, i) => midCounts[i] === 2);
    if (mids.length < 2) fail('too few one-token words after a space');
    const m0 = mids[0];
    const p0 = h0 + m0 + m0;

    // Cumulative body counts at word boundaries; the last one is the whole corpus.
    const cutChars: number[] = [];
    let at = 0;
    for (let k = 0; k < words.length; k++) {
      if (k % STRIDE === 0) cutChars.push(at);
      at += words[k].length;
    }
    cutChars.push(CORPUS.length);
    const [p0Count, ...bodyCounts] = await countAll([p0, ...cutChars.map((c) => p0 + CORPUS.slice(0, c))]);
    if (p0Count !== 3) fail(`the prefix "${p0}" is ${p0Count} tokens, not 3`);
    const cutTokens = bodyCounts.map((n) => n - 3);
    for (let i = 1; i < cutTokens.length; i++) if (cutTokens[i] < cutTokens[i - 1]) fail('counts shrink as the corpus grows');
    const copy = cutTokens[cutTokens.length - 1];

    // Each prefix word in each position, against one body: keep those that add exactly one token.
    const probe = cutChars[Math.min(20, cutChars.length - 1)];
    const body = CORPUS.slice(0, probe);
    const want = 3 + cutTokens[Math.min(20, cutChars.length - 1)];
    heads = heads.slice(0, MAX_PREFIX_WORDS);
    mids = mids.slice(0, MAX_PREFIX_WORDS);
    const hc = await countAll(heads.map((h) => h + m0 + m0 + body));
    const mc = await countAll(mids.flatMap((m) => [h0 + m + m0 + body, h0 + m0 + m + body, p0 + body + m + m0]));
    heads = heads.filter((_, i) => hc[i] === want);
    mids = mids.filter((_, i) => mc[3 * i] === want && mc[3 * i + 1] === want && mc[3 * i + 2] === want + 2);
    if (heads.length < 2 || mids.length < 2) fail('prefix words change the count of what follows them');

    const table = new ServerPrompts(heads, mids, cutChars, cutTokens, copy);
    await table.selfTest(countAll);
    return table;
  }

  /** Counts a spread of lengths (short, fillers, a corpus wrap) with the server; any miss refuses the tokenizer. */
  private async selfTest(countAll: CountAll): Promise<void> {
    const L = this.copyTokens;
    const lengths = [1, 2, 3, 4, 5, 6, 9, 17, 33, 64, 100, 257, L + 2, L + 3, L + 4, 2 * L + 7];
    const texts = lengths.map((n, i) => this.prompt(n, BigInt(i * 7919), 12345n));
    const got = await countAll(texts);
    const bad = lengths.findIndex((n, i) => got[i] !== n);
    if (bad >= 0) fail(`a prompt meant to be ${lengths[bad]} tokens counts ${got[bad]}`);
  }

  /** The part of an N-token prompt after its 3-token prefix: corpus copies, corpus words, fillers. */
  private body(n: number): string {
    let text = this.bodies.get(n);
    if (text !== undefined) return text;
    const r = n - 3;
    const q = Math.floor(r / this.copyTokens);
    const rest = r - q * this.copyTokens;
    // The longest calibrated cut that does not exceed `rest` tokens (binary search: cutTokens is sorted).
    let lo = 0;
    let hi = this.cutTokens.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.cutTokens[mid] <= rest) lo = mid;
      else hi = mid - 1;
    }
    let fill = '';
    for (let i = 0; i < rest - this.cutTokens[lo]; i++) fill += this.mids[(n + i) % this.mids.length];
    text = CORPUS.repeat(q) + CORPUS.slice(0, this.cutChars[lo]) + fill;
    this.bodies.set(n, text);
    return text;
  }

  prompt(n: number, counter: bigint, salt: bigint): string {
    if (n <= 0) return '';
    const H = BigInt(this.heads.length);
    const M = BigInt(this.mids.length);
    const modulus = n === 1 ? H : n === 2 ? H * M : H * M * M;
    const code = pickCode(counter, salt, modulus);
    const head = this.heads[Number(code % H)];
    if (n === 1) return head;
    const mid1 = this.mids[Number((code / H) % M)];
    if (n === 2) return head + mid1;
    const prefix = head + mid1 + this.mids[Number(code / H / M)];
    return n === 3 ? prefix : prefix + this.body(n);
  }
}

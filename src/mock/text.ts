// Seeded output text for the mock. Every word is emitted with a leading space and is exactly
// one token under cl100k (and, being common lowercase English, under other byte-level BPEs);
// the BPE pre-tokenizer splits at each leading space, so words never merge. A client that
// counts the concatenated text with a real tokenizer therefore gets exactly the token count
// the mock meant to send. Plain lowercase ASCII also means no JSON escaping is ever needed.

/** 128 words (a power of two, so a word is picked from 7 random bits). Checked by test/unit/mock/text.test.ts. */
// prettier-ignore
export const VOCAB: readonly string[] = Object.freeze([
  ' the', ' of', ' and', ' to', ' in', ' is', ' that', ' for', ' it', ' as', ' was', ' with',
  ' be', ' by', ' on', ' not', ' he', ' this', ' are', ' or', ' his', ' from', ' at', ' which',
  ' but', ' have', ' an', ' they', ' you', ' were', ' her', ' she', ' there', ' been', ' one', ' all',
  ' we', ' their', ' has', ' would', ' when', ' if', ' so', ' no', ' will', ' more', ' can', ' who',
  ' out', ' some', ' also', ' up', ' time', ' them', ' into', ' only', ' about', ' other', ' then', ' its',
  ' two', ' these', ' than', ' any', ' may', ' like', ' new', ' first', ' over', ' what', ' just', ' after',
  ' most', ' where', ' could', ' made', ' people', ' back', ' well', ' much', ' very', ' good', ' way', ' our',
  ' because', ' year', ' work', ' even', ' down', ' life', ' such', ' world', ' day', ' state', ' long', ' great',
  ' still', ' own', ' same', ' last', ' part', ' every', ' many', ' those', ' under', ' place', ' while', ' home',
  ' between', ' never', ' again', ' house', ' both', ' right', ' small', ' old', ' off', ' power', ' end', ' here',
  ' each', ' few', ' next', ' high', ' best', ' thing', ' city', ' point',
]);

/** Mulberry32: tiny, fast, good enough for picking words; returns uint32 values. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A uniform float in [0, 1) from a uint32 generator. */
export function unit(rng: () => number): number {
  return rng() / 4294967296;
}

/** FNV-1a over UTF-16 code units, continuing from `h`; used to derive per-request seeds from prompts. */
export function hashString(s: string, h = 0x811c9dc5): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Combine two 32-bit values into a well-mixed seed (murmur3 finaliser). */
export function mixSeed(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A seeded source of one-token words. `compound`: two words run together (" thewhile"), one token
 * under the mock's words tokenizer (words.ts) and usually two under cl100k.
 */
export class WordSource {
  private readonly rng: () => number;
  constructor(
    seed: number,
    private readonly compound = false,
  ) {
    this.rng = createRng(seed);
  }

  /** The next `n` tokens as one string. */
  take(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) {
      s += VOCAB[this.rng() >>> 25];
      if (this.compound) s += VOCAB[this.rng() >>> 25].slice(1);
    }
    return s;
  }
}

/** `n` tokens of text for `seed`; the same seed always gives the same text. */
export function generateText(seed: number, n: number): string {
  return new WordSource(seed).take(n);
}

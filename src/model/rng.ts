// Seeded PRNG: xoshiro128** seeded through splitmix32. Only 32-bit integer ops
// (Math.imul, shifts), so every platform and Node version yields the same stream.
// Math.random is never used for anything that must be reproducible.

/** FNV-1a over a string: turns seeds and fork labels into 32-bit keys. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** splitmix32 step: spreads a 32-bit key into well-mixed state words. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export class Rng {
  /** The path of seed and fork labels this stream was derived from; forks extend it. */
  private readonly key: string;
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `seed` may be any number or string; equal seeds give equal streams. */
  constructor(seed: number | string) {
    this.key = String(seed);
    const st = { s: hash32(this.key) };
    this.a = splitmix32(st);
    this.b = splitmix32(st);
    this.c = splitmix32(st);
    this.d = splitmix32(st);
    if ((this.a | this.b | this.c | this.d) === 0) this.d = 1; // all-zero state would stick at 0
  }

  /** Next raw 32-bit unsigned integer (xoshiro128**). */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1) with 53 bits of precision (two 32-bit draws). */
  next(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
      throw new RangeError(`Rng.int: need integers lo <= hi, got ${lo}, ${hi}`);
    }
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Normal sample (Box–Muller). Always consumes exactly two next() calls, so streams stay aligned. */
  normal(mean: number, std: number): number {
    const u1 = 1 - this.next(); // (0, 1]: log(0) is impossible
    const u2 = this.next();
    return mean + std * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  pick<T>(arr: readonly T[]): T {
    if (arr.length === 0) throw new RangeError('Rng.pick: empty array');
    return arr[this.int(0, arr.length - 1)];
  }

  /** Fisher–Yates, in place; returns the same array. */
  shuffle<T>(arr: T[]): T[] {
    for (let i = arr.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const tmp = arr[i];
      arr[i] = arr[j];
      arr[j] = tmp;
    }
    return arr;
  }

  /**
   * An independent stream derived from this stream's seed and `label`. It depends only on
   * the seed path, not on how many numbers were drawn here, and it does not advance this
   * stream: ISL sampling and prompt text stay fixed when an unrelated option changes.
   */
  fork(label: string): Rng {
    return new Rng(`${this.key}/${label}`);
  }
}

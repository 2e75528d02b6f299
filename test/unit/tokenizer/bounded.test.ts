// Counting stays linear in the text's length: long runs of one class are counted in pieces, the rest whole.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedCount, MAX_RUN } from '../../../src/tokenizer/bounded.js';
import { createTokenCounter, type TokenCounter } from '../../../src/tokenizer/count.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';

interface Enc {
  encode(text: string, allowed?: 'all'): Uint32Array;
  free(): void;
}
let enc: Enc;
let counter: TokenCounter;
const raw = (t: string) => enc.encode(t, 'all').length;

beforeAll(async () => {
  const { get_encoding } = createRequire(import.meta.url)('tiktoken') as { get_encoding: (n: string) => Enc };
  enc = get_encoding('cl100k_base');
  counter = await createTokenCounter((await loadTokenizer()).path);
});
afterAll(() => {
  enc.free();
  counter.free();
});

describe('boundedCount', () => {
  it('counts text without a long run whole, exactly as the tokenizer does', () => {
    const prose = 'The server streamed 1,024 tokens in 3.2 s; see https://example.com/a/b?c=d.\n\n  Indented code();\n'.repeat(400);
    const pieces: string[] = [];
    const exact = boundedCount((t) => (pieces.push(t), raw(t)), prose);
    expect(pieces).toEqual([prose]);
    expect(exact).toBe(raw(prose));
  });

  it('cuts runs longer than MAX_RUN into pieces of at most MAX_RUN, never inside a surrogate pair', () => {
    const text = 'start ' + 'a'.repeat(10 * MAX_RUN + 3) + ' ' + ' '.repeat(3 * MAX_RUN) + '😀'.repeat(2 * MAX_RUN) + ' end';
    const pieces: string[] = [];
    boundedCount((t) => (pieces.push(t), t.length), text);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) {
      for (const run of p.match(/\S+|\s+/g) ?? []) expect(run.length).toBeLessThanOrEqual(MAX_RUN + 1);
      expect(/^[\udc00-\udfff]/.test(p), 'a piece starts with a low surrogate').toBe(false);
    }
    expect(pieces.length).toBeGreaterThan(10);
  });

  it('keeps the count of a huge one-word text near the tokenizer’s, in time linear in its size', () => {
    // Unbounded, tiktoken took ~8 s for 40,000 letters and grows with the square.
    const small = 'a'.repeat(50_000);
    const big = 'a'.repeat(400_000);
    const t0 = performance.now();
    const nSmall = counter.count(small);
    const t1 = performance.now();
    const nBig = counter.count(big);
    const t2 = performance.now();
    expect(nBig).toBe(8 * nSmall);
    // One token per 8 letters either way (cl100k's longest 'a' token), within a token per cut.
    expect(Math.abs(nSmall - raw('a'.repeat(MAX_RUN * 4)) * (50_000 / (MAX_RUN * 4)))).toBeLessThan(50_000 / MAX_RUN + 2);
    expect(t2 - t1).toBeLessThan(5_000);
    // Linear: 8x the text, far less than 64x the time (generous for a loaded machine).
    expect((t2 - t1) / Math.max(t1 - t0, 1)).toBeLessThan(30);
  });
});

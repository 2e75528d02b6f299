import { describe, expect, it } from 'vitest';
import { pieceCounter } from '../../../src/tokenizer/piece-cache.js';

// A toy BPE: a piece of n characters is ceil(n / 3) tokens; `calls` counts how often it ran.
function toy() {
  const calls: string[] = [];
  const countPiece = (p: string) => {
    calls.push(p);
    return Math.ceil(p.length / 3);
  };
  return { calls, countPiece };
}
const WORDS = /\s?\p{L}+|\p{N}{1,3}|\s+|[^\s\p{L}\p{N}]+/gu;

describe('pieceCounter', () => {
  it('sums the pieces and counts each distinct piece once', () => {
    const t = toy();
    const count = pieceCounter({ split: WORDS, countPiece: t.countPiece, fallback: () => false });
    // " the" ×3 (2 tokens each), " server" (3), "12345" → "123" (1) + "45" (1)
    expect(count(' the the server the 12345')).toBe(2 + 2 + 3 + 2 + 1 + 1 + 1);
    expect(t.calls.filter((p) => p === ' the')).toHaveLength(1);
    expect(count(' the the')).toBe(4);
    expect(t.calls.filter((p) => p === ' the')).toHaveLength(1);
  });

  it('counts a text the fallback names whole, and long pieces each time', () => {
    const t = toy();
    const count = pieceCounter({ split: WORDS, countPiece: t.countPiece, fallback: (s) => s.includes('<|') });
    expect(count('a<|x|>b')).toBe(3);
    expect(t.calls).toEqual(['a<|x|>b']);
    const long = ' ' + 'a'.repeat(40);
    expect(count(long + long)).toBe(28);
    expect(t.calls.filter((p) => p === long)).toHaveLength(2);
  });

  it('counts whole when the split leaves characters out, rather than undercounting', () => {
    const t = toy();
    const lettersOnly = pieceCounter({ split: /\p{L}+/gu, countPiece: t.countPiece, fallback: () => false });
    expect(lettersOnly('abc def')).toBe(3);
    expect(t.calls.at(-1)).toBe('abc def');
  });

  it('stays exact with a cache far smaller than the vocabulary of pieces', () => {
    const t = toy();
    const small = pieceCounter({ split: WORDS, countPiece: t.countPiece, fallback: () => false, maxEntries: 4 });
    const plain = (s: string) => [...s.matchAll(WORDS)].reduce((n, m) => n + Math.ceil(m[0].length / 3), 0);
    for (let i = 0; i < 500; i++) {
      const s = Array.from({ length: 1 + (i % 17) }, (_, k) => ` w${'x'.repeat((i * 7 + k) % 11)}${k % 3 === 0 ? ' 1234' : ''}`).join('');
      expect(small(s)).toBe(plain(s));
    }
  });

  it('refuses a split that is not global and unicode', () => {
    expect(() => pieceCounter({ split: /\w+/u, countPiece: () => 1, fallback: () => false })).toThrow(/global, unicode/);
  });
});

describe('pieceCounter with gaps (Hugging Face "Isolated" splits)', () => {
  it('counts the text between matches as pieces too', () => {
    const t = toy();
    const digits = pieceCounter({ split: /\p{N}/gu, gaps: true, countPiece: t.countPiece, fallback: () => false });
    // "abcd" (2) "1" (1) "xy" (1) "2" (1) "3" (1) "z" (1)
    expect(digits('abcd1xy23z')).toBe(7);
    expect(t.calls).toEqual(['abcd', '1', 'xy', '2', '3', 'z']);
  });
});

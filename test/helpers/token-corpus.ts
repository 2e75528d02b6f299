// Texts for token-count exactness tests.
import { rng } from './rng.js';

/** Random texts in several scripts: ASCII prose, CJK, emoji (with ZWJ and skin tones), code, and mixes. */
export function corpus(n: number, seed: number): string[] {
  const r = rng(seed);
  const int = (k: number) => Math.floor(r() * k);
  const cp = (lo: number, hi: number) => String.fromCodePoint(lo + int(hi - lo));
  const words = [
    'the',
    'server',
    'latency',
    'Token',
    "don't",
    "it's",
    'naïve',
    'café',
    'Straße',
    'ПРИВЕТ',
    'мир',
    'γειά',
    'שלום',
    'مرحبا',
    'नमस्ते',
  ];
  const code = [
    'if (x) {',
    '\n  return y;',
    '}\n',
    '\tconst a = b[i] + 1;',
    ' // comment',
    '   ',
    '\r\n',
    '123456',
    ' 3.14159',
    '!==',
    '=>',
    '"\\u00e9"',
    '<|endoftext|>',
    '\n\n\n',
  ];
  const piece = (kind: number): string => {
    switch (kind) {
      case 0:
        return ' ' + words[int(words.length)] + (r() < 0.1 ? '.' : '');
      case 1:
        return cp(0x4e00, 0x9fff) + (r() < 0.2 ? cp(0x3040, 0x30ff) : '') + (r() < 0.1 ? '、' : '');
      case 2:
        return (
          cp(0x1f300, 0x1faff) +
          (r() < 0.2 ? '\u200d' + cp(0x1f466, 0x1f46a) : '') +
          (r() < 0.1 ? '\u{1f3fd}' : '') +
          (r() < 0.3 ? ' ' : '')
        );
      case 3:
        return code[int(code.length)];
      default:
        return cp(0x20, 0x7f) + (r() < 0.05 ? cp(0x80, 0x2fff) : '');
    }
  };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const main = int(5);
    const len = 1 + int(30);
    let t = '';
    for (let k = 0; k < len; k++) t += piece(r() < 0.8 ? main : int(5));
    out.push(t);
  }
  return out;
}

// Fake tokenizers with awkward shapes, for the prompt and trace-block synthesis tests.
// `path` is the tokenizer cache key, so each test file can keep its own pool.
import type { TextTokenizer } from '../../src/tokenizer/types.js';

/** SentencePiece-style (Llama 2): prepends a space when encoding, strips it when decoding. */
export function prependingTokenizer(base: TextTokenizer, path: string): TextTokenizer {
  const encode = (text: string): number[] => (text === '' ? [] : base.encode(` ${text}`));
  return {
    name: 'prepend-fake',
    path,
    encode,
    count: (text) => encode(text).length,
    decode: (ids) => base.decode(ids).replace(/^ /, ''),
  };
}

/** Characters, except that "th" merges into one token: context-dependent like BPE, not sliceable. */
export function mergingTokenizer(path: string): TextTokenizer {
  const TH = 0x10ffff + 1;
  const encode = (text: string): number[] => {
    const ids: number[] = [];
    for (let i = 0; i < text.length; i++) {
      if (text[i] === 't' && text[i + 1] === 'h') {
        ids.push(TH);
        i++;
      } else ids.push(text.charCodeAt(i));
    }
    return ids;
  };
  return {
    name: 'merge-fake',
    path,
    encode,
    count: (text) => encode(text).length,
    decode: (ids) => ids.map((id) => (id === TH ? 'th' : String.fromCharCode(id))).join(''),
  };
}

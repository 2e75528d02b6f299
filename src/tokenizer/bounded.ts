// BPE cost is quadratic in the length of one pre-token, in tiktoken's and in @huggingface/tokenizers'
// (a 40,000-letter word took 8 s; a 1 MB one, hours). A server can send one, so counting cuts every
// run of one class (whitespace or not) longer than MAX_RUN into pieces of MAX_RUN and counts the
// pieces apart. Text without such a run (real text: words, numbers, URLs) is counted whole and
// exactly; a text with one is off by at most about one token per cut.

/** Longest run of whitespace, or of anything else, handed to the tokenizer in one piece. */
export const MAX_RUN = 64;

function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `count(text)`, linear in the text's length whatever it holds (see above). */
export function boundedCount(count: (text: string) => number, text: string): number {
  if (text.length <= MAX_RUN) return count(text);
  let total = 0;
  let pieceStart = 0;
  let runStart = 0;
  let runSpace = isSpace(text.charCodeAt(0));
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const sp = isSpace(c);
    if (sp !== runSpace) {
      runSpace = sp;
      runStart = i;
    } else if (i - runStart >= MAX_RUN && !(c >= 0xdc00 && c <= 0xdfff)) {
      // Never between the halves of a surrogate pair.
      total += count(text.slice(pieceStart, i));
      pieceStart = runStart = i;
    }
  }
  return pieceStart === 0 ? count(text) : total + count(text.slice(pieceStart));
}

// The tokenizer surface the rest of servebench sees. Kept minimal so that other
// back ends (a native tokenizer, a server-side count) can implement it later.

export interface TextTokenizer {
  /** What the user asked for (the --tokenizer spec), or the default package name. */
  readonly name: string;
  /** Absolute path of the tokenizer.json that was loaded; tokenizers are cached by it. */
  readonly path: string;
  /** Number of tokens in `text`, without special tokens (BOS/EOS are not part of the prompt). */
  count(text: string): number;
  /** Token ids of `text`, without special tokens. */
  encode(text: string): number[];
  decode(ids: number[]): string;
}

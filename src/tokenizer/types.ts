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
  /**
   * Set when prompts cannot be cut locally (the server's tokenizer): synthetic prompts come from
   * this calibrated table instead of the token pool.
   */
  readonly prompts?: PromptSource;
  /** Set for the server's tokenizer: where record workers count outputs (tokenizer/server.ts). */
  readonly server?: TokenizeSpec;
}

export type TokenizeApi = 'vllm' | 'sglang' | 'llama.cpp' | 'tgi';

/** What it takes to call a server's tokenize endpoint; plain data (crosses to worker threads). */
export interface TokenizeSpec {
  api: TokenizeApi;
  /** The endpoint's full URL. */
  url: string;
  model: string;
  /** Request headers (authorization included): never logged. */
  headers: Record<string, string>;
}

/** Exact-length prompts from a calibrated table (tokenizer/server-prompts.ts). */
export interface PromptSource {
  /** A prompt of exactly `n` tokens; prompts of one length differ with `counter` (and `salt`). */
  prompt(n: number, counter: bigint, salt: bigint): string;
}

// The mock's own tokenizer (--tokenizer-kind words), deliberately unlike cl100k so tests can tell
// a client that counts with the server's tokenizer from one that counts with its own: a token is a
// maximal run of ASCII letters and digits, or any other single non-space character; whitespace is
// no token. "Hello, world!" is 4 tokens; " thewhile" is 1 (cl100k: 2). The mock serves it at
// POST /tokenize in vLLM's shape ({model, prompt} → {tokens, count, max_model_len}) and in
// llama.cpp's ({content} → {tokens}), and counts usage with it.
import { BadRequestError } from '../errors.js';
import { hashString } from './text.js';

export const TOKENIZER_KINDS = ['cl100k', 'words'] as const;
export type TokenizerKind = (typeof TOKENIZER_KINDS)[number];

const TOKEN = /[A-Za-z0-9]+|[^\sA-Za-z0-9]/gu;
/** What /tokenize reports as max_model_len (vLLM's field); the mock has no real limit. */
const MAX_MODEL_LEN = 1_000_000;

/** Tokens of `text` under the words tokenizer. */
export function wordTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function countWords(text: string): number {
  let n = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text) !== null) n++;
  return n;
}

/** Stable ids: a hash of the token's text (the count is what matters, the ids only look real). */
function ids(text: string): number[] {
  return wordTokens(text).map((t) => hashString(t) % 100_000);
}

/** The JSON answer of POST /tokenize for a parsed body, in the shape the body asks for. */
export function tokenizeResponse(body: unknown): string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('request body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.prompt === 'string') {
    const tokens = ids(b.prompt);
    return JSON.stringify({ tokens, count: tokens.length, max_model_len: MAX_MODEL_LEN });
  }
  if (typeof b.content === 'string') return JSON.stringify({ tokens: ids(b.content) });
  throw new BadRequestError('tokenize needs "prompt" (vLLM) or "content" (llama.cpp), a string');
}

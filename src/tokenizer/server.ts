// `--tokenizer server`: the server's own tokenizer through its tokenize endpoint. Which endpoint the
// server offers is found at start by probing the known shapes in turn; the answer is one plain
// object (TokenizeSpec) so record workers can build the same client.
//   vLLM       POST /tokenize     {model, prompt, add_special_tokens:false} → {tokens, count, max_model_len}
//   SGLang     POST /v1/tokenize  the same request and answer (SGLang also serves it at /tokenize, so the
//                                 vLLM probe usually finds it first and the run names it "vllm")
//   llama.cpp  POST /tokenize     {content, add_special:false}              → {tokens}
//   TGI        POST /tokenize     {inputs, add_special_tokens:false}        → [{id, text, start, stop, special?}]
// A body without the field a server wants is refused (vLLM, TGI) or answered with no tokens
// (llama.cpp), so a probe counts only when its answer has the shape and at least one token.
import { request } from 'undici';
import { InvalidArgumentError, TokenizerLoadError } from '../errors.js';
import { ServerPrompts } from './server-prompts.js';
import type { TextTokenizer, TokenizeApi, TokenizeSpec } from './types.js';

interface Shape {
  api: TokenizeApi;
  path: string;
  body(text: string, model: string): Record<string, unknown>;
  /** Tokens in the answer, or null when the answer is not this shape. */
  parse(json: unknown): number | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const openaiLike = (json: unknown): number | null =>
  isObject(json) && Array.isArray(json.tokens) && typeof json.count === 'number' ? json.count : null;

const SHAPES: readonly Shape[] = [
  { api: 'vllm', path: '/tokenize', body: (t, m) => ({ model: m, prompt: t, add_special_tokens: false }), parse: openaiLike },
  { api: 'sglang', path: '/v1/tokenize', body: (t, m) => ({ model: m, prompt: t, add_special_tokens: false }), parse: openaiLike },
  {
    api: 'llama.cpp',
    path: '/tokenize',
    body: (t) => ({ content: t, add_special: false }),
    parse: (json) => (isObject(json) && Array.isArray(json.tokens) && json.count === undefined ? json.tokens.length : null),
  },
  {
    api: 'tgi',
    path: '/tokenize',
    body: (t) => ({ inputs: t, add_special_tokens: false }),
    // Special tokens the server adds anyway (a BOS) are no part of the text.
    parse: (json) => (Array.isArray(json) && json.every(isObject) ? json.filter((t) => t.special !== true).length : null),
  },
];

const PROBE_TEXT = 'servebench checks the tokenize endpoint';
const TIMEOUT_MS = 30_000;

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: unknown }> {
  // undici's request rather than fetch: a third of fetch's cost per call, which calibration makes hundreds of.
  const res = await request(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = null;
  }
  return { status: res.statusCode, json };
}

function shapeOf(api: TokenizeApi): Shape {
  return SHAPES.find((s) => s.api === api) as Shape;
}

/** Finds which tokenize endpoint the server offers; throws TokenizerLoadError (exit 2) when none. */
export async function detectTokenizeEndpoint(baseUrl: string, model: string, given: Record<string, string>): Promise<TokenizeSpec> {
  // Credentials in the URL become a basic authorization header, so no URL kept or shown carries them.
  const u = new URL(baseUrl);
  const headers = { ...given };
  if ((u.username !== '' || u.password !== '') && !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
  }
  u.username = '';
  u.password = '';
  const root = u.toString().replace(/\/+$/, '');
  for (const s of SHAPES) {
    try {
      const { status, json } = await post(root + s.path, headers, s.body(PROBE_TEXT, model));
      const n = status === 200 ? s.parse(json) : null;
      if (n !== null && n > 0) return { api: s.api, url: root + s.path, model, headers };
    } catch {
      // Unreachable or not JSON: the next shape.
    }
  }
  throw new TokenizerLoadError(
    `--tokenizer server: ${root} offers no tokenize endpoint (tried POST /tokenize as vLLM, llama.cpp and TGI, POST /v1/tokenize as SGLang); ` +
      "pass the model's --tokenizer, or --use-server-token-count",
  );
}

/** Counts text with the server's tokenizer, at most `parallel` requests at a time. */
export class ServerTokenCounter {
  private readonly shape: Shape;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly spec: TokenizeSpec,
    private readonly parallel = 8,
  ) {
    this.shape = shapeOf(spec.api);
  }

  /** Tokens of `text`; rejects with a one-line reason (never the headers) when the server does not answer. */
  async count(text: string): Promise<number> {
    if (text === '') return 0;
    if (this.active >= this.parallel) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      const { status, json } = await post(this.spec.url, this.spec.headers, this.shape.body(text, this.spec.model));
      const n = status === 200 ? this.shape.parse(json) : null;
      if (n === null) throw new Error(`${this.spec.api} tokenize at ${this.spec.url} answered ${status} without tokens`);
      return n;
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  countAll(texts: readonly string[]): Promise<number[]> {
    return Promise.all(texts.map((t) => this.count(t)));
  }
}

/**
 * The server's tokenizer as the run sees it: synthetic prompts from a table calibrated against the
 * server (server-prompts.ts), outputs counted by the record workers through `server`. It cannot
 * count, encode or decode on the spot: whatever asks it to has no place in a --tokenizer server run.
 */
export async function loadServerTokenizer(spec: TokenizeSpec): Promise<TextTokenizer> {
  const counter = new ServerTokenCounter(spec, 16);
  const prompts = await ServerPrompts.calibrate((texts) => counter.countAll(texts)).catch((err: unknown) => {
    if (err instanceof TokenizerLoadError) throw err;
    throw new TokenizerLoadError(
      `--tokenizer server: calibrating prompts against ${spec.url} failed (${err instanceof Error ? err.message : String(err)})`,
    );
  });
  const local = (what: string): never => {
    throw new InvalidArgumentError(`--tokenizer server: the server's tokenizer cannot ${what} locally`);
  };
  return {
    name: `server (${spec.api} ${new URL(spec.url).pathname})`,
    path: `server:${spec.url}`,
    count: () => local('count'),
    encode: () => local('encode'),
    decode: () => local('decode'),
    prompts,
    server: spec,
  };
}

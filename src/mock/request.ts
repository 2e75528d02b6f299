// Turns a parsed request body into a generation plan: how many tokens, which seed, which shape.
// Pure (no I/O), so every length rule is unit-testable without a server.
import { BadRequestError } from '../errors.js';
import { DEFAULT_LENGTH_MAX, DEFAULT_LENGTH_MIN, MAX_OUTPUT_TOKENS, type MockOptions } from './options.js';
import { planSpecSteps, type SpecSteps } from './spec-decode.js';
import { createRng, hashString, mixSeed, unit } from './text.js';
import { countWords } from './words.js';

export type EndpointKind = 'chat' | 'completions';
export type FinishReason = 'stop' | 'length';

export interface GenerationPlan {
  kind: EndpointKind;
  stream: boolean;
  /** stream_options.include_usage: a final usage chunk with empty choices. */
  includeUsage: boolean;
  /** stream_options.continuous_usage_stats (vLLM): cumulative usage on every chunk. */
  continuousUsage: boolean;
  /** Echoed in responses: the request's model, else the served name. */
  model: string;
  /** A cheap estimate (ceil(chars / 4) plus any token-id prompts), or under --tokenizer-kind words its count. */
  promptTokens: number;
  /** Output text in the words tokenizer's tokens (--tokenizer-kind words) rather than cl100k's. */
  words: boolean;
  contentTokens: number;
  reasoningTokens: number;
  finishReason: FinishReason;
  /** Seeds the output words; derived from --seed and the prompt, so equal requests get equal text. */
  textSeed: number;
  /** Simulated speculative-decoding verify steps over every output token; null when off. */
  specSteps?: SpecSteps | null;
}

type Body = Record<string, unknown>;

function optInt(body: Body, key: string, min: number): number | null {
  const v = body[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > MAX_OUTPUT_TOKENS) {
    throw new BadRequestError(`${key} must be an integer in [${min}, ${MAX_OUTPUT_TOKENS}]`);
  }
  return v;
}

/** Characters of prompt text and count of literal token ids, walking the OpenAI prompt shapes. */
function promptSize(kind: EndpointKind, body: Body): { chars: number; words: number; ids: number; hash: number } {
  let chars = 0;
  let words = 0;
  let ids = 0;
  let hash = 0x811c9dc5;
  const addText = (s: string) => {
    chars += s.length;
    words += countWords(s);
    hash = hashString(s, hash);
  };
  if (kind === 'chat') {
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0) {
      throw new BadRequestError('messages must be a non-empty array');
    }
    for (const m of messages) {
      if (m === null || typeof m !== 'object') throw new BadRequestError('each message must be an object');
      const content = (m as Body).content;
      if (typeof content === 'string') addText(content);
      else if (Array.isArray(content)) {
        for (const part of content) {
          const text = part && typeof part === 'object' ? (part as Body).text : undefined;
          if (typeof text === 'string') addText(text);
        }
      }
    }
  } else {
    const prompt = body.prompt;
    const visit = (p: unknown): void => {
      if (typeof p === 'string') addText(p);
      else if (typeof p === 'number') {
        ids++;
        hash = mixSeed(hash, p);
      } else if (Array.isArray(p)) for (const q of p) visit(q);
      else throw new BadRequestError('prompt must be a string, an array of strings or an array of token ids');
    };
    if (prompt === undefined || prompt === null) throw new BadRequestError('prompt is required');
    visit(prompt);
  }
  return { chars, words, ids, hash };
}

export function planGeneration(kind: EndpointKind, body: unknown, opts: MockOptions): GenerationPlan {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestError('request body must be a JSON object');
  }
  const b = body as Body;
  const { chars, words, ids, hash } = promptSize(kind, b);

  // For chat, max_completion_tokens is the current name and wins over the legacy max_tokens.
  const maxCompletion = kind === 'chat' ? optInt(b, 'max_completion_tokens', 1) : null;
  const maxTokens = maxCompletion ?? optInt(b, 'max_tokens', 1);
  const minTokens = optInt(b, 'min_tokens', 0) ?? 0;
  if (maxTokens !== null && minTokens > maxTokens) {
    throw new BadRequestError(`min_tokens (${minTokens}) must be <= max_tokens (${maxTokens})`);
  }
  const ignoreEos = b.ignore_eos === true;

  const rng = createRng(mixSeed(opts.seed, hash));
  let length: number;
  let finishReason: FinishReason;
  if (maxTokens !== null) {
    length = maxTokens;
    finishReason = 'length';
  } else {
    // No limit asked: a natural-looking seeded length, as if the model stopped by itself.
    const lo = Math.max(minTokens, DEFAULT_LENGTH_MIN);
    const hi = Math.max(minTokens, DEFAULT_LENGTH_MAX);
    length = lo + Math.floor(unit(rng) * (hi - lo + 1));
    finishReason = 'stop';
  }
  if (!ignoreEos && opts.eosProbability > 0) {
    // Geometric draw of the first eos after the floor: same distribution as a per-token coin, O(1).
    const floor = Math.max(minTokens, 1);
    const p = opts.eosProbability;
    const extra = p >= 1 ? 0 : Math.floor(Math.log(1 - unit(rng)) / Math.log(1 - p));
    if (floor + extra < length) {
      length = floor + extra;
      finishReason = 'stop';
    }
  }

  const streamOptions = b.stream_options && typeof b.stream_options === 'object' ? (b.stream_options as Body) : null;
  const stream = b.stream === true;
  const reasoningTokens = kind === 'chat' ? opts.reasoningTokens : 0;
  const textSeed = rng();
  return {
    kind,
    stream,
    includeUsage: stream && streamOptions?.include_usage === true,
    continuousUsage: stream && streamOptions?.continuous_usage_stats === true,
    model: typeof b.model === 'string' && b.model !== '' ? b.model : opts.modelName,
    promptTokens: (opts.tokenizerKind === 'words' ? words : Math.ceil(chars / 4)) + ids,
    words: opts.tokenizerKind === 'words',
    contentTokens: length,
    reasoningTokens,
    finishReason,
    textSeed,
    // Its own seeded stream (from textSeed), so turning spec decode on changes no other draw.
    specSteps: planSpecSteps(length + reasoningTokens, opts.specDecodeDraftLen, opts.specDecodeAcceptance, textSeed),
  };
}

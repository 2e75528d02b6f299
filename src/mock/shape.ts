// How the mock's timed writers (stream.ts) are told another API's shapes: the events of a stream
// and the body of a non-streaming answer. OpenAI chat/completions (openai.ts ChunkFormatter) is the
// default; the other APIs (apis.ts) bring their own, and their own reading of the request.
import type { MockOptions } from './options.js';
import { BadRequestError } from '../errors.js';
import { planGeneration, type GenerationPlan } from './request.js';

/** The SSE text of each step of a stream, in the order StreamJob writes them. */
export interface StreamFormat {
  /** Before the first token (OpenAI's role chunk; another API's opening events). */
  role(usage: string | null): string;
  content(text: string, finish: GenerationPlan['finishReason'] | null, usage: string | null, spec: string | null): string;
  reasoning(text: string, usage: string | null, spec: string | null): string;
  /** The closing events with the usage (the plan's totals; `usage` is OpenAI's JSON of them). */
  usage(usage: string): string;
  /** The stream's last event; absent: OpenAI's `data: [DONE]`. */
  done?(): string;
  /** The --fail-mode sse-error event; absent: OpenAI's error chunk. */
  error?(): string;
}

export interface ResponseShape {
  stream(): StreamFormat;
  /** The non-streaming body, given the generated texts. */
  body(content: string, reasoning: string): string;
}

type Body = Record<string, unknown>;

/** The request body as an object, or a 400. */
export function requestObject(body: unknown): Body {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('request body must be a JSON object');
  return body as Body;
}

/** The plan of a chat request made of these messages; always with usage at the end of a stream. */
export function chatPlan(
  body: Body,
  messages: { role: string; content: unknown }[],
  maxTokens: unknown,
  opts: MockOptions,
): GenerationPlan {
  if (messages.length === 0) throw new BadRequestError('the request has no input');
  const chat: Body = { model: body.model, messages, stream: body.stream === true, stream_options: { include_usage: true } };
  if (maxTokens !== undefined && maxTokens !== null) chat.max_tokens = maxTokens;
  return planGeneration('chat', chat, opts);
}

/** A route the mock serves beside chat/completions: its plan from the request, and its shapes. */
export interface MockApi {
  /** Throws BadRequestError (a 400) when the body is not this API's request. */
  plan(body: Record<string, unknown>, opts: MockOptions): GenerationPlan;
  shape(plan: GenerationPlan, id: string, created: number, body: Record<string, unknown>, path: string): ResponseShape;
}

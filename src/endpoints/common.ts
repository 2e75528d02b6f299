// Helpers shared by the OpenAI-style adapters.
import type { BodySettings, Payload } from './types.js';
import { PayloadParseError } from '../errors.js';
import type { Turn } from '../model/turn.js';
import type { DecodeSource } from '../model/decoded.js';
import { firstTextOf, parseFieldPath } from './field-path.js';
import { quoteNonFiniteTokens } from './lenient-json.js';
import { specDecodeOfPayload } from './spec-decode.js';
import { usageOfPayload } from './usage.js';

export function decodeJson(data: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch (err) {
    // Bare NaN/Infinity (Python servers) become strings: that field gets no value, the payload survives.
    const retry = quoteNonFiniteTokens(data);
    try {
      if (retry === null) throw err;
      v = JSON.parse(retry);
    } catch {
      throw new PayloadParseError(`invalid JSON in response: ${(err as Error).message}`);
    }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new PayloadParseError('response is not a JSON object');
  return v as Record<string, unknown>;
}

/** An `error` object in a payload (OpenAI, vLLM and SGLang all use this shape). */
export function errorPayload(o: Record<string, unknown>): Payload | null {
  if (!('error' in o) || o.error === null || o.error === undefined) return null;
  const e = o.error as Record<string, unknown> | string;
  const message = typeof e === 'string' ? e : typeof e.message === 'string' ? e.message : JSON.stringify(e);
  return { kind: 'error', message };
}

/**
 * The message of an SSE `event: error` event: the server's own words when its data has them (an
 * `error` object or string, or a `message` field), else the data itself, shortened; never empty.
 */
export function errorEventMessage(data: string): string {
  let o: unknown = null;
  try {
    o = JSON.parse(data);
  } catch {
    // Plain text: the text is the message.
  }
  if (o !== null && typeof o === 'object' && !Array.isArray(o)) {
    const rec = o as Record<string, unknown>;
    const fromError = errorPayload(rec);
    if (fromError?.kind === 'error') return fromError.message;
    if (typeof rec.message === 'string' && rec.message !== '') return rec.message;
  }
  const text = data.trim();
  if (text === '') return 'error event from the server (no message)';
  return text.length > 300 ? text.slice(0, 300) + '…' : text;
}

/** Body fields every OpenAI-style request carries. */
export function commonBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'streaming' | 'per_chunk_usage'>): Record<string, unknown> {
  const body: Record<string, unknown> = { model: cfg.model, stream: cfg.streaming };
  if (turn.max_tokens !== null) body.max_tokens = turn.max_tokens;
  // --per-chunk-usage: cumulative usage on every chunk (vLLM, TRT-LLM), for the ITL first-chunk correction.
  if (cfg.streaming)
    body.stream_options = cfg.per_chunk_usage ? { include_usage: true, continuous_usage_stats: true } : { include_usage: true };
  return body;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Decode an OpenAI-style payload; `pick` reads one choice's content and reasoning text. */
export function parseChoicesPayload(data: string, pick: (choice: Record<string, unknown>) => [string, string]): Payload {
  if (data === '[DONE]') return { kind: 'done' };
  const o = decodeJson(data);
  const err = errorPayload(o);
  if (err) return err;
  const choices = Array.isArray(o.choices) ? (o.choices as Record<string, unknown>[]) : [];
  let content = '';
  let reasoning = '';
  for (const c of choices) {
    if (!c || typeof c !== 'object') continue;
    const [text, thought] = pick(c);
    content += text;
    reasoning += thought;
  }
  const spec = specDecodeOfPayload(o);
  const payload: Payload = { kind: 'data', content, reasoning, has_choices: choices.length > 0, usage: usageOfPayload(o) };
  if (spec) payload.spec_decode = spec;
  const finish = firstTextOf(o, CHOICE_FINISH_PATHS);
  if (finish !== null) payload.finish_reason = finish;
  return payload;
}

/**
 * Where OpenAI-style payloads say why the response ended: the first choice with a finish_reason
 * (a stream's chunks carry null until the last; a whole body has it on its message's choice).
 */
export const CHOICE_FINISH = ['choices[*].finish_reason'];
const CHOICE_FINISH_PATHS = CHOICE_FINISH.map((p) => parseFieldPath(p)!);

/** The decodeSpec parts every OpenAI-style payload shares: as errorPayload, usageOfPayload and specDecodeOfPayload read them. */
export const COMMON_DECODE = {
  choices: 'choices',
  usage: [
    { path: 'usage', test: 'object' },
    { path: 'usageMetadata', test: 'object' },
  ] as DecodeSource[],
  error: 'error',
  spec_decode: [
    { path: 'spec_decode', test: 'present' },
    { path: 'metrics.speculative_decoding', test: 'object' },
    { path: 'sglext.spec_tokens_details', test: 'object' },
    { path: 'choices[*].sglext.spec_tokens_details', test: 'object' },
  ] as DecodeSource[],
};

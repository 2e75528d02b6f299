// single_turn JSONL: one request per line.
//   {"text": "…"} | {"prompt": "…"} | {"messages": [{"role": "user", "content": "…"}, …]}
//   optional "max_tokens" (or "output_length"), "timestamp" (ms) or "delay" (ms after the previous line),
//   "image" | "images" and "audio" (media-entry.ts), "passages" (rankings: the texts ranked against the prompt)

import { samplerFor, fallbackMaxTokens, type LoadContext } from './context.js';
import { readTurn, resolveTimes, sortByTime, type TurnEntry } from './entries.js';
import { Fields, kindOf, parseJsonl } from './file.js';
import { readEntryMedia } from './media-entry.js';
import { IndexedSource } from './source.js';
import type { Conversation, ConversationTurn } from './types.js';
import type { TurnMedia } from '../model/media.js';

export function loadSingleTurn(ctx: LoadContext, text: string): IndexedSource {
  const entries: (TurnEntry & { media?: TurnMedia; passages?: string[] })[] = parseJsonl(ctx.file, text).map((r) => {
    const f = new Fields(ctx.file, r.line, r.value);
    const media = readEntryMedia(f, ctx.file);
    const passages = readPassages(f);
    return { ...readTurn(f, true), ...(media ? { media } : {}), ...(passages ? { passages } : {}) };
  });
  const times = resolveTimes(ctx.file, entries);
  const timed = times[0] !== null;
  let items = entries.map((e, i) => ({ e, at: times[i] ?? null }));
  if (timed) items = sortByTime(items, (x) => x.at as number, ctx.warn, ctx.file);
  return new IndexedSource({
    kind: 'single_turn',
    hasTimestamps: timed,
    singleTurn: true,
    sampler: samplerFor(ctx, items.length),
    cache: true,
    build: (i) => {
      const { e, at } = items[i];
      const turn: ConversationTurn = {
        prompt: e.text,
        isl: ctx.tokenizer.count(e.text),
        max_tokens: e.max_tokens ?? fallbackMaxTokens(ctx, `${e.line}`),
        timestamp_ms: at,
        delay_ms: null,
      };
      if (e.messages) turn.messages = e.messages;
      if (e.media) turn.media = e.media;
      // Only the rankings endpoint sends them (dataset/endpoint-inputs.ts counts them into the ISL there).
      if (e.passages) turn.inputs = e.passages;
      const conv: Conversation = { id: `L${e.line}`, turns: [turn] };
      if (ctx.systemPrompt !== null) conv.system_prompt = ctx.systemPrompt;
      return conv;
    },
  });
}

/** "passages": a non-empty list of non-empty strings. */
function readPassages(f: Fields): string[] | undefined {
  if (!f.has('passages')) return undefined;
  const v = f.obj.passages;
  if (!Array.isArray(v) || v.length === 0 || !v.every((p) => typeof p === 'string' && p !== ''))
    f.fail(`field "passages" must be a non-empty list of non-empty strings, got ${kindOf(v)}`);
  return v as string[];
}

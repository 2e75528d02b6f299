// single_turn JSONL: one request per line.
//   {"text": "…"} | {"prompt": "…"} | {"messages": [{"role": "user", "content": "…"}, …]}
//   optional "max_tokens" (or "output_length"), "timestamp" (ms) or "delay" (ms after the previous line)

import { samplerFor, fallbackMaxTokens, type LoadContext } from './context.js';
import { readTurn, resolveTimes, sortByTime, type TurnEntry } from './entries.js';
import { Fields, parseJsonl } from './file.js';
import { IndexedSource } from './source.js';
import type { Conversation, ConversationTurn } from './types.js';

export function loadSingleTurn(ctx: LoadContext, text: string): IndexedSource {
  const entries: TurnEntry[] = parseJsonl(ctx.file, text).map((r) => readTurn(new Fields(ctx.file, r.line, r.value), true));
  const times = resolveTimes(ctx.file, entries);
  const timed = times[0] !== null;
  let items = entries.map((e, i) => ({ e, at: times[i] ?? null }));
  if (timed) items = sortByTime(items, (x) => x.at as number, ctx.warn, ctx.file);
  return new IndexedSource({
    kind: 'single_turn',
    hasTimestamps: timed,
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
      const conv: Conversation = { id: `L${e.line}`, turns: [turn] };
      if (ctx.systemPrompt !== null) conv.system_prompt = ctx.systemPrompt;
      return conv;
    },
  });
}

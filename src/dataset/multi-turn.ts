// multi_turn JSONL: one conversation per line.
//   {"session_id": "s1", "system_prompt": "…", "turns": [{"text": "…", "max_tokens": 64, "delay": 1500}, …]}
// A first turn's "timestamp" (or "delay" after the previous conversation's start) schedules the
// conversation; a later turn's "delay" is think time after the previous reply, its
// "timestamp" an absolute send time.

import { InvalidFileError } from '../errors.js';
import { samplerFor, fallbackMaxTokens, type LoadContext } from './context.js';
import { readTurn, resolveTimes, sortByTime, type TurnEntry } from './entries.js';
import { Fields, parseJsonl } from './file.js';
import { IndexedSource } from './source.js';
import type { Conversation } from './types.js';

interface SessionEntry {
  line: number;
  id: string;
  system_prompt: string | null;
  turns: TurnEntry[];
}

function readSession(f: Fields): SessionEntry {
  const list = f.array('turns', true) as unknown[];
  if (list.length === 0) f.fail('field "turns" must not be empty');
  const turns = list.map((t, i) => readTurn(f.nested(t, `turns[${i}]`), false));
  const first = turns[0];
  const laterTimed = turns.findIndex((t, i) => i > 0 && t.timestamp !== null);
  if (laterTimed > 0 && first.timestamp === null && first.delay === null) {
    f.fail(`turns[${laterTimed}]: a "timestamp" needs the first turn to be scheduled too ("timestamp" or "delay")`);
  }
  // Later turns follow earlier ones: a timestamp that goes back is a contradiction, not a slip.
  let last = turns[0]?.timestamp ?? null;
  turns.forEach((t, i) => {
    if (i === 0 || t.timestamp === null) return;
    if (last !== null && t.timestamp < last) f.fail(`turns[${i}]: "timestamp" ${t.timestamp} is before the previous turn's (${last})`);
    last = t.timestamp;
  });
  return { line: f.line, id: f.id('session_id') ?? `L${f.line}`, system_prompt: f.string('system_prompt'), turns };
}

export function loadMultiTurn(ctx: LoadContext, text: string): IndexedSource {
  const sessions = parseJsonl(ctx.file, text).map((r) => readSession(new Fields(ctx.file, r.line, r.value)));
  const seen = new Map<string, number>();
  for (const s of sessions) {
    const first = seen.get(s.id);
    if (first !== undefined)
      throw new InvalidFileError(`${ctx.file}:${s.line}: session_id ${JSON.stringify(s.id)} is already used on line ${first}`);
    seen.set(s.id, s.line);
  }
  const starts = resolveTimes(
    ctx.file,
    sessions.map((s) => ({ line: s.line, timestamp: s.turns[0]?.timestamp ?? null, delay: s.turns[0]?.delay ?? null })),
  );
  let items = sessions.map((s, i) => ({ s, at: starts[i] ?? null }));
  const timed = starts[0] !== null;
  if (timed) items = sortByTime(items, (x) => x.at as number, ctx.warn, ctx.file);
  return new IndexedSource({
    kind: 'multi_turn',
    hasTimestamps: timed,
    sampler: samplerFor(ctx, items.length),
    cache: true,
    build: (i) => {
      const { s, at } = items[i];
      const conv: Conversation = {
        id: s.id,
        turns: s.turns.map((t, k) => ({
          prompt: t.text,
          isl: ctx.tokenizer.count(t.text),
          max_tokens: t.max_tokens ?? fallbackMaxTokens(ctx, `${s.line}/${k}`),
          timestamp_ms: k === 0 ? at : t.timestamp,
          delay_ms: k === 0 ? null : t.delay,
        })),
      };
      const system = s.system_prompt ?? ctx.systemPrompt;
      if (system !== null) conv.system_prompt = system;
      return conv;
    },
  });
}

// sharegpt: a local ShareGPT-format file, a JSON array (streamed: json-array-stream.ts) or JSONL of
//   {"conversations": [{"from": "human", "value": "…"}, {"from": "gpt", "value": "…"}, …]}
// Default (as vLLM's benchmark): one request per conversation, its first human message as the
// prompt and the token length of the reply after it as max_tokens. --sharegpt-multi-turn: every
// human message is a turn, each with its own reply's length as max_tokens; the history the
// server sees holds its own replies, not the recorded ones. System messages are not sent.
// Conversations without a human message followed by a reply are skipped, with one warning.
// `--public-dataset sharegpt` samples the same rows exactly as vLLM's ShareGPTDataset does
// (vllmPair, vllmValidSequence below): messages [0] and [1] whatever their roles, and vLLM's
// length limits; on the V3 cleaned split the pairs are the same but for those limits.

import { InvalidFileError } from '../errors.js';
import { samplerFor, fallbackMaxTokens, type LoadContext } from './context.js';
import { Fields, kindOf, parseJsonl, type JsonObject } from './file.js';
import { readJsonArray } from './json-array-stream.js';
import { IndexedSource } from './source.js';
import type { Conversation, ConversationTurn } from './types.js';

type Role = 'user' | 'assistant' | 'system';
const ROLE_OF: Record<string, Role> = {
  human: 'user',
  user: 'user',
  gpt: 'assistant',
  assistant: 'assistant',
  chatgpt: 'assistant',
  bard: 'assistant',
  bing: 'assistant',
  model: 'assistant',
  system: 'system',
};

interface Message {
  role: Role;
  value: string;
}

interface ShareGptEntry {
  id: string;
  /** (prompt, reply or null) pairs, in order; only the first is used unless multi-turn. */
  turns: { prompt: string; reply: string | null }[];
}

function readMessages(f: Fields): Message[] {
  const list = f.array('conversations', true) as unknown[];
  return list.map((m, i) => {
    const mf: Fields = f.nested(m, `conversations[${i}]`);
    const from = mf.string('from');
    if (from === null) mf.fail('missing required field "from"');
    const role = ROLE_OF[from.toLowerCase()];
    if (role === undefined) mf.fail(`field "from" must be human or gpt (or user, assistant, system), got ${kindOf(from)}`);
    const value = mf.string('value');
    if (value === null) mf.fail('missing required field "value"');
    return { role, value };
  });
}

function toTurns(messages: Message[], multiTurn: boolean): ShareGptEntry['turns'] {
  const turns: ShareGptEntry['turns'] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role !== 'user' || m.value.trim() === '') continue;
    const next = messages[i + 1];
    const reply = next?.role === 'assistant' ? next.value : null;
    if (!multiTurn) return reply === null ? [] : [{ prompt: m.value, reply }];
    turns.push({ prompt: m.value, reply });
  }
  // A conversation is usable when at least one prompt has a recorded reply to size it by.
  return turns.some((t) => t.reply !== null) ? turns : [];
}

/** The entries of a JSONL file, each as Fields that name its line. (A JSON array is streamed: loadShareGptArray.) */
function readJsonlEntries(file: string, text: string): Fields[] {
  return parseJsonl(file, text).map((r) => new Fields(file, r.line, r.value));
}

/** The usable conversations of a file, gathered one entry at a time. */
class Collector {
  readonly entries: ShareGptEntry[] = [];
  skipped = 0;
  constructor(private readonly multiTurn: boolean) {}

  /** Adds one entry; false when it has no usable turn (skipped). */
  add(f: Fields): boolean {
    const turns = toTurns(readMessages(f), this.multiTurn);
    if (turns.length === 0) {
      this.skipped++;
      return false;
    }
    const id = typeof f.obj.id === 'string' && f.obj.id !== '' ? f.obj.id : `E${this.entries.length}`;
    this.entries.push({ id, turns });
    return true;
  }
}

/** A ShareGPT JSONL text (read by readDatasetFile). */
export function loadShareGpt(ctx: LoadContext, text: string, multiTurn: boolean): IndexedSource {
  const c = new Collector(multiTurn);
  for (const f of readJsonlEntries(ctx.file, text)) c.add(f);
  return sourceOf(ctx, c);
}

export interface StreamedShareGpt {
  source: IndexedSource;
  /** False when reading stopped at `maxEntries` usable conversations with more of the file unread. */
  complete: boolean;
  /** Usable conversations read. */
  entries: number;
}

/**
 * A ShareGPT JSON array, streamed element by element (json-array-stream.ts): a file of any size
 * loads, and only the conversations kept are held. Reading stops after `maxEntries` usable
 * conversations (null: all of them), so a run that draws the first N reads only those.
 */
export async function loadShareGptArray(ctx: LoadContext, multiTurn: boolean, maxEntries: number | null): Promise<StreamedShareGpt> {
  const c = new Collector(multiTurn);
  let complete = true;
  let seen = 0;
  for await (const e of readJsonArray(ctx.file)) {
    seen++;
    const v = e.value;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw new InvalidFileError(`${ctx.file}:${e.line}: entry ${e.index} must be an object, got ${kindOf(v)}`);
    }
    if (
      c.add(new Fields(ctx.file, e.line, v as JsonObject, `entry ${e.index}: `)) &&
      maxEntries !== null &&
      c.entries.length >= maxEntries
    ) {
      complete = false;
      break;
    }
  }
  if (seen === 0) throw new InvalidFileError(`${ctx.file}: the dataset file has no entries`);
  return { source: sourceOf(ctx, c), complete, entries: c.entries.length };
}

function sourceOf(ctx: LoadContext, c: Collector): IndexedSource {
  const { entries, skipped } = c;
  if (skipped > 0)
    ctx.warn(
      `${ctx.file}: skipped ${skipped} ${skipped === 1 ? 'conversation' : 'conversations'} without a human message followed by a reply`,
    );
  if (entries.length === 0)
    throw new InvalidFileError(`${ctx.file}: no usable conversation (each needs a human message followed by a reply)`);

  const tok = ctx.tokenizer;
  return new IndexedSource({
    kind: 'sharegpt',
    hasTimestamps: false,
    sampler: samplerFor(ctx, entries.length),
    // Counting is the costly part (ShareGPT files hold ~10^5 conversations): done once per
    // conversation when first drawn, or ahead of the run by prefetch().
    cache: true,
    build: (i) => {
      const e = entries[i];
      const turns: ConversationTurn[] = e.turns.map((t, k) => ({
        prompt: t.prompt,
        isl: tok.count(t.prompt),
        max_tokens: t.reply === null ? fallbackMaxTokens(ctx, `${i}/${k}`) : Math.max(1, tok.count(t.reply)),
        timestamp_ms: null,
        delay_ms: null,
      }));
      const conv: Conversation = { id: e.id, turns };
      if (ctx.systemPrompt !== null) conv.system_prompt = ctx.systemPrompt;
      return conv;
    },
  });
}

/** vLLM's ShareGPTDataset pick: messages [0] and [1] of a conversation with two or more, whatever their roles. */
export function vllmPair(conversations: unknown): { prompt: string; reply: string } | null {
  if (!Array.isArray(conversations) || conversations.length < 2) return null;
  const value = (m: unknown) =>
    typeof m === 'object' && m !== null && typeof (m as JsonObject).value === 'string' ? ((m as JsonObject).value as string) : null;
  const prompt = value(conversations[0]);
  const reply = value(conversations[1]);
  return prompt === null || reply === null ? null : { prompt, reply };
}

/** vLLM's is_valid_sequence with its defaults: what its ShareGPT sampling keeps (lengths in tokens). */
export function vllmValidSequence(promptLen: number, outputLen: number): boolean {
  return promptLen >= 4 && outputLen >= 4 && promptLen <= 1024 && promptLen + outputLen <= 2048;
}

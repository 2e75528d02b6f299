// Fields shared by the JSONL formats: a turn's input (text or chat messages), its output
// length and its timing; and the rule that turns per-line timing into one time-ordered schedule.

import { InvalidFileError } from '../errors.js';
import type { ChatMessage } from './types.js';
import { kindOf, type Fields } from './file.js';

export type Warn = (message: string) => void;

/** A turn as read from a file, before its tokens are counted. */
export interface TurnEntry {
  line: number;
  /** Prompt text; for a `messages` entry, the message contents joined (what ISL counts). */
  text: string;
  messages: ChatMessage[] | null;
  max_tokens: number | null;
  timestamp: number | null;
  delay: number | null;
}

const ROLES = new Set(['system', 'user', 'assistant']);

function readMessages(f: Fields, name: string): ChatMessage[] {
  const list = f.array(name, true) as unknown[];
  if (list.length === 0) f.fail(`field "${name}" must not be empty`);
  return list.map((m, i) => {
    const mf: Fields = f.nested(m, `${name}[${i}]`);
    const role = mf.string('role');
    if (role === null) mf.fail('missing required field "role"');
    if (!ROLES.has(role)) mf.fail(`field "role" must be system, user or assistant, got ${kindOf(role)}`);
    const content = mf.string('content');
    if (content === null) mf.fail('missing required field "content" (a string)');
    return { role: role as ChatMessage['role'], content };
  });
}

/** Reads `text` | `prompt` | `messages`, `max_tokens` | `output_length`, `timestamp`, `delay`. */
export function readTurn(f: Fields, allowMessages: boolean): TurnEntry {
  const input = f.oneOf(allowMessages ? ['text', 'prompt', 'messages'] : ['text', 'prompt'], true);
  if (!allowMessages && f.has('messages')) f.fail('field "messages" is only supported by single_turn datasets; give "text"');
  let text: string;
  let messages: ChatMessage[] | null = null;
  if (input === 'messages') {
    messages = readMessages(f, 'messages');
    text = messages.map((m) => m.content).join('\n\n');
  } else {
    text = f.string(input as string) as string;
  }
  if (text === '') f.fail(`field "${input}" must not be empty`);
  const outName = f.oneOf(['max_tokens', 'output_length'], false);
  const timestamp = f.nonNegativeNumber('timestamp');
  const delay = f.nonNegativeNumber('delay');
  if (timestamp !== null && delay !== null) f.fail('fields "timestamp" and "delay" cannot be used together');
  return {
    line: f.line,
    text,
    messages,
    max_tokens: outName === null ? null : f.positiveInt(outName),
    timestamp,
    delay,
  };
}

/**
 * Absolute send times (ms from the trace start) for entries in file order: `timestamp` as
 * given, `delay` as the gap after the previous entry's time. All entries or none must carry
 * one of the two; none gives null for all (no schedule).
 */
export function resolveTimes(
  file: string,
  entries: readonly { line: number; timestamp: number | null; delay: number | null }[],
): (number | null)[] {
  const timed = entries.find((e) => e.timestamp !== null || e.delay !== null);
  if (!timed) return entries.map(() => null);
  let prev = 0;
  return entries.map((e) => {
    if (e.timestamp === null && e.delay === null) {
      throw new InvalidFileError(
        `${file}:${e.line}: missing "timestamp" or "delay" (line ${timed.line} has one; give every line one or none)`,
      );
    }
    prev = e.timestamp ?? prev + (e.delay as number);
    return prev;
  });
}

/**
 * Stable sort into time order. Entries earlier than one before them are counted and reported
 * in one warning, since a trace that goes backwards is usually a concatenation or export slip.
 */
export function sortByTime<T>(items: readonly T[], time: (t: T) => number, warn: Warn, what: string): T[] {
  let late = 0;
  let max = -Infinity;
  for (const it of items) {
    const t = time(it);
    if (t < max) late++;
    else max = t;
  }
  if (late === 0) return [...items];
  warn(`${what}: ${late} ${late === 1 ? 'line is' : 'lines are'} out of time order; replaying in timestamp order`);
  return items
    .map((it, i) => ({ it, i }))
    .sort((a, b) => time(a.it) - time(b.it) || a.i - b.i)
    .map((x) => x.it);
}

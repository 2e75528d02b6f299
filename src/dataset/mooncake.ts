// mooncake_trace JSONL: one request per line, in the format of Mooncake's published traces.
//   {"timestamp": 0, "input_length": 1536, "output_length": 40, "hash_ids": [0, 1, 2]}
// Each hash id stands for one 512-token block of the prompt: requests that share a hash id
// get that block's text exactly (see tokenizer/segments.ts), the last block cut short so the
// prompt is exactly input_length tokens. Also accepted: "text_input" (a literal prompt) instead
// of input_length, "max_tokens" for output_length, "delay" instead of timestamp, and
// "session_id" to make the lines of one session the turns of one conversation.

import { MAX_PROMPT_TOKENS } from '../tokenizer/synthesize.js';
import { InvalidFileError } from '../errors.js';
import { SegmentSynthesizer } from '../tokenizer/segments.js';
import { samplerFor, fallbackMaxTokens, type LoadContext } from './context.js';
import { resolveTimes, sortByTime } from './entries.js';
import { Fields, parseJsonl } from './file.js';
import { IndexedSource } from './source.js';
import type { Conversation } from './types.js';

interface TraceEntry {
  line: number;
  input_length: number | null;
  text: string | null;
  max_tokens: number | null;
  hash_ids: number[] | null;
  timestamp: number | null;
  delay: number | null;
  session: string | null;
}

function readEntry(f: Fields): TraceEntry {
  const input = f.oneOf(['input_length', 'text_input'], true);
  const text = input === 'text_input' ? f.string('text_input') : null;
  if (text === '') f.fail('field "text_input" must not be empty');
  const hashIds = f.nonNegativeIntList('hash_ids');
  if (hashIds !== null && text !== null) f.fail('field "hash_ids" needs "input_length" (it cannot describe a "text_input")');
  const out = f.oneOf(['output_length', 'max_tokens'], false);
  const timestamp = f.nonNegativeNumber('timestamp');
  const delay = f.nonNegativeNumber('delay');
  if (timestamp !== null && delay !== null) f.fail('fields "timestamp" and "delay" cannot be used together');
  return {
    line: f.line,
    input_length: input === 'input_length' ? f.positiveInt('input_length', MAX_PROMPT_TOKENS, 'tokens') : null,
    text,
    max_tokens: out === null ? null : f.positiveInt(out),
    hash_ids: hashIds,
    timestamp,
    delay,
    session: f.id('session_id'),
  };
}

/** Lines in file order → conversations (one per line, or one per session_id). */
function group(file: string, entries: TraceEntry[]): TraceEntry[][] {
  const convs: TraceEntry[][] = [];
  const bySession = new Map<string, TraceEntry[]>();
  for (const e of entries) {
    if (e.session === null) {
      convs.push([e]);
      continue;
    }
    const conv = bySession.get(e.session);
    if (!conv) {
      const fresh = [e];
      bySession.set(e.session, fresh);
      convs.push(fresh);
      continue;
    }
    const prev = conv[conv.length - 1];
    const prevTime = prev.timestamp;
    if (e.timestamp !== null && prevTime !== null && e.timestamp < prevTime) {
      throw new InvalidFileError(
        `${file}:${e.line}: "timestamp" ${e.timestamp} is before that of line ${prev.line} (${prevTime}), the previous turn of session ${JSON.stringify(e.session)}`,
      );
    }
    conv.push(e);
  }
  return convs;
}

export function loadMooncakeTrace(ctx: LoadContext, text: string): IndexedSource {
  const entries = parseJsonl(ctx.file, text).map((r) => readEntry(new Fields(ctx.file, r.line, r.value)));
  const convs = group(ctx.file, entries);
  const starts = resolveTimes(
    ctx.file,
    convs.map((c) => c[0]),
  );
  const timed = starts[0] !== null;
  let items = convs.map((c, i) => ({ c, at: starts[i] ?? null }));
  if (timed) items = sortByTime(items, (x) => x.at as number, ctx.warn, ctx.file);

  // Literal prompts are counted now; synthesized ones are exactly input_length by construction.
  const literalIsl = new Map<number, number>();
  for (const e of entries) if (e.text !== null) literalIsl.set(e.line, ctx.tokenizer.count(e.text));
  const segments = new SegmentSynthesizer(ctx.tokenizer, `${ctx.seed}/mooncake`);

  return new IndexedSource({
    kind: 'mooncake_trace',
    hasTimestamps: timed,
    sampler: samplerFor(ctx, items.length),
    // Prompts are rebuilt on every draw: cheap string slices, and a long trace's prompts
    // would not fit in memory all at once.
    cache: false,
    build: (i) => {
      const { c, at } = items[i];
      const first = c[0];
      const conv: Conversation = {
        id: first.session ?? `L${first.line}`,
        turns: c.map((e, k) => ({
          prompt: e.text ?? segments.hashPrompt(e.hash_ids ?? [], e.input_length as number, e.line),
          isl: e.text === null ? e.input_length : (literalIsl.get(e.line) as number),
          max_tokens: e.max_tokens ?? fallbackMaxTokens(ctx, `${e.line}`),
          timestamp_ms: k === 0 ? at : e.timestamp,
          delay_ms: k === 0 ? null : e.delay,
          ...(e.hash_ids && e.hash_ids.length > 0 ? { hash_ids: e.hash_ids } : {}),
        })),
      };
      if (ctx.systemPrompt !== null) conv.system_prompt = ctx.systemPrompt;
      return conv;
    },
  });
}

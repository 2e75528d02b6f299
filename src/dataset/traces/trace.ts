// What every production trace becomes: requests with an arrival time, exact token lengths and,
// where the trace names one, a model; grouped into sessions where the trace links its turns
// (Bailian's parent_chat_id). Prompts are synthesized to each request's input length exactly
// (tokenizer/segments.ts), output lengths are sent as max_tokens, and the replay follows the times.

import { MAX_PROMPT_TOKENS } from '../../tokenizer/synthesize.js';
import { InvalidFileError } from '../../errors.js';
import { SegmentSynthesizer } from '../../tokenizer/segments.js';
import { samplerFor, type LoadContext } from '../context.js';
import { sortByTime } from '../entries.js';
import { IndexedSource } from '../source.js';
import type { Conversation, ConversationTurn } from '../types.js';

export interface TraceRequest {
  /** Line in the file (for errors and as the key of its synthesized prompt). */
  line: number;
  /** Arrival time in ms from the trace's start. */
  at_ms: number;
  /** Tokens of the prompt sent for this request (for a later turn: its new message). */
  input: number;
  /** Tokens to generate (sent as max_tokens). */
  output: number;
  /** The trace's model name, when it has a model column. */
  model: string | null;
  /** Prefix-block hashes of the prompt (Bailian: `blockTokens`-token blocks). */
  hash_ids?: readonly number[];
}

export interface TraceSpec {
  kind: string;
  /** Requests, one conversation per entry; a session's turns in order. */
  sessions: TraceRequest[][];
  /** Tokens per hash_ids block (Bailian: 16); absent when the trace has no hashes. */
  blockTokens?: number;
}

/** A token count read from a trace: at most the longest prompt servebench makes. */
export function checkTokens(file: string, line: number, column: string, n: number): number {
  if (n > MAX_PROMPT_TOKENS)
    throw new InvalidFileError(`${file}:${line}: "${column}" must be at most ${MAX_PROMPT_TOKENS} tokens, got ${n}`);
  return n;
}

/**
 * The run's model for each of the trace's model names. With one --model (or none), every request
 * goes to it and the trace's names only describe the trace. With several, a trace name that is one
 * of them goes there; the others take the run's models in turn, in order of first appearance.
 */
export function modelMap(runModels: readonly string[], sessions: readonly TraceRequest[][]): Map<string, string> | null {
  if (runModels.length < 2) return null;
  const map = new Map<string, string>();
  let next = 0;
  for (const s of sessions)
    for (const r of s) {
      if (r.model === null || map.has(r.model)) continue;
      map.set(r.model, runModels.includes(r.model) ? r.model : runModels[next++ % runModels.length]);
    }
  return map;
}

export function traceSource(ctx: LoadContext, spec: TraceSpec): IndexedSource {
  if (spec.sessions.length === 0) throw new InvalidFileError(`${ctx.file}: the trace has no requests`);
  const items = sortByTime(spec.sessions, (s) => s[0].at_ms, ctx.warn, ctx.file);
  const models = modelMap(ctx.models ?? [], items);
  const segments = new SegmentSynthesizer(ctx.tokenizer, `${ctx.seed}/${spec.kind}`, { blockTokens: spec.blockTokens });
  return new IndexedSource({
    kind: spec.kind,
    hasTimestamps: true,
    sampler: samplerFor(ctx, items.length),
    singleTurn: items.every((s) => s.length === 1),
    // Prompts are rebuilt on every draw (cheap slices): a long trace's prompts would not fit in memory at once.
    cache: false,
    build: (i) => {
      const s = items[i];
      const turns: ConversationTurn[] = s.map((r) => {
        const model = r.model === null ? undefined : models?.get(r.model);
        return {
          prompt: segments.hashPrompt(r.hash_ids ?? [], r.input, r.line),
          isl: r.input,
          max_tokens: r.output,
          timestamp_ms: r.at_ms,
          delay_ms: null,
          ...(model !== undefined ? { model } : {}),
        };
      });
      const conv: Conversation = { id: s.length > 1 ? `S${s[0].line}` : `L${s[0].line}`, turns };
      if (ctx.systemPrompt !== null) conv.system_prompt = ctx.systemPrompt;
      return conv;
    },
  });
}

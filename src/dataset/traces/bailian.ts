// Alibaba's Bailian (Qwen) usage traces (alibaba-edu/qwen-bailian-usagetraces-anon,
// https://github.com/alibaba-edu/qwen-bailian-usagetraces-anon): JSONL, one request a line:
//   {"chat_id": 159, "parent_chat_id": -1, "timestamp": 61.114, "input_length": 521,
//    "output_length": 132, "type": "text", "turn": 1, "hash_ids": [...]}
// timestamp is seconds from the trace's start; parent_chat_id links a request to the previous turn
// of its conversation (-1: none), so the chain from a root becomes one multi-turn session, sent in
// `turn` order. AIPerf's name for this format is bailian_trace.
//
// input_length is the whole request's input, history included. A later turn is sent with its
// history (earlier prompts and the server's replies), so its new message is sized to what the trace
// adds: input_length − (the previous turn's input_length + output_length), at least 1 token. With a
// server that generates max_tokens (the mock, or ignore_eos) the request then holds input_length
// tokens plus the chat template's. hash_ids (16-token blocks) shape a session's first prompt, so
// sessions that share a prefix in the trace share it on the wire. A "model" field, when present,
// can pick the run's model as BurstGPT's column does.

import { InvalidFileError } from '../../errors.js';
import type { LoadContext } from '../context.js';
import { Fields, parseJsonl } from '../file.js';
import type { IndexedSource } from '../source.js';
import { checkTokens, traceSource, type TraceRequest } from './trace.js';

/** Tokens per hash_ids block in the Bailian traces (their README). */
export const BAILIAN_BLOCK_TOKENS = 16;

interface Row {
  line: number;
  chat: string;
  parent: string | null;
  turn: number;
  at_ms: number;
  input: number;
  output: number;
  model: string | null;
  hash_ids: number[] | null;
}

function readRow(f: Fields): Row {
  const chat = f.id('chat_id');
  if (chat === null) f.fail('missing required field "chat_id"');
  const parent = f.id('parent_chat_id');
  const ts = f.nonNegativeNumber('timestamp');
  if (ts === null) f.fail('missing required field "timestamp"');
  const input = f.positiveInt('input_length');
  if (input === null) f.fail('missing required field "input_length"');
  const output = f.positiveInt('output_length');
  if (output === null) f.fail('missing required field "output_length"');
  return {
    line: f.line,
    chat,
    parent: parent === null || parent === '-1' ? null : parent,
    turn: f.positiveInt('turn') ?? 1,
    at_ms: ts * 1000,
    input: checkTokens(f.file, f.line, 'input_length', input),
    output,
    model: f.string('model'),
    hash_ids: f.nonNegativeIntList('hash_ids'),
  };
}

export function loadBailianTrace(ctx: LoadContext, text: string): IndexedSource {
  const rows = parseJsonl(ctx.file, text).map((r) => readRow(new Fields(ctx.file, r.line, r.value)));
  const byChat = new Map<string, Row>();
  for (const r of rows) {
    const seen = byChat.get(r.chat);
    if (seen) throw new InvalidFileError(`${ctx.file}:${r.line}: chat_id ${JSON.stringify(r.chat)} is already used on line ${seen.line}`);
    byChat.set(r.chat, r);
  }
  // Each request's root: follow parent links up; a parent the file does not hold (a cut trace) ends the chain.
  let orphans = 0;
  const rootOf = (r: Row): Row => {
    let at = r;
    for (let hops = 0; at.parent !== null; hops++) {
      const up = byChat.get(at.parent);
      if (up === undefined) {
        if (at === r) orphans++;
        break;
      }
      if (hops > byChat.size)
        throw new InvalidFileError(`${ctx.file}:${r.line}: parent_chat_id links loop back to chat_id ${JSON.stringify(r.chat)}`);
      at = up;
    }
    return at;
  };
  const sessions = new Map<Row, Row[]>();
  for (const r of rows) {
    const root = rootOf(r);
    const s = sessions.get(root);
    if (s) s.push(r);
    else sessions.set(root, [r]);
  }
  if (orphans > 0) {
    ctx.warn(
      `${ctx.file}: ${orphans} ${orphans === 1 ? 'request links' : 'requests link'} to a parent_chat_id not in the file; each starts its own session`,
    );
  }
  const out: TraceRequest[][] = [];
  for (const s of sessions.values()) {
    s.sort((a, b) => a.turn - b.turn || a.at_ms - b.at_ms || a.line - b.line);
    out.push(
      s.map((r, k) => {
        const prev = k > 0 ? s[k - 1] : null;
        const input = prev === null ? r.input : Math.max(1, r.input - prev.input - prev.output);
        return {
          line: r.line,
          at_ms: r.at_ms,
          input,
          output: r.output,
          model: r.model,
          ...(prev === null && r.hash_ids !== null ? { hash_ids: r.hash_ids } : {}),
        };
      }),
    );
  }
  return traceSource(ctx, { kind: 'bailian_trace', sessions: out, blockTokens: BAILIAN_BLOCK_TOKENS });
}

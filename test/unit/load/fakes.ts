// Test doubles for the scheduler: conversation sources and a dispatch that behaves like a
// transport (resolves after a delay, honours the per-request signal and cancelAll).
import type { Conversation, ConversationSource, ConversationTurn } from '../../../src/dataset/types.js';
import type { BenchmarkHooks } from '../../../src/load/benchmark.js';
import type { DispatchOptions, DispatchResult } from '../../../src/load/types.js';
import type { Credit } from '../../../src/model/credit.js';
import type { RecordStatus } from '../../../src/model/raw-record.js';

export const turn = (prompt: string, over: Partial<ConversationTurn> = {}): ConversationTurn => ({
  prompt,
  isl: 1,
  max_tokens: 4,
  timestamp_ms: null,
  delay_ms: null,
  ...over,
});

/** Endless single-turn conversations p0, p1, … */
export function singleTurnSource(): ConversationSource {
  let n = 0;
  return {
    kind: 'test',
    size: null,
    hasTimestamps: false,
    next: () => {
      const i = n++;
      return { id: `c${i}`, turns: [turn(`p${i}`)] };
    },
  };
}

/** A finite source that wraps around over the given conversations. */
export function listSource(convs: Conversation[], hasTimestamps = false): ConversationSource {
  let i = 0;
  return {
    kind: 'list',
    size: convs.length,
    hasTimestamps,
    next: () => convs[i++ % convs.length],
  };
}

export interface Sent {
  credit: Credit;
  /** When dispatch was called (the transport's start), ns. */
  at: bigint;
  /** When it settled, ns. */
  end: bigint | null;
  status: RecordStatus | null;
}

export interface FakeTransport {
  hooks: BenchmarkHooks;
  sent: Sent[];
  inFlight: number;
  peak: number;
  cancelAllCalls: string[];
}

/**
 * A dispatch that takes `latencyMs(credit)` to answer 'ok' (reply "reply to <prompt>"), or answers
 * 'cancelled' at once when its signal aborts or cancelAll runs.
 */
export function fakeTransport(latencyMs: (c: Credit) => number = () => 5): FakeTransport {
  const pending = new Set<() => void>();
  const t: FakeTransport = {
    sent: [],
    inFlight: 0,
    peak: 0,
    cancelAllCalls: [],
    hooks: {
      dispatch: (credit: Credit, opts: DispatchOptions) =>
        new Promise<DispatchResult>((resolve) => {
          const rec: Sent = { credit, at: process.hrtime.bigint(), end: null, status: null };
          t.sent.push(rec);
          t.inFlight++;
          t.peak = Math.max(t.peak, t.inFlight);
          const done = (status: RecordStatus) => {
            clearTimeout(timer);
            pending.delete(cancel);
            opts.signal?.removeEventListener('abort', cancel);
            t.inFlight--;
            rec.end = process.hrtime.bigint();
            rec.status = status;
            resolve({ status, reply: opts.wantReply && status === 'ok' ? `reply to ${credit.turn.prompt}` : null });
          };
          const cancel = () => done('cancelled');
          const timer = setTimeout(() => done('ok'), latencyMs(credit));
          pending.add(cancel);
          opts.signal?.addEventListener('abort', cancel, { once: true });
        }),
      cancelAll: (reason: string) => {
        t.cancelAllCalls.push(reason);
        for (const c of [...pending]) c();
      },
    },
  };
  return t;
}

export const ms = (ns: bigint) => Number(ns) / 1e6;
export const sleep = (m: number) => new Promise<void>((r) => setTimeout(r, m));

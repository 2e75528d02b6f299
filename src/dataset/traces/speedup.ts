// --fixed-schedule-speedup X (AIPerf's flag): a timed dataset's clock runs X times as fast. Every
// trace timestamp and think time is divided by X (2: the trace in half the time; 0.5: twice the
// time), so --fixed-schedule-start/end-offset are read in the replay's time, after the speedup.

import type { Conversation, ConversationSource } from '../types.js';

function scaled(conv: Conversation, x: number): Conversation {
  return {
    ...conv,
    turns: conv.turns.map((t) => ({
      ...t,
      timestamp_ms: t.timestamp_ms === null ? null : t.timestamp_ms / x,
      delay_ms: t.delay_ms === null ? null : t.delay_ms / x,
    })),
  };
}

/** `source` with its times divided by `speedup`; `source` itself at 1. */
export function withSpeedup(source: ConversationSource, speedup: number): ConversationSource {
  if (speedup === 1) return source;
  const skip = source.skip?.bind(source);
  return {
    kind: source.kind,
    size: source.size,
    hasTimestamps: source.hasTimestamps,
    ...(source.singleTurn !== undefined ? { singleTurn: source.singleTurn } : {}),
    next: () => scaled(source.next(), speedup),
    ...(skip ? { skip } : {}),
  };
}

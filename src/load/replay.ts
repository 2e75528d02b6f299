// Fixed-schedule replay, planning side: read a finite, timestamped source once, put its
// conversations in time order, apply the start/end offsets, and give each its offset from the
// phase start. Pure apart from reading the source; the sending is fixed-schedule.ts.
import type { Conversation, ConversationSource } from '../dataset/types.js';
import { InvalidArgumentError } from '../errors.js';
import type { ReplaySchedule } from './types.js';

export interface ReplayOptions {
  /** Trace time (ms) that maps to the phase start; earlier conversations are skipped. */
  startOffsetMs: number | null;
  /** Conversations stamped after this trace time (ms) are skipped. */
  endOffsetMs: number | null;
  /** Map the earliest timestamp to the phase start. */
  autoOffset: boolean;
}

export interface ReplayPlan {
  schedule: ReplaySchedule;
  /** Conversations whose timestamp is below an earlier one's (replayed in time order anyway). */
  outOfOrder: number;
  /** Conversations without a timestamp on their first turn: sent at the schedule's zero. */
  missingTimestamp: number;
  /** Conversations left out by the start/end offsets. */
  skipped: number;
}

/** Reads every conversation of a finite source, in the source's order. */
export function readAll(source: ConversationSource): Conversation[] {
  if (source.size === null) {
    throw new InvalidArgumentError(`--fixed-schedule: needs a finite dataset with timestamps (the ${source.kind} dataset is endless)`);
  }
  const out: Conversation[] = [];
  for (let i = 0; i < source.size; i++) out.push(source.next());
  return out;
}

/** Lays the conversations out in time order, from the offsets given. */
export function planReplay(conversations: readonly Conversation[], opts: ReplayOptions): ReplayPlan {
  let outOfOrder = 0;
  let missingTimestamp = 0;
  let maxSeen = -Infinity;
  const stamped = conversations.map((conversation, order) => {
    let ts = conversation.turns[0]?.timestamp_ms ?? null;
    if (ts === null || !Number.isFinite(ts)) {
      missingTimestamp++;
      ts = null;
    } else {
      if (ts < maxSeen) outOfOrder++;
      maxSeen = Math.max(maxSeen, ts);
    }
    return { conversation, ts, order };
  });
  const known = stamped.filter((s) => s.ts !== null).map((s) => s.ts as number);
  const minTs = known.length > 0 ? Math.min(...known) : 0;
  const zeroMs = opts.autoOffset ? minTs : (opts.startOffsetMs ?? 0);
  // Stable sort: equal timestamps keep the source's order. Missing ones go first, at the zero.
  const sorted = stamped.map((s) => ({ ...s, ts: s.ts ?? zeroMs })).sort((a, b) => a.ts - b.ts || a.order - b.order);
  const kept = sorted.filter(
    (s) => (opts.startOffsetMs === null || s.ts >= opts.startOffsetMs) && (opts.endOffsetMs === null || s.ts <= opts.endOffsetMs),
  );
  return {
    schedule: {
      entries: kept.map((s) => ({ conversation: s.conversation, timestampMs: s.ts, offsetNs: Math.max(0, (s.ts - zeroMs) * 1e6) })),
      zeroMs,
      endOffsetMs: opts.endOffsetMs,
    },
    outOfOrder,
    missingTimestamp,
    skipped: sorted.length - kept.length,
  };
}

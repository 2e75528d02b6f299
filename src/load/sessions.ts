// Sessions: turns conversations from a ConversationSource into the Turns the transport sends.
// A session's turns never overlap: turn k+1 exists only once turn k has completed, and it
// carries the history (every earlier user message and the assistant's actual reply).
// When turn k+1 is sent is the scheduler's business: it gets the continuation from settle()
// together with the earliest time it may go (turn k's completion + the think time).
import type { ChatMessage, Conversation, ConversationSource, ConversationTurn } from '../dataset/types.js';
import type { Turn } from '../model/turn.js';
import type { DispatchResult } from './types.js';
import { capWaitMs } from '../timers.js';

export interface Session {
  /** Unique within the run (a finite source that wraps yields the same conversation again). */
  readonly id: string;
  readonly conversation: Conversation;
  /** Earlier user messages and the assistant's replies, in order. */
  readonly history: ChatMessage[];
}

export interface Ticket {
  session: Session;
  turnIndex: number;
  /** The request content, history included. */
  turn: Turn;
  /** The turn's trace timestamp (ms from the trace start), when it has one. */
  timestampMs: number | null;
  /** Think time before this turn, after the previous one completed (ms); 0 for a first turn. */
  delayMs: number;
  /** True when another turn follows, so the reply must come back for its history. */
  wantReply: boolean;
  /** First turn only: ns spent producing the conversation (dataset iteration + building the turn), GuideLLM's generation delay. */
  generationNs?: number;
}

export interface SessionCounts {
  started: number;
  /** Every turn sent and answered. */
  completed: number;
  /** Ended early: a turn failed or was cancelled, or the phase stopped issuing before the last turn. */
  abandoned: number;
}

function userMessages(t: ConversationTurn): ChatMessage[] {
  return t.messages ?? [{ role: 'user', content: t.prompt }];
}

/** The Turn for turn k of a session, with the history so far. */
export function buildTurn(session: Session, k: number): Turn {
  const conv = session.conversation;
  const ct = conv.turns[k];
  if (ct === undefined) throw new RangeError(`conversation ${conv.id} has no turn ${k}`);
  const plain = conv.turns.length === 1 && !conv.system_prompt;
  if (plain) {
    // A single-turn request: exactly what the dataset gave (messages verbatim, or the prompt).
    const hashes = {
      ...(ct.hash_ids ? { hash_ids: ct.hash_ids } : {}),
      ...(ct.model !== undefined ? { model: ct.model } : {}),
      ...(ct.inputs ? { inputs: ct.inputs } : {}),
      ...(ct.media ? { media: ct.media } : {}),
    };
    return ct.messages
      ? { prompt: ct.prompt, isl: ct.isl, max_tokens: ct.max_tokens, messages: ct.messages, ...hashes }
      : { prompt: ct.prompt, isl: ct.isl, max_tokens: ct.max_tokens, ...hashes };
  }
  const messages: ChatMessage[] = [];
  if (conv.system_prompt) messages.push({ role: 'system', content: conv.system_prompt });
  messages.push(...session.history, ...userMessages(ct));
  return {
    prompt: ct.prompt,
    // The dataset's ISL counts the new input only; with history or a system prompt the
    // record processor counts the whole message list instead.
    isl: k === 0 && !conv.system_prompt ? ct.isl : null,
    max_tokens: ct.max_tokens,
    messages,
    session_id: session.id,
    turn_index: k,
    ...(ct.hash_ids ? { hash_ids: ct.hash_ids } : {}),
    ...(ct.model !== undefined ? { model: ct.model } : {}),
    ...(ct.media ? { media: ct.media } : {}),
  };
}

interface Deferred {
  readyAt: bigint;
  seq: number;
  ticket: Ticket;
}

/** A binary min-heap of deferred continuations by (readyAt, seq): earliest first, FIFO on ties. */
class DeferredHeap {
  private readonly items: Deferred[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Deferred | undefined {
    return this.items[0];
  }

  push(d: Deferred): void {
    const a = this.items;
    a.push(d);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  pop(): Deferred | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && less(a[l], a[m])) m = l;
        if (r < a.length && less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }

  drain(): Deferred[] {
    return this.items.splice(0);
  }
}

const less = (x: Deferred, y: Deferred) => x.readyAt < y.readyAt || (x.readyAt === y.readyAt && x.seq < y.seq);

export class SessionFeeder {
  readonly counts: SessionCounts = { started: 0, completed: 0, abandoned: 0 };
  private readonly deferred = new DeferredHeap();
  private seq = 0;

  constructor(private readonly source: ConversationSource) {}

  /** The first turn of the source's next conversation. */
  nextNew(): Ticket {
    const t0 = process.hrtime.bigint();
    return this.start(this.source.next(), t0);
  }

  /** The first turn of a given conversation (fixed-schedule replay picks its own order). */
  start(conversation: Conversation, t0: bigint = process.hrtime.bigint()): Ticket {
    if (conversation.turns.length === 0) throw new RangeError(`conversation ${conversation.id} has no turns`);
    const session: Session = { id: `${conversation.id}#${this.seq++}`, conversation, history: [] };
    this.counts.started++;
    const ticket = this.ticket(session, 0);
    ticket.generationNs = Number(process.hrtime.bigint() - t0);
    return ticket;
  }

  /**
   * Records how a turn ended. Returns the session's next turn, and the earliest time it may be sent
   * (`endNs` + its think time), or null when the session is over (last turn, or this one failed).
   */
  settle(t: Ticket, result: DispatchResult, endNs: bigint): { ticket: Ticket; readyAt: bigint } | null {
    const turns = t.session.conversation.turns;
    if (result.status !== 'ok') {
      this.counts.abandoned++;
      return null;
    }
    if (t.turnIndex + 1 >= turns.length) {
      this.counts.completed++;
      return null;
    }
    t.session.history.push(...userMessages(turns[t.turnIndex]), { role: 'assistant', content: result.reply ?? '' });
    const next = this.ticket(t.session, t.turnIndex + 1);
    return { ticket: next, readyAt: endNs + BigInt(Math.round(capWaitMs(next.delayMs) * 1e6)) };
  }

  /** Queue a continuation until its think time is over (closed-loop and rate modes). */
  defer(ticket: Ticket, readyAt: bigint): void {
    this.deferred.push({ readyAt, seq: this.seq++, ticket });
  }

  /** A continuation whose think time is over, oldest first, or null. */
  takeReady(nowNs: bigint): Ticket | null {
    const top = this.deferred.peek();
    if (!top || top.readyAt > nowNs) return null;
    return this.deferred.pop()!.ticket;
  }

  /** A continuation that is ready, else a new conversation: sessions in progress go first. */
  next(nowNs: bigint): Ticket {
    return this.takeReady(nowNs) ?? this.nextNew();
  }

  /** When the earliest deferred continuation becomes ready, or null when none waits. */
  nextReadyAt(): bigint | null {
    return this.deferred.peek()?.readyAt ?? null;
  }

  get waiting(): number {
    return this.deferred.size;
  }

  /** A continuation the scheduler will not send (the phase stopped issuing): its session ends. */
  drop(_ticket: Ticket): void {
    this.counts.abandoned++;
  }

  /** The phase stopped issuing: sessions still waiting for their next turn end here. */
  abandonWaiting(): void {
    this.counts.abandoned += this.deferred.drain().length;
  }

  private ticket(session: Session, k: number): Ticket {
    const ct = session.conversation.turns[k];
    return {
      session,
      turnIndex: k,
      turn: buildTurn(session, k),
      timestampMs: ct.timestamp_ms ?? null,
      delayMs: k === 0 ? 0 : Math.max(0, ct.delay_ms ?? 0),
      wantReply: k + 1 < session.conversation.turns.length,
    };
  }
}

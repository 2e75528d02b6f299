// A finite ConversationSource over numbered entries: the sampler picks the entry, `build`
// makes its conversation (once, when `cache` is on), and every caller gets its own copy.

import type { Conversation, ConversationSource } from './types.js';
import type { IndexSampler } from './sampling.js';

export interface IndexedSourceSpec {
  kind: string;
  hasTimestamps: boolean;
  sampler: IndexSampler;
  build: (index: number) => Conversation;
  /** Keep built conversations (their token counts are the costly part); off when building is cheap. */
  cache: boolean;
  /** Every conversation is one turn (ConversationSource.singleTurn). */
  singleTurn?: boolean;
}

function copy(c: Conversation): Conversation {
  return { ...c, turns: c.turns.map((t) => ({ ...t, messages: t.messages?.map((m) => ({ ...m })) })) };
}

export class IndexedSource implements ConversationSource {
  readonly kind: string;
  readonly size: number;
  readonly hasTimestamps: boolean;
  readonly singleTurn: boolean;
  private readonly built = new Map<number, Conversation>();
  /** Indices already drawn by prefetch(), served before new draws. */
  private readonly queue: number[] = [];
  private head = 0;

  constructor(private readonly spec: IndexedSourceSpec) {
    this.kind = spec.kind;
    this.size = spec.sampler.size;
    this.hasTimestamps = spec.hasTimestamps;
    this.singleTurn = spec.singleTurn ?? false;
  }

  next(): Conversation {
    return copy(this.get(this.draw()));
  }

  skip(): void {
    this.draw();
  }

  private draw(): number {
    let index: number;
    if (this.head < this.queue.length) {
      index = this.queue[this.head++];
      if (this.head === this.queue.length) {
        this.queue.length = 0;
        this.head = 0;
      }
    } else {
      index = this.spec.sampler.next();
    }
    return index;
  }

  /**
   * Draws the next `count` entries now and builds them, so token counting happens before the
   * run rather than on the send path. Stops early after `budgetMs`; returns how many were built.
   * The order of next() is unchanged.
   */
  prefetch(count: number, budgetMs: number): number {
    if (!this.spec.cache) return 0;
    const until = performance.now() + budgetMs;
    let n = 0;
    while (n < count && performance.now() < until) {
      const index = this.spec.sampler.next();
      this.queue.push(index);
      this.get(index);
      n++;
    }
    return n;
  }

  private get(index: number): Conversation {
    const hit = this.built.get(index);
    if (hit) return hit;
    const conv = this.spec.build(index);
    if (this.spec.cache) this.built.set(index, conv);
    return conv;
  }
}

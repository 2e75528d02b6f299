// A shard's view of the run's conversation stream (issue 18): draw j of the whole run's stream is
// this shard's when j mod N = index (load/shard-plan.ts). Every shard walks the same seeded stream
// and skips the others' draws, so the shards never send the same draw and together send them all.
import type { Conversation, ConversationSource } from './types.js';

export class ShardSource implements ConversationSource {
  readonly kind: string;
  readonly size: number | null;
  readonly hasTimestamps: boolean;
  readonly singleTurn: boolean;

  constructor(
    private readonly inner: ConversationSource,
    private readonly shard: { readonly index: number; readonly count: number },
  ) {
    this.kind = inner.kind;
    this.size = inner.size;
    this.hasTimestamps = inner.hasTimestamps;
    this.singleTurn = inner.singleTurn ?? false;
  }

  next(): Conversation {
    const { index, count } = this.shard;
    let mine: Conversation | null = null;
    // One round of N draws per call: the others' are skipped (without building them, where the source can).
    for (let k = 0; k < count; k++) {
      if (k === index) mine = this.inner.next();
      else if (this.inner.skip) this.inner.skip();
      else this.inner.next();
    }
    return mine!;
  }
}

/** The source a shard draws from: `source` itself when the run is not split. */
export function shardSource(
  source: ConversationSource,
  shard: { readonly index: number; readonly count: number } | null,
): ConversationSource {
  return shard === null || shard.count === 1 ? source : new ShardSource(source, shard);
}

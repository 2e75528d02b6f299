import { describe, expect, it } from 'vitest';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { findMetric } from '../../../../src/metrics/core/summary.js';
import { idealPrefixHits } from '../../../../src/metrics/families/prefix-cache.js';
import type { ProcessedRecord } from '../../../../src/model/processed-record.js';
import { processed } from '../fixtures.js';

/** A record sent at `startMs` with these block hashes. */
function sent(startMs: number, hash_ids: number[] | null, opts: Parameters<typeof processed>[1] = {}): ProcessedRecord {
  const r = processed({ start: BigInt(startMs) * 1_000_000n }, opts);
  if (hash_ids) r.raw.credit.turn.hash_ids = hash_ids;
  return r;
}

describe('theoretical prefix-cache hit rate (ideal infinite cache)', () => {
  it('a block hits when an earlier request (in send order) sent it', () => {
    // Listed out of send order: sends are A [1,2,3] at 0, B [1,2,4] at 10, C [1,5] at 20, D [4,4] at 30.
    const recs = [sent(20, [1, 5]), sent(0, [1, 2, 3]), sent(30, [4, 4], { status: 'error' }), sent(10, [1, 2, 4])];
    // A: 0 of 3; B: 1,2 hit (2 of 3); C: 1 hits (1 of 2); D: 4 (sent by B) hits twice (2 of 2); failures count (they were sent).
    expect(idealPrefixHits(recs)).toEqual({ hits: 5, total: 10 });
    const s = summarize(recs);
    const m = findMetric(s, 'theoretical_prefix_cache_hit_rate');
    expect(m?.kind === 'single' && m.stats.avg).toBe(50);
    expect(m?.group).toBe('cache');
  });

  it('is scoped by phase (warmup blocks are not hits in profiling) and absent without hashes', () => {
    const recs = [sent(0, [1, 2], { phase: 'warmup' }), sent(10, [1, 2], { index: 1 }), sent(20, null, { index: 2 })];
    const m = findMetric(summarize(recs), 'theoretical_prefix_cache_hit_rate');
    expect(m?.kind === 'single' && m.stats.avg).toBe(0);
    expect(findMetric(summarize([sent(0, null)]), 'theoretical_prefix_cache_hit_rate')).toBeUndefined();
  });
});

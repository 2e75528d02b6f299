// The trace's theoretical prefix-cache hit rate (the reference's trace metric): for traces whose
// entries carry block hashes (mooncake `hash_ids`), the hit rate an ideal infinite cache would have,
// 100 · hit blocks / total blocks, where a block hits when any earlier request (in send order) of
// the same phase sent it. Every status counts: a request that failed was still sent.
import { MetricFlag, type RunMetricDef } from '../core/types.js';
import type { ProcessedRecord } from '../../records/types.js';

/** Hit blocks and total blocks of requests in send order (ties: credit order). */
export function idealPrefixHits(records: readonly ProcessedRecord[]): { hits: number; total: number } {
  const withHashes = records.filter((r) => (r.raw.credit.turn.hash_ids?.length ?? 0) > 0);
  withHashes.sort((a, b) =>
    a.raw.start_ns < b.raw.start_ns ? -1 : a.raw.start_ns > b.raw.start_ns ? 1 : a.raw.credit.index - b.raw.credit.index,
  );
  const seen = new Set<number>();
  let hits = 0;
  let total = 0;
  for (const r of withHashes) {
    for (const h of r.raw.credit.turn.hash_ids!) {
      total++;
      if (seen.has(h)) hits++;
    }
    // Added after the request: blocks repeated inside one request are not hits of itself.
    for (const h of r.raw.credit.turn.hash_ids!) seen.add(h);
  }
  return { hits, total };
}

export const theoreticalPrefixCacheHitRate: RunMetricDef = {
  kind: 'aggregate',
  tag: 'theoretical_prefix_cache_hit_rate',
  header: 'Theoretical Prefix-Cache Hit Rate',
  unit: 'percent',
  display: '%',
  flags: MetricFlag.LARGER_IS_BETTER,
  group: 'cache',
  requires: [],
  compute: (run) => {
    if (!run.records) return undefined;
    const { hits, total } = idealPrefixHits(run.records);
    return total === 0 ? undefined : (100 * hits) / total;
  },
};

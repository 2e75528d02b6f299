// The trace's theoretical prefix-cache hit rate (the reference's trace metric): for traces whose
// entries carry block hashes (mooncake `hash_ids`), the hit rate an ideal infinite cache would have,
// 100 · hit blocks / total blocks, where a block hits when any earlier request (in send order) of
// the same phase sent it. Every status counts: a request that failed was still sent.
import { MetricFlag, type FoldSpec, type RecordFold, type RunMetricDef } from '../core/types.js';
import { foldOf } from '../core/helpers.js';
import type { ProcessedRecord } from '../../model/processed-record.js';

/** A request's blocks, where it stands in send order (ties: credit order). */
interface SentBlocks {
  start_ns: bigint;
  index: number;
  hashes: readonly number[];
}

function blocksOf(r: ProcessedRecord): SentBlocks | null {
  const hashes = r.raw.credit.turn.hash_ids;
  return hashes && hashes.length > 0 ? { start_ns: r.raw.start_ns, index: r.raw.credit.index, hashes } : null;
}

/** Hit blocks and total blocks of requests in send order. */
function hitsInSendOrder(sent: SentBlocks[]): { hits: number; total: number } {
  sent.sort((a, b) => (a.start_ns < b.start_ns ? -1 : a.start_ns > b.start_ns ? 1 : a.index - b.index));
  const seen = new Set<number>();
  let hits = 0;
  let total = 0;
  for (const { hashes } of sent) {
    for (const h of hashes) {
      total++;
      if (seen.has(h)) hits++;
    }
    // Added after the request: blocks repeated inside one request are not hits of itself.
    for (const h of hashes) seen.add(h);
  }
  return { hits, total };
}

export function idealPrefixHits(records: readonly ProcessedRecord[]): { hits: number; total: number } {
  const sent: SentBlocks[] = [];
  for (const r of records) {
    const b = blocksOf(r);
    if (b) sent.push(b);
  }
  return hitsInSendOrder(sent);
}

/** Records complete out of send order: each keeps its place and its hash list (the dataset's own). */
class SentBlocksFold implements RecordFold {
  readonly sent: SentBlocks[] = [];
  add(r: ProcessedRecord): void {
    const b = blocksOf(r);
    if (b) this.sent.push(b);
  }
}
const SENT: FoldSpec<SentBlocksFold> = { key: 'prefix_blocks', create: () => new SentBlocksFold() };

export const theoreticalPrefixCacheHitRate: RunMetricDef = {
  kind: 'aggregate',
  tag: 'theoretical_prefix_cache_hit_rate',
  header: 'Theoretical Prefix-Cache Hit Rate',
  unit: 'percent',
  display: '%',
  flags: MetricFlag.LARGER_IS_BETTER,
  group: 'cache',
  requires: [],
  fold: SENT,
  compute: (run) => {
    const f = foldOf(run, SENT);
    if (!f) return undefined;
    const { hits, total } = hitsInSendOrder(f.sent);
    return total === 0 ? undefined : (100 * hits) / total;
  },
};

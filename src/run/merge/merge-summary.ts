// `merge`: the distributions of the merged summary from the shards' HDR histograms, and the
// export's `merge` section (which shards are in it, their starts and clocks, the worst skew).
import { SUMMARY_PERCENTILES } from '../../metrics/core/stats.js';
import type { HistogramExport, MetricHistogram } from '../../metrics/core/histogram.js';
import type { MetricsSummary } from '../../metrics/core/summary.js';
import type { HistogramsJson } from '../../export/histograms.js';
import type { ShardSet } from './merge-inputs.js';

/**
 * Replaces each distribution's histogram and percentiles by the merge of the shards' histograms
 * (the same buckets as one histogram of every value). Moments (count, mean, min, max, std) stay the
 * exact ones of the records; percentiles are clamped to that exact [min, max], as a run's are.
 * A shard without histograms.json leaves the distributions as rebuilt from the records.
 */
export function mergeDistributions(
  summary: MetricsSummary,
  docs: readonly (HistogramsJson | null)[],
  decode: (e: HistogramExport) => MetricHistogram,
): void {
  if (docs.length === 0 || docs.some((d) => d === null) || !summary.histograms) return;
  const merged = new Map<string, MetricHistogram>();
  for (const doc of docs as HistogramsJson[]) {
    for (const [tag, e] of Object.entries(doc.metrics)) {
      const h = decode(e);
      const into = merged.get(tag);
      if (into) into.merge(h);
      else merged.set(tag, h);
    }
  }
  const histograms = new Map(summary.histograms);
  for (const m of summary.metrics) {
    if (m.kind !== 'distribution') continue;
    const h = merged.get(m.tag);
    if (!h || h.count !== m.stats.count) continue;
    const ps = h.percentiles(SUMMARY_PERCENTILES);
    const stats = { ...m.stats };
    SUMMARY_PERCENTILES.forEach((p, i) => {
      stats[`p${p}`] = Math.min(stats.max, Math.max(stats.min, ps[i]));
    });
    stats.median = stats.p50;
    m.stats = stats;
    histograms.set(m.tag, h);
  }
  summary.histograms = histograms;
}

export function mergeSection(set: ShardSet): Record<string, unknown> {
  const shards = set.shards.map((s) => ({
    index: s.index,
    dir: s.dir,
    counts: s.profile.counts,
    start_at: s.section.start_at,
    profiling_start_unix_ns: s.section.profiling_start_unix_ns,
    late_ms: s.section.late_ms,
    late: s.section.late,
    clock: s.section.clock,
  }));
  const offsets = set.shards.map((s) => s.section.clock?.offset_ms).filter((v): v is number => typeof v === 'number');
  const uncert = set.shards.map((s) => s.section.clock?.uncertainty_ms).filter((v): v is number => typeof v === 'number');
  const starts = set.shards
    .map((s) => s.section.profiling_start_unix_ns)
    .filter((v) => v !== null && v !== undefined)
    .map((v) => Number(BigInt(String(v))) / 1e6);
  return {
    shard_count: set.count,
    shards_merged: set.shards.map((s) => s.index),
    partial: set.missing.length + set.failed.length > 0,
    missing: set.missing,
    failed: set.failed,
    // The largest difference between two shards' clock offsets, and the largest uncertainty of one.
    worst_clock_skew_ms: offsets.length > 0 ? Math.max(...offsets) - Math.min(...offsets) : null,
    worst_clock_uncertainty_ms: uncert.length > 0 ? Math.max(...uncert) : null,
    // How far apart the shards' profiling phases started, on their own wall clocks.
    start_spread_ms: starts.length > 0 ? Math.max(...starts) - Math.min(...starts) : null,
    late_shards: set.shards.filter((s) => s.section.late).map((s) => s.index),
    shards,
  };
}

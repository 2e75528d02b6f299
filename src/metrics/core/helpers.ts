// Small numeric helpers shared by the metric families.
import type { MetricValue } from '../../records/types.js';
import type { RecordMetricDef, RunMetricDef, RunMetricInput, RunValue } from './types.js';

export const NS_PER_S = 1e9;

/** Difference of two monotonic stamps as a number of ns (differences stay far below 2^53). */
export function diffNs(later: bigint, earlier: bigint): number {
  return Number(later - earlier);
}

/**
 * A required scalar from the per-record values. The computation loop only calls a metric when
 * all its requirements have values, so a missing or list value here is a declaration bug.
 */
export function scalar(values: ReadonlyMap<string, MetricValue>, tag: string): number {
  const v = values.get(tag);
  if (typeof v !== 'number') throw new Error(`metric input '${tag}' is not a scalar`);
  return v;
}

/** A required run value as a number (bigint stamps are converted; only differences need exactness). */
export function runNumber(values: ReadonlyMap<string, RunValue>, tag: string): number {
  const v = values.get(tag);
  if (v === undefined) throw new Error(`run metric input '${tag}' has no value`);
  return typeof v === 'bigint' ? Number(v) : v;
}

/** Sum of a record metric over successful records (its histogram's exact sum); no value when no record had one. */
export function sumOf(run: RunMetricInput, tag: string): number | undefined {
  const h = run.histograms.get(tag);
  return h && h.count > 0 ? h.sum : undefined;
}

/** The run total of a record metric: same unit, display and flags, no console group. */
export function totalOf(record: RecordMetricDef, tag: string, header: string): RunMetricDef {
  return {
    kind: 'derived',
    tag,
    header,
    unit: record.unit,
    display: record.display,
    flags: record.flags,
    group: 'none',
    requires: [record.tag],
    compute: (run) => sumOf(run, record.tag),
  };
}

/** count / duration, per second; no value for an empty or zero-length window. */
export function perSecond(amount: number, durationNs: number): number | undefined {
  return durationNs > 0 ? amount / (durationNs / NS_PER_S) : undefined;
}

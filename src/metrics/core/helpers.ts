// Small numeric helpers shared by the metric families.
import type { MetricValue, ProcessedRecord } from '../../model/processed-record.js';
import type { FoldSpec, RecordFold, RecordMetricDef, RunMetricDef, RunMetricInput, RunValue } from './types.js';

export const NS_PER_S = 1e9;

/** Difference of two monotonic stamps as a number of ns (differences stay far below 2^53). */
export function diffNs(later: bigint, earlier: bigint): number {
  return Number(later - earlier);
}

/** Whether a BigInt64Array's words can be read as (low, high) uint32/int32 pairs: true on every target built for. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The gaps between successive stamps, in ns: diffNs(s[i], s[i-1]) for each i ≥ 1. A typed column is
 * read as 32-bit halves, so no BigInt is made per stamp; the result is the same while a gap stays
 * below 2^53 ns (104 days), as diffNs assumes.
 */
export function gapsNs(stamps: readonly bigint[] | BigInt64Array): number[] {
  const n = stamps.length;
  const out: number[] = new Array<number>(Math.max(0, n - 1));
  if (n < 2) return out;
  if (stamps instanceof BigInt64Array && LITTLE_ENDIAN) {
    const lo = new Uint32Array(stamps.buffer, stamps.byteOffset, n * 2);
    const hi = new Int32Array(stamps.buffer, stamps.byteOffset, n * 2);
    for (let i = 1; i < n; i++) out[i - 1] = (hi[2 * i + 1] - hi[2 * i - 1]) * 4294967296 + (lo[2 * i] - lo[2 * i - 2]);
    return out;
  }
  for (let i = 1; i < n; i++) out[i - 1] = Number(stamps[i] - stamps[i - 1]);
  return out;
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

/** A run's state of a fold spec; undefined when the summary made none (a hand-built run input). */
export function foldOf<F extends RecordFold>(run: RunMetricInput, spec: FoldSpec<F>): F | undefined {
  return run.folds.get(spec.key) as F | undefined;
}

/** A fold that counts records: `judged` that could be tested, `hits` that passed. */
export class CountFold implements RecordFold {
  judged = 0;
  hits = 0;
  constructor(private readonly test: (r: ProcessedRecord) => boolean | null) {}
  add(r: ProcessedRecord): void {
    const t = this.test(r);
    if (t === null) return;
    this.judged++;
    if (t) this.hits++;
  }
}

/** The fold of a metric that has nothing to count in this run (no SLOs given): it adds nothing. */
export interface NoFold extends RecordFold {
  readonly none: true;
}
export const NO_FOLD: NoFold = Object.freeze({ none: true as const, add: () => undefined });

// Which per-record values make up a distribution, in one place: every record metric of a
// successful record, and the ERROR_ONLY metrics (error_isl) of an error record; cancelled records
// add none. Summaries read these values through histograms (compute.ts); RecordValueLists gives
// the raw lists to the few run metrics that want them, built per tag on first use so a run of
// millions of records holds no per-tag copies it does not need.
import type { MetricValue, ProcessedRecord } from '../../records/types.js';

/** Calls fn(tag, value) for every metric value a record adds to the distributions (a list adds each element). */
export function forEachRecordValue(
  r: ProcessedRecord,
  errorOnly: ReadonlySet<string>,
  fn: (tag: string, value: MetricValue) => void,
): void {
  if (r.status === 'cancelled') return;
  const only = r.status === 'error' ? errorOnly : null;
  for (const [tag, value] of r.metrics) {
    if (only === null || only.has(tag)) fn(tag, value);
  }
}

/** Per-tag value lists over the profiling records, each collected when first asked for. */
export class RecordValueLists implements ReadonlyMap<string, readonly number[]> {
  private readonly cache = new Map<string, number[]>();
  private readonly known: ReadonlySet<string>;

  constructor(
    private readonly records: readonly ProcessedRecord[],
    tags: readonly string[],
    private readonly errorOnly: ReadonlySet<string>,
  ) {
    this.known = new Set(tags);
  }

  get size(): number {
    return this.known.size;
  }

  has(tag: string): boolean {
    return this.known.has(tag);
  }

  get(tag: string): readonly number[] | undefined {
    if (!this.known.has(tag)) return undefined;
    let list = this.cache.get(tag);
    if (!list) {
      const out: number[] = [];
      for (const r of this.records) {
        forEachRecordValue(r, this.errorOnly, (t, v) => {
          if (t !== tag) return;
          if (typeof v === 'number') out.push(v);
          else for (const x of v) out.push(x);
        });
      }
      this.cache.set(tag, (list = out));
    }
    return list;
  }

  forEach(fn: (value: readonly number[], key: string, map: ReadonlyMap<string, readonly number[]>) => void, thisArg?: unknown): void {
    for (const tag of this.known) fn.call(thisArg, this.get(tag)!, tag, this);
  }

  *entries(): MapIterator<[string, readonly number[]]> {
    for (const tag of this.known) yield [tag, this.get(tag)!];
  }

  keys(): MapIterator<string> {
    return this.known.keys();
  }

  *values(): MapIterator<readonly number[]> {
    for (const tag of this.known) yield this.get(tag)!;
  }

  [Symbol.iterator](): MapIterator<[string, readonly number[]]> {
    return this.entries();
  }
}

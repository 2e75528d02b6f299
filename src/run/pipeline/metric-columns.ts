// A batch's per-record metric values as typed columns, as they cross from a record worker back to
// the main thread: a few buffers to clone instead of a Map (string keys, a boxed list) per record,
// and on the main thread one Map rebuilt per record from plain reads.
import { FloatColumn } from '../../metrics/core/column.js';
import type { MetricValue } from '../../model/processed-record.js';

export interface MetricColumns {
  /** The tags in the batch, each once; entries name them by index. */
  tags: string[];
  /** Record i's entries are [first[i], first[i + 1]). */
  first: Uint32Array;
  /** Record i's values start at values[start[i]]. */
  start: Uint32Array;
  /** Per entry: the index of its tag. */
  tag: Uint16Array;
  /** Per entry: the length of a list value; 0 for a scalar (one value). A metric's list is never empty. */
  listLength: Uint32Array;
  values: Float64Array;
}

/** A mock-sized record's values: about 40 scalars and 128 inter-chunk latencies. */
const VALUES_PER_RECORD = 192;

/** Collects one batch's metrics, record after record (a record with none, e.g. a failed item, adds an empty row). */
export class MetricColumnsWriter {
  private readonly tags: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly first: number[] = [0];
  private readonly start: number[] = [0];
  private readonly tag: number[] = [];
  private readonly listLength: number[] = [];
  // The bulk of a batch (inter-chunk latencies): written straight into a Float64 buffer that is moved
  // whole, where a JS array grew by copies in large-object memory and was then copied once more.
  private readonly values: FloatColumn;

  /** `records`: how many the batch holds, to size the values buffer at once. */
  constructor(records = 1) {
    this.values = new FloatColumn(Math.max(256, records * VALUES_PER_RECORD));
  }

  add(metrics: ReadonlyMap<string, MetricValue> | null): void {
    if (metrics !== null) {
      for (const [name, value] of metrics) {
        let k = this.index.get(name);
        if (k === undefined) {
          k = this.tags.length;
          this.tags.push(name);
          this.index.set(name, k);
        }
        this.tag.push(k);
        if (typeof value === 'number') {
          this.listLength.push(0);
          this.values.push(value);
        } else {
          this.listLength.push(value.length);
          for (let i = 0; i < value.length; i++) this.values.push(value[i]);
        }
      }
    }
    this.first.push(this.tag.length);
    this.start.push(this.values.length);
  }

  finish(): MetricColumns {
    return {
      tags: this.tags,
      first: Uint32Array.from(this.first),
      start: Uint32Array.from(this.start),
      tag: Uint16Array.from(this.tag),
      listLength: Uint32Array.from(this.listLength),
      values: this.values.view(),
    };
  }
}

/** One copy of each tag string for every batch (a cloned batch brings its own ~40 strings, ~100 bytes per record kept). */
const TAGS = new Map<string, string>();

/** Makes a batch's tag table point at the one copy of each tag; called once per batch as it arrives. */
export function internTags(c: MetricColumns): MetricColumns {
  for (let k = 0; k < c.tags.length; k++) {
    const t = TAGS.get(c.tags[k]);
    if (t === undefined) TAGS.set(c.tags[k], c.tags[k]);
    else c.tags[k] = t;
  }
  return c;
}

function valueAt(c: MetricColumns, e: number, at: number): MetricValue {
  const n = c.listLength[e];
  if (n === 0) return c.values[at];
  const list = new Array<number>(n);
  for (let k = 0; k < n; k++) list[k] = c.values[at + k];
  return list;
}

/**
 * Record i's metrics read from its batch's columns: a Map's reads without a Map. A run keeps every
 * record until its summary, and a Map per record (with its lists copied out) was about a third of
 * what each one kept; the columns are already there. Nothing per batch is added (a lookup scans the
 * record's ~40 entries), since small batches are common (one per event-loop turn).
 */
export class RecordMetrics implements ReadonlyMap<string, MetricValue> {
  constructor(
    private readonly c: MetricColumns,
    private readonly i: number,
  ) {}

  get size(): number {
    return this.c.first[this.i + 1] - this.c.first[this.i];
  }

  get(tag: string): MetricValue | undefined {
    const c = this.c;
    let at = c.start[this.i];
    for (let e = c.first[this.i]; e < c.first[this.i + 1]; e++) {
      if (c.tags[c.tag[e]] === tag) return valueAt(c, e, at);
      at += c.listLength[e] === 0 ? 1 : c.listLength[e];
    }
    return undefined;
  }

  has(tag: string): boolean {
    const c = this.c;
    for (let e = c.first[this.i]; e < c.first[this.i + 1]; e++) if (c.tags[c.tag[e]] === tag) return true;
    return false;
  }

  forEach(fn: (value: MetricValue, key: string, map: ReadonlyMap<string, MetricValue>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  /** In the order the worker computed them. */
  entries(): MapIterator<[string, MetricValue]> {
    return this.toMap().entries();
  }

  keys(): MapIterator<string> {
    return this.toMap().keys();
  }

  values(): MapIterator<MetricValue> {
    return this.toMap().values();
  }

  [Symbol.iterator](): MapIterator<[string, MetricValue]> {
    return this.entries();
  }

  /** A Map of the same entries, made for one iteration and let go (iterating is once per record per summary). */
  toMap(): Map<string, MetricValue> {
    const c = this.c;
    const out = new Map<string, MetricValue>();
    let at = c.start[this.i];
    for (let e = c.first[this.i]; e < c.first[this.i + 1]; e++) {
      out.set(c.tags[c.tag[e]], valueAt(c, e, at));
      at += c.listLength[e] === 0 ? 1 : c.listLength[e];
    }
    return out;
  }
}

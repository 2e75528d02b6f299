// A batch's per-record metric values as typed columns, as they cross from a record worker back to
// the main thread: a few buffers to clone instead of a Map (string keys, a boxed list) per record,
// and on the main thread one Map rebuilt per record from plain reads.
import type { MetricValue } from '../records/types.js';

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

/** Collects one batch's metrics, record after record (a record with none, e.g. a failed item, adds an empty row). */
export class MetricColumnsWriter {
  private readonly tags: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly first: number[] = [0];
  private readonly start: number[] = [0];
  private readonly tag: number[] = [];
  private readonly listLength: number[] = [];
  private readonly values: number[] = [];

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
      values: Float64Array.from(this.values),
    };
  }
}

/** Record i's metrics, as the Map the worker computed (same order, same values). */
export function metricsAt(c: MetricColumns, i: number): Map<string, MetricValue> {
  const out = new Map<string, MetricValue>();
  let v = c.start[i];
  for (let e = c.first[i]; e < c.first[i + 1]; e++) {
    const n = c.listLength[e];
    if (n === 0) {
      out.set(c.tags[c.tag[e]], c.values[v++]);
    } else {
      const list = new Array<number>(n);
      for (let k = 0; k < n; k++) list[k] = c.values[v + k];
      v += n;
      out.set(c.tags[c.tag[e]], list);
    }
  }
  return out;
}

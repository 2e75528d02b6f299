// A GPU's time series in growable typed-array columns (CLOCK_MONOTONIC ns stamps + one Float64
// column per field). Appends are amortised O(1); views share memory with the columns.
import { SERIES_FIELDS, type SampleValues, type SeriesField } from './types.js';

const INITIAL_CAPACITY = 256;

export class GpuSeries {
  private t: BigInt64Array;
  private readonly cols: Record<SeriesField, Float64Array>;
  private n = 0;

  constructor(capacity = INITIAL_CAPACITY) {
    this.t = new BigInt64Array(capacity);
    this.cols = {} as Record<SeriesField, Float64Array>;
    for (const f of SERIES_FIELDS) this.cols[f] = new Float64Array(capacity);
  }

  get length(): number {
    return this.n;
  }

  /** Appends one sample; fields missing from `values` are NaN. Stamps must not go backwards. */
  push(t_ns: bigint, values: Partial<SampleValues>): void {
    if (this.n === this.t.length) this.grow();
    this.t[this.n] = t_ns;
    for (const f of SERIES_FIELDS) this.cols[f][this.n] = values[f] ?? NaN;
    this.n++;
  }

  /** Appends row `i` of column arrays (the native batch layout) with per-field scale factors. */
  pushColumns(
    t_ns: bigint,
    row: number,
    columns: Partial<Record<SeriesField, Float64Array>>,
    scale: Partial<Record<SeriesField, number>>,
  ): void {
    if (this.n === this.t.length) this.grow();
    this.t[this.n] = t_ns;
    for (const f of SERIES_FIELDS) {
      const c = columns[f];
      this.cols[f][this.n] = c ? c[row] * (scale[f] ?? 1) : NaN;
    }
    this.n++;
  }

  /** The stamps so far (a view; valid until the next push). */
  times(): BigInt64Array {
    return this.t.subarray(0, this.n);
  }

  /** One column so far (a view; valid until the next push). */
  column(field: SeriesField): Float64Array {
    return this.cols[field].subarray(0, this.n);
  }

  private grow(): void {
    const cap = this.t.length * 2;
    const t = new BigInt64Array(cap);
    t.set(this.t);
    this.t = t;
    for (const f of SERIES_FIELDS) {
      const c = new Float64Array(cap);
      c.set(this.cols[f]);
      this.cols[f] = c;
    }
  }
}

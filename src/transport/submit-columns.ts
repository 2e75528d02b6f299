// The typed-array columns of engine.submit, kept from batch to batch. The engine copies them during
// the call, so one set serves every batch. Columns made per batch are small enough for V8 to keep on
// its heap, and the addon's look at each (napi_get_typedarray_info) then moves it to a new off-heap
// buffer: five allocations per batch, and a batch is often a single request.

export interface SubmitViews {
  ids: Uint32Array;
  ends: Uint32Array;
  streaming: Uint8Array;
  /** Every entry the transport's request timeout (ms): set here, never by the caller. */
  timeouts: Float64Array;
  targets: BigInt64Array;
}

export class SubmitColumns {
  private cap = 0;
  private cols!: SubmitViews;
  /** The views of the last length asked for (most batches have the length of the one before). */
  private last: SubmitViews | null = null;

  constructor(private readonly timeoutMs: number) {
    this.grow(256);
  }

  /** Views of the first n entries; the caller fills ids, ends, streaming and targets. */
  take(n: number): SubmitViews {
    if (n > this.cap) this.grow(Math.max(n, this.cap * 2));
    const last = this.last;
    if (last !== null && last.ids.length === n) return last;
    const c = this.cols;
    const v: SubmitViews = {
      ids: c.ids.subarray(0, n),
      ends: c.ends.subarray(0, n),
      streaming: c.streaming.subarray(0, n),
      timeouts: c.timeouts.subarray(0, n),
      targets: c.targets.subarray(0, n),
    };
    this.last = v;
    return v;
  }

  private grow(cap: number): void {
    this.cap = cap;
    this.cols = {
      ids: new Uint32Array(cap),
      ends: new Uint32Array(cap),
      streaming: new Uint8Array(cap),
      timeouts: new Float64Array(cap).fill(this.timeoutMs),
      targets: new BigInt64Array(cap),
    };
    this.last = null;
  }
}

// A growable Float64 column: what a run keeps per finished request where an answer needs every
// value (a sorted lag list, the time-weighted sweep), at 8 bytes a value instead of an object.

export class FloatColumn {
  private buf: Float64Array;
  length = 0;

  constructor(capacity = 256) {
    this.buf = new Float64Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }

  /** The values so far: a view, valid until the next push. */
  view(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}

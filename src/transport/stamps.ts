// A growable column of CLOCK_MONOTONIC stamps, one per received chunk.
export class StampColumn {
  private buf: BigInt64Array;
  length = 0;

  constructor(capacity = 64) {
    this.buf = new BigInt64Array(capacity);
  }

  push(ns: bigint): void {
    if (this.length === this.buf.length) {
      const next = new BigInt64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = ns;
  }

  /** A view of the filled part (no copy). */
  view(): BigInt64Array {
    return this.buf.subarray(0, this.length);
  }
}

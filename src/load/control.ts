// Run control shared by every phase and sweep point: stop issuing (first Ctrl-C, or a sweep
// that is done), and cancel what is in flight now (second Ctrl-C). Sleepers wake on either.

export class RunControl {
  stopped = false;
  cancelled = false;
  private readonly listeners = new Set<() => void>();

  /** Stop issuing new requests; in-flight ones may finish (within the grace period). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.wake();
  }

  /** Stop issuing and cancel everything in flight now. */
  cancel(): void {
    this.stopped = true;
    if (this.cancelled) return;
    this.cancelled = true;
    this.wake();
  }

  /** Calls `fn` on the next stop() or cancel(); returns the unsubscribe function. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private wake(): void {
    for (const fn of [...this.listeners]) fn();
  }
}

/** Kept for callers of the foundation API: a control that only stops. */
export { RunControl as StopToken };

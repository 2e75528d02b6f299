// --max-concurrent N: the mock's server-side capacity. At most N generation requests are served
// at once; the rest wait in arrival order (FIFO) and their service (TTFT, then the tokens) starts
// when a slot frees, so TTFT grows with the load as a real server's queue makes it grow. A request
// whose client goes away while it waits leaves the queue without taking a slot.
import type { ServerResponse } from 'node:http';

interface Waiting {
  res: ServerResponse;
  start: () => void;
  gone: boolean;
}

export class CapacityQueue {
  private active = 0;
  private readonly waiting: Waiting[] = [];
  private head = 0;

  /** limit: requests served at once; 0 means no limit (every request starts at once). */
  constructor(private readonly limit: number) {}

  /** Requests waiting for a slot now. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Runs `start` now if a slot is free, else once one frees; the slot is held until `res` closes. */
  admit(res: ServerResponse, start: () => void): void {
    if (this.limit === 0) return start();
    if (this.active < this.limit) return this.begin(res, start);
    const w: Waiting = { res, start, gone: false };
    res.once('close', () => {
      w.gone = true;
    });
    this.waiting.push(w);
  }

  private begin(res: ServerResponse, start: () => void): void {
    this.active++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.active--;
      this.next();
    };
    // 'finish': the last byte was handed to the socket; 'close' covers a client that went away.
    res.once('finish', release);
    res.once('close', release);
    start();
  }

  private next(): void {
    while (this.active < this.limit && this.head < this.waiting.length) {
      const w = this.waiting[this.head++];
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      if (!w.gone) this.begin(w.res, w.start);
    }
  }
}

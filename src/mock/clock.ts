// One timer for all streams: a min-heap of jobs keyed by absolute due time (performance.now ms).
// Why not a setTimeout per chunk: thousands of concurrent streams would each allocate a timer per
// token; here each wake-up serves every job that is due, and due times are absolute
// (start + ttft + k*itl), so a late wake-up never shifts later chunks (no drift).
import { MAX_TIMER_MS } from '../timers.js';
import { performance } from 'node:perf_hooks';

export interface ClockJob {
  /** Absolute due time in performance.now() ms. */
  due: number;
  /** Do the due work; return the next due time, or -1 when finished or waiting on something else. */
  run(now: number): number;
}

/** Wake-ups this close to a due time count as on time (setTimeout has 1 ms granularity). */
const SLACK_MS = 0.5;

export class Clock {
  private readonly heap: ClockJob[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private armedFor = Infinity;
  private stopped = false;

  add(job: ClockJob): void {
    if (this.stopped) return;
    this.push(job);
    if (job.due < this.armedFor) this.arm();
  }

  /** Drop every job and timer (server shutdown). */
  stop(): void {
    this.stopped = true;
    this.heap.length = 0;
    this.disarm();
  }

  private readonly tick = (): void => {
    this.timer = null;
    this.immediate = null;
    this.armedFor = Infinity;
    const now = performance.now();
    const horizon = now + SLACK_MS;
    // Take everything due, run each once, then put back the unfinished: a job with itl 0 gets one
    // batch per tick and the event loop gets a turn (I/O, new requests) between batches.
    const due: ClockJob[] = [];
    while (this.heap.length > 0 && this.heap[0].due <= horizon) due.push(this.pop());
    for (const job of due) {
      const next = job.run(now);
      if (next >= 0 && !this.stopped) {
        job.due = next;
        this.push(job);
      }
    }
    this.arm();
  };

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    this.armedFor = Infinity;
  }

  private arm(): void {
    this.disarm();
    if (this.stopped || this.heap.length === 0) return;
    const first = this.heap[0].due;
    const wait = first - performance.now();
    this.armedFor = first;
    if (wait <= SLACK_MS) this.immediate = setImmediate(this.tick);
    // A tick re-arms for the next due job, so a wait beyond one Node timer is a chain of them.
    else this.timer = setTimeout(this.tick, Math.min(MAX_TIMER_MS, Math.max(1, Math.round(wait))));
  }

  private push(job: ClockJob): void {
    const h = this.heap;
    let i = h.length;
    h.push(job);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent].due <= job.due) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = job;
  }

  private pop(): ClockJob {
    const h = this.heap;
    const top = h[0];
    const last = h.pop() as ClockJob;
    if (h.length > 0) {
      let i = 0;
      const n = h.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && h[r].due < h[l].due ? r : l;
        if (h[c].due >= last.due) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

// The live progress line: done/total (or elapsed/duration), rate, in flight, errors, ETA.
// Redrawn at most 4 times a second, on a TTY only.
import type { CreditCounters } from '../load/counters.js';

export interface ProgressTarget {
  requestCount: number | null;
  durationS: number | null;
}

export function formatProgress(c: CreditCounters, target: ProgressTarget, elapsedS: number, label: string): string {
  const done = c.completed;
  const rate = elapsedS > 0 ? done / elapsedS : 0;
  let head: string;
  let eta: number | null = null;
  if (target.requestCount !== null) {
    head = `${done}/${target.requestCount} requests`;
    if (rate > 0) eta = Math.max(0, (target.requestCount - done) / rate);
  } else {
    const d = target.durationS ?? 0;
    head = `${elapsedS.toFixed(1)}/${d.toFixed(0)} s`;
    eta = Math.max(0, d - elapsedS);
  }
  const parts = [
    `[${label}] ${head}`,
    `${rate.toFixed(1)} req/s`,
    `sent ${c.sent}`,
    c.waiting > 0 ? `in flight ${c.inFlight} (+${c.waiting} waiting)` : `in flight ${c.inFlight}`,
    `errors ${c.errored}`,
    `cancelled ${c.cancelled}`,
    `ETA ${eta === null ? '--' : fmtDuration(eta)}`,
  ];
  return parts.join(' | ');
}

function fmtDuration(s: number): string {
  if (s < 60) return `${Math.ceil(s)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.ceil(s - m * 60)).padStart(2, '0')}s`;
}

export class ProgressLine {
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private label = '';
  private lastWidth = 0;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly enabled: boolean,
  ) {}

  start(label: string, counters: CreditCounters, target: ProgressTarget): void {
    if (!this.enabled) return;
    this.stop();
    this.label = label;
    this.startedAt = performance.now();
    const draw = () => {
      const line = formatProgress(counters, target, (performance.now() - this.startedAt) / 1000, this.label);
      const cols = this.out.columns || 120;
      const text = line.length > cols - 1 ? line.slice(0, cols - 1) : line;
      this.out.write('\r' + text.padEnd(this.lastWidth));
      this.lastWidth = text.length;
    };
    draw();
    this.timer = setInterval(draw, 250);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.enabled && this.lastWidth > 0) this.out.write('\r' + ' '.repeat(this.lastWidth) + '\r');
    this.lastWidth = 0;
  }
}

import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { Clock, type ClockJob } from '../../../src/mock/clock.js';

describe('Clock', () => {
  it('runs jobs in due order, never early, and repeats a job at the due time it returns', async () => {
    const clock = new Clock();
    const start = performance.now();
    const log: Array<{ name: string; late: number }> = [];
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    const job = (name: string, offsets: number[]): ClockJob => {
      let i = 0;
      return {
        due: start + offsets[0],
        run(now) {
          log.push({ name, late: now - (start + offsets[i]) });
          i++;
          if (i < offsets.length) return start + offsets[i];
          if (name === 'c') finished();
          return -1;
        },
      };
    };
    clock.add(job('c', [60]));
    clock.add(job('a', [10, 30, 50]));
    clock.add(job('b', [20, 40]));
    await done;
    clock.stop();
    expect(log.map((e) => e.name).join('')).toBe('ababac');
    for (const e of log) expect(e.late).toBeGreaterThanOrEqual(-0.5);
  });

  it('gives each due job one run per tick, so a job that is always due cannot starve others', async () => {
    const clock = new Clock();
    let busyRuns = 0;
    let otherRan = false;
    // The cap only ends the test if starvation happened: far more ticks than fit in the 5 ms before
    // the other job is due (a tick is a few µs; 1,000 of them fitted on a fast host).
    const CAP = 1_000_000;
    const busy: ClockJob = { due: 0, run: (now) => (++busyRuns < CAP && !otherRan ? now : -1) };
    const other: ClockJob = { due: performance.now() + 5, run: () => ((otherRan = true), -1) };
    clock.add(busy);
    clock.add(other);
    await new Promise((r) => setTimeout(r, 50));
    clock.stop();
    expect(otherRan).toBe(true);
    expect(busyRuns).toBeLessThan(CAP);
    expect(busyRuns).toBeGreaterThan(1);
  });
});

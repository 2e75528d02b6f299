import { describe, expect, it } from 'vitest';
import { threadCpuBetween, threadSnapshot } from '../../../src/harness/threads.js';

describe('CPU by thread kind', () => {
  it('puts CPU the JS thread burns on the main thread, and sorts engine I/O threads by name', () => {
    const a = threadSnapshot();
    expect(a).not.toBeNull();
    const until = performance.now() + 150;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const b = threadSnapshot()!;
    const t = threadCpuBetween(a!, b);
    expect(t.main_s).toBeGreaterThanOrEqual(0.08);
    expect(t.io_s).toBe(0);
    expect(x).toBeGreaterThan(0);
  });

  it('counts a thread by its name and only what it used between the snapshots', () => {
    const start = new Map([
      [10, { io: false, cpu_s: 5 }],
      [11, { io: true, cpu_s: 1 }],
    ]);
    const end = new Map([
      [10, { io: false, cpu_s: 7 }],
      [11, { io: true, cpu_s: 4 }],
      [12, { io: true, cpu_s: 0.5 }],
      [13, { io: false, cpu_s: 0.25 }],
    ]);
    expect(threadCpuBetween(start, end, 10)).toEqual({ main_s: 2, io_s: 3.5, other_s: 0.25 });
  });
});

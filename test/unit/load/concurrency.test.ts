import { describe, expect, it } from 'vitest';
import { StopToken, runClosedLoopPhase } from '../../../src/load/concurrency.js';
import { runBenchmark } from '../../../src/load/benchmark.js';
import type { Credit } from '../../../src/records/types.js';

const dataset = { kind: 'fixed', size: null, next: () => ({ prompt: 'p', isl: 1, max_tokens: 1 }) };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('closed-loop phase', () => {
  it('issues exactly the request count and never exceeds the concurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const ids = new Set<string>();
    const r = await runClosedLoopPhase(
      { phase: 'profiling', concurrency: 4, requestCount: 23, durationNs: null },
      dataset,
      async (c: Credit) => {
        ids.add(c.x_request_id);
        inFlight++;
        peak = Math.max(peak, inFlight);
        await sleep(2);
        inFlight--;
      },
      new StopToken(),
    );
    expect(r.counters.sent).toBe(23);
    expect(ids.size).toBe(23);
    expect(peak).toBe(4);
  });

  it('stamps each credit when issued, with increasing indices', async () => {
    const credits: Credit[] = [];
    await runClosedLoopPhase(
      { phase: 'warmup', concurrency: 2, requestCount: 6, durationNs: null },
      dataset,
      async (c) => {
        credits.push(c);
        await sleep(1);
      },
      new StopToken(),
      undefined,
      10,
    );
    expect(credits.map((c) => c.index).sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(credits.every((c) => c.phase === 'warmup' && c.targeted_start_ns === null)).toBe(true);
  });

  it('stops issuing at the duration', async () => {
    const t0 = performance.now();
    const r = await runClosedLoopPhase(
      { phase: 'profiling', concurrency: 2, requestCount: null, durationNs: 100_000_000n },
      dataset,
      () => sleep(10),
      new StopToken(),
    );
    const ms = performance.now() - t0;
    expect(ms).toBeGreaterThanOrEqual(95);
    expect(ms).toBeLessThan(400);
    expect(r.counters.sent).toBeGreaterThan(4);
  });

  it('stops issuing when the stop token fires', async () => {
    const stop = new StopToken();
    const r = await runClosedLoopPhase(
      { phase: 'profiling', concurrency: 1, requestCount: 1000, durationNs: null },
      dataset,
      async (c) => {
        if (c.index === 4) stop.stop();
        await sleep(1);
      },
      stop,
    );
    expect(r.counters.sent).toBe(5);
  });
});

describe('runBenchmark', () => {
  it('runs warmup then profiling, counting each outcome', async () => {
    const phases: string[] = [];
    const res = await runBenchmark(
      {
        warmup: { phase: 'warmup', concurrency: 2, requestCount: 3, durationNs: null },
        profiling: { phase: 'profiling', concurrency: 3, requestCount: 9, durationNs: null },
      },
      dataset,
      {
        dispatch: async (c) => {
          phases.push(c.phase);
          return c.index % 3 === 0 ? 'error' : 'ok';
        },
      },
      new StopToken(),
    );
    expect(phases.filter((p) => p === 'warmup')).toHaveLength(3);
    expect(phases.slice(3).every((p) => p === 'profiling')).toBe(true);
    const p = res.profiling.counters;
    expect(p.sent).toBe(9);
    expect(p.succeeded + p.errored + p.cancelled).toBe(9);
    expect(p.errored).toBe(3); // indices 3, 6, 9 ... of 3..11
  });
});

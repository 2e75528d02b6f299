// The three load modes through runBenchmark, against a fake transport.
import { describe, expect, it } from 'vitest';
import { runBenchmark, type BenchmarkPlan } from '../../../src/load/benchmark.js';
import { RunControl } from '../../../src/load/control.js';
import type { PhaseSpec } from '../../../src/load/types.js';
import { fakeTransport, ms, singleTurnSource } from './fakes.js';

const closed = (concurrency: number, over: Partial<PhaseSpec> = {}): PhaseSpec => ({
  phase: 'profiling',
  mode: { kind: 'concurrency', concurrency, rampNs: null },
  requestCount: 20,
  durationNs: null,
  cooldownNs: null,
  ...over,
});

const rate = (
  r: number,
  over: Partial<PhaseSpec> = {},
  cap: number | null = null,
  pattern: 'constant' | 'poisson' = 'constant',
): PhaseSpec => ({
  phase: 'profiling',
  mode: { kind: 'rate', arrival: { pattern, rate: r, smoothness: 1, rampNs: null, seed: 1 }, cap, capRampNs: null },
  requestCount: 20,
  durationNs: null,
  cooldownNs: null,
  ...over,
});

const plan = (profiling: PhaseSpec, over: Partial<BenchmarkPlan> = {}): BenchmarkPlan => ({
  warmup: null,
  profiling,
  graceNs: 30e9,
  cancellation: null,
  ...over,
});

describe('closed loop', () => {
  it('issues exactly the request count, never more than the concurrency in flight, no targeted start', async () => {
    const t = fakeTransport(() => 3);
    const r = await runBenchmark(plan(closed(4, { requestCount: 23 })), singleTurnSource(), t.hooks, new RunControl());
    expect(t.sent).toHaveLength(23);
    expect(t.peak).toBe(4);
    expect(new Set(t.sent.map((s) => s.credit.x_request_id)).size).toBe(23);
    expect(t.sent.map((s) => s.credit.index).sort((a, b) => a - b)).toEqual([...Array(23).keys()]);
    expect(t.sent.every((s) => s.credit.targeted_start_ns === null && s.credit.phase === 'profiling')).toBe(true);
    expect(r.profiling!.counters.toJSON()).toMatchObject({ sent: 23, completed: 23, succeeded: 23, in_flight: 0 });
    expect(r.profiling!.reason).toBe('count');
  });

  it('stops issuing at the duration', async () => {
    const t = fakeTransport(() => 10);
    const t0 = performance.now();
    const r = await runBenchmark(plan(closed(2, { requestCount: null, durationNs: 100e6 })), singleTurnSource(), t.hooks, new RunControl());
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(400);
    expect(t.sent.length).toBeGreaterThan(4);
    for (const s of t.sent) expect(ms(s.at - r.profiling!.start_ns)).toBeLessThan(100);
    expect(r.profiling!.reason).toBe('duration');
  });

  it('ramps the concurrency linearly: slot k opens at k/N of the ramp', async () => {
    const t = fakeTransport(() => 400);
    const r = await runBenchmark(
      plan(closed(4, { requestCount: 4, mode: { kind: 'concurrency', concurrency: 4, rampNs: 200e6 } })),
      singleTurnSource(),
      t.hooks,
      new RunControl(),
    );
    const starts = t.sent.map((s) => ms(s.at - r.profiling!.start_ns)).sort((a, b) => a - b);
    [0, 50, 100, 150].forEach((expected, k) => {
      expect(starts[k]).toBeGreaterThanOrEqual(expected - 1);
      expect(starts[k]).toBeLessThan(expected + 30);
    });
  });

  it('warmup is drained before profiling starts; indices continue', async () => {
    const t = fakeTransport(() => 5);
    const warm: PhaseSpec = { ...closed(2, { requestCount: 5 }), phase: 'warmup' };
    const r = await runBenchmark(plan(closed(3, { requestCount: 9 }), { warmup: warm }), singleTurnSource(), t.hooks, new RunControl());
    const w = t.sent.filter((s) => s.credit.phase === 'warmup');
    const p = t.sent.filter((s) => s.credit.phase === 'profiling');
    expect(w).toHaveLength(5);
    expect(p).toHaveLength(9);
    const lastWarmEnd = w.map((s) => s.end!).reduce((a, b) => (a > b ? a : b));
    for (const s of p) expect(s.at >= lastWarmEnd).toBe(true);
    expect(Math.min(...p.map((s) => s.credit.index))).toBe(5);
    expect(r.warmup!.counters.sent).toBe(5);
    expect(r.profiling!.counters.sent).toBe(9);
  });

  it('a cooldown keeps the load on after the count, tagged cooldown and counted apart', async () => {
    const t = fakeTransport(() => 5);
    const r = await runBenchmark(plan(closed(2, { requestCount: 10, cooldownNs: 60e6 })), singleTurnSource(), t.hooks, new RunControl());
    expect(t.sent.filter((s) => s.credit.phase === 'profiling')).toHaveLength(10);
    const cool = t.sent.filter((s) => s.credit.phase === 'cooldown');
    expect(cool.length).toBeGreaterThan(2);
    expect(r.profiling!.cooldown!.sent).toBe(cool.length);
    // Every cooldown request started after the measured part ended, none after the cooldown.
    for (const s of cool) {
      expect(s.at >= r.profiling!.measured_end_ns).toBe(true);
      expect(ms(s.at - r.profiling!.measured_end_ns)).toBeLessThan(60);
    }
  });
});

describe('open loop (rate)', () => {
  it('constant 500 req/s: request i targeted at start + 2 ms · i, never early, no drift', async () => {
    const t = fakeTransport(() => 2);
    const r = await runBenchmark(plan(rate(500, { requestCount: 100 })), singleTurnSource(), t.hooks, new RunControl());
    expect(t.sent).toHaveLength(100);
    const start = r.profiling!.start_ns;
    t.sent.forEach((s, i) => {
      expect(s.credit.targeted_start_ns).toBe(start + BigInt(i * 2_000_000));
      expect(s.at >= s.credit.targeted_start_ns!).toBe(true);
    });
    // Absolute targets: the span is the schedule's 198 ms plus the last request's lag. Relative
    // sleeps would add every timer's overshoot (≥ ~1 ms each, ~100 ms here). Room is left for a
    // busy shared host.
    const span = ms(t.sent[99].at - t.sent[0].at);
    expect(span).toBeGreaterThanOrEqual(198 - ms(t.sent[0].at - start));
    expect(span).toBeLessThan(198 + 60);
  });

  it('catches up after a stall: overdue requests go at once with their planned targets, none skipped', async () => {
    let stalled = false;
    const t = fakeTransport(() => 1);
    const dispatch = t.hooks.dispatch;
    t.hooks.dispatch = (c, o) => {
      if (!stalled) {
        stalled = true;
        const until = performance.now() + 30;
        while (performance.now() < until); // block the event loop for 30 ms
      }
      return dispatch(c, o);
    };
    const r = await runBenchmark(plan(rate(1000, { requestCount: 60 })), singleTurnSource(), t.hooks, new RunControl());
    expect(t.sent).toHaveLength(60);
    const start = r.profiling!.start_ns;
    t.sent.forEach((s, i) => expect(s.credit.targeted_start_ns).toBe(start + BigInt(i * 1_000_000)));
    // Requests 1..~29 were due during the stall and were all sent right after it.
    const late = t.sent.slice(1, 25).map((s) => ms(s.at - start));
    expect(Math.min(...late)).toBeGreaterThanOrEqual(29);
    // Relative sleeps would space them 1 ms apart again (~24 ms); a catch-up sends them in one burst.
    expect(Math.max(...late) - Math.min(...late)).toBeLessThan(15);
    // Later ones are back on schedule.
    const tail = t.sent.slice(45).map((s) => ms(s.at - s.credit.targeted_start_ns!));
    expect(Math.max(...tail)).toBeLessThan(25);
  });

  it('with a cap: never more in flight; a request waits for a slot and the wait is dispatch delay', async () => {
    const t = fakeTransport(() => 50);
    await runBenchmark(plan(rate(200, { requestCount: 12 }, 2)), singleTurnSource(), t.hooks, new RunControl());
    expect(t.peak).toBe(2);
    expect(t.sent).toHaveLength(12);
    for (const s of t.sent) {
      // Issued (credit_issued_ns) when due; sent when a slot freed.
      // (Room for a busy host; a credit issued only when a slot freed would be ~50–200 ms late.)
      expect(ms(s.credit.credit_issued_ns - s.credit.targeted_start_ns!)).toBeLessThan(40);
      expect(s.at >= s.credit.credit_issued_ns).toBe(true);
    }
    const last = t.sent[11];
    // 12 requests, 2 at a time, 50 ms each: the last one starts ~250 ms in, its target was 55 ms.
    expect(ms(last.at - last.credit.targeted_start_ns!)).toBeGreaterThan(150);
  });

  it('stops at the duration without scheduling past it', async () => {
    const t = fakeTransport(() => 1);
    const r = await runBenchmark(plan(rate(100, { requestCount: null, durationNs: 105e6 })), singleTurnSource(), t.hooks, new RunControl());
    expect(t.sent).toHaveLength(11); // targets 0, 10, …, 100 ms
    expect(r.profiling!.reason).toBe('duration');
  });

  it('a cooldown continues the schedule for its duration', async () => {
    const t = fakeTransport(() => 1);
    const r = await runBenchmark(plan(rate(100, { requestCount: 5, cooldownNs: 50e6 })), singleTurnSource(), t.hooks, new RunControl());
    expect(t.sent.filter((s) => s.credit.phase === 'profiling')).toHaveLength(5);
    const cool = t.sent.filter((s) => s.credit.phase === 'cooldown');
    expect(cool.length).toBeGreaterThanOrEqual(4);
    expect(cool.length).toBeLessThanOrEqual(6);
    expect(r.profiling!.cooldown!.sent).toBe(cool.length);
    // The schedule goes on: targets keep their 10 ms spacing across the switch.
    const targets = t.sent.map((s) => s.credit.targeted_start_ns!);
    for (let i = 1; i < targets.length; i++) expect(Number(targets[i] - targets[i - 1])).toBe(10_000_000);
  });
});

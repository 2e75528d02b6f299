// Stopping and cancelling: the grace period, Ctrl-C (stop, then cancel), deliberate cancellation.
import { describe, expect, it } from 'vitest';
import { runBenchmark, type BenchmarkPlan } from '../../../src/load/benchmark.js';
import { RunControl } from '../../../src/load/control.js';
import { sleepNs, waitUntil } from '../../../src/load/timer.js';
import type { PhaseSpec } from '../../../src/load/types.js';
import { fakeTransport, singleTurnSource, sleep } from './fakes.js';

const closed = (concurrency: number, over: Partial<PhaseSpec> = {}): PhaseSpec => ({
  phase: 'profiling',
  mode: { kind: 'concurrency', concurrency, rampNs: null },
  requestCount: null,
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

describe('grace period after the duration', () => {
  it('requests still in flight when it ends are cancelled and counted as cancelled', async () => {
    const t = fakeTransport(() => 10_000);
    const t0 = performance.now();
    const r = await runBenchmark(plan(closed(3, { durationNs: 50e6 }), { graceNs: 100e6 }), singleTurnSource(), t.hooks, new RunControl());
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(145);
    expect(took).toBeLessThan(1000);
    expect(t.cancelAllCalls).toEqual(['grace period over']);
    const c = r.profiling!.counters.toJSON();
    expect(c).toMatchObject({ sent: 3, cancelled: 3, succeeded: 0, in_flight: 0 });
    expect(r.profiling!.grace_expired).toBe(true);
  });

  it('requests that finish within it are kept', async () => {
    const t = fakeTransport(() => 80);
    const r = await runBenchmark(plan(closed(2, { durationNs: 50e6 }), { graceNs: 1e9 }), singleTurnSource(), t.hooks, new RunControl());
    expect(t.cancelAllCalls).toHaveLength(0);
    expect(r.profiling!.counters.toJSON()).toMatchObject({ sent: 2, succeeded: 2, cancelled: 0 });
    expect(r.profiling!.grace_expired).toBe(false);
  });

  it('a count-bounded run waits for every request, however long', async () => {
    const t = fakeTransport(() => 150);
    const r = await runBenchmark(plan(closed(2, { requestCount: 2 }), { graceNs: 10e6 }), singleTurnSource(), t.hooks, new RunControl());
    expect(r.profiling!.counters.succeeded).toBe(2);
  });
});

describe('Ctrl-C', () => {
  it('the first stops issuing and waits for the requests in flight; exports see every one settled', async () => {
    const t = fakeTransport(() => 100);
    const control = new RunControl();
    setTimeout(() => control.stop(), 150);
    const r = await runBenchmark(plan(closed(4, { requestCount: 1000 })), singleTurnSource(), t.hooks, control);
    expect(r.interrupted).toBe(true);
    const c = r.profiling!.counters.toJSON();
    expect(c.sent).toBe(8); // two rounds of 4 were issued before 150 ms
    expect(c).toMatchObject({ succeeded: 8, cancelled: 0, in_flight: 0 });
    expect(r.profiling!.reason).toBe('interrupted');
  });

  it('the second cancels what is in flight now', async () => {
    const t = fakeTransport(() => 10_000);
    const control = new RunControl();
    setTimeout(() => control.stop(), 50);
    setTimeout(() => control.cancel(), 120);
    const t0 = performance.now();
    const r = await runBenchmark(plan(closed(4, { requestCount: 1000 })), singleTurnSource(), t.hooks, control);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(t.cancelAllCalls).toEqual(['cancelled by the user (a second signal)']);
    expect(r.profiling!.counters.toJSON()).toMatchObject({ sent: 4, cancelled: 4, in_flight: 0 });
  });

  it('after the first, the grace period bounds the wait', async () => {
    const t = fakeTransport(() => 10_000);
    const control = new RunControl();
    setTimeout(() => control.stop(), 30);
    const r = await runBenchmark(plan(closed(2, { requestCount: 100 }), { graceNs: 80e6 }), singleTurnSource(), t.hooks, control);
    expect(r.profiling!.counters.toJSON()).toMatchObject({ sent: 2, cancelled: 2 });
    expect(r.profiling!.grace_expired).toBe(true);
  });

  it('during warmup: the profiling phase never starts', async () => {
    const t = fakeTransport(() => 20);
    const control = new RunControl();
    setTimeout(() => control.stop(), 50);
    const r = await runBenchmark(
      plan(closed(2, { requestCount: 10 }), { warmup: { ...closed(2, { requestCount: 1000 }), phase: 'warmup' } }),
      singleTurnSource(),
      t.hooks,
      control,
    );
    expect(r.profiling).toBeNull();
    expect(t.sent.every((s) => s.credit.phase === 'warmup')).toBe(true);
  });

  it('an open-loop run stops issuing too, and credits waiting for a slot are never sent', async () => {
    const t = fakeTransport(() => 200);
    const control = new RunControl();
    setTimeout(() => control.stop(), 60);
    const spec: PhaseSpec = {
      phase: 'profiling',
      mode: { kind: 'rate', arrival: { pattern: 'constant', rate: 200, smoothness: 1, rampNs: null, seed: 0 }, cap: 2, capRampNs: null },
      requestCount: 1000,
      durationNs: null,
      cooldownNs: null,
    };
    const r = await runBenchmark(plan(spec), singleTurnSource(), t.hooks, control);
    const c = r.profiling!.counters.toJSON();
    expect(c.sent).toBe(2);
    expect(c.succeeded).toBe(2);
    // ~12 were due by 60 ms; all but the 2 in flight waited for a slot and were dropped.
    expect(c.unsent).toBeGreaterThanOrEqual(8);
    expect(c.unsent).toBeLessThanOrEqual(14);
  });
});

describe('deliberate cancellation', () => {
  const run = async (seed: number) => {
    const t = fakeTransport(() => 60);
    const r = await runBenchmark(
      plan(closed(20, { requestCount: 100 }), { cancellation: { rate: 0.3, delayNs: 10e6, seed } }),
      singleTurnSource(),
      t.hooks,
      new RunControl(),
    );
    return {
      t,
      r,
      cancelled: t.sent
        .filter((s) => s.status === 'cancelled')
        .map((s) => s.credit.index)
        .sort((a, b) => a - b),
    };
  };

  it('cancels about the share asked for, after the delay, chosen by the seed', async () => {
    const a = await run(1);
    expect(a.cancelled.length).toBeGreaterThan(15);
    expect(a.cancelled.length).toBeLessThan(45);
    expect(a.r.profiling!.counters.cancelled).toBe(a.cancelled.length);
    for (const s of a.t.sent.filter((x) => x.status === 'cancelled')) {
      const after = Number(s.end! - s.at) / 1e6;
      expect(after).toBeGreaterThanOrEqual(9);
      expect(after).toBeLessThan(55);
    }
    const b = await run(1);
    expect(b.cancelled).toEqual(a.cancelled);
    const c = await run(2);
    expect(c.cancelled).not.toEqual(a.cancelled);
  });
});

describe('timer', () => {
  it('waitUntil resolves at (not before) a sub-millisecond deadline', async () => {
    const lates: number[] = [];
    for (let i = 0; i < 20; i++) {
      const deadline = process.hrtime.bigint() + 2_300_000n;
      expect(await waitUntil(deadline)).toBe(true);
      const late = Number(process.hrtime.bigint() - deadline);
      expect(late).toBeGreaterThanOrEqual(0);
      lates.push(late);
    }
    lates.sort((a, b) => a - b);
    // The median lands within a fraction of a millisecond even on a shared host.
    expect(lates[10]).toBeLessThan(1_000_000);
  });

  it('with naps, deadlines are still met (within the kernel timer slack) without spinning', async () => {
    const lates: number[] = [];
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) {
      const deadline = process.hrtime.bigint() + 1_200_000n;
      expect(await waitUntil(deadline, undefined, { nap: true })).toBe(true);
      lates.push(Number(process.hrtime.bigint() - deadline));
    }
    const c = process.cpuUsage(c0);
    lates.sort((a, b) => a - b);
    expect(lates[0]).toBeGreaterThanOrEqual(0);
    expect(lates[10]).toBeLessThan(1_000_000);
    // Napping leaves most of the 24 ms to other processes (a spin would use all of it).
    expect((c.user + c.system) / 1000).toBeLessThan((performance.now() - t0) * 0.8);
  });

  it('a stop wakes a long sleep early', async () => {
    const c = new RunControl();
    setTimeout(() => c.stop(), 20);
    const t0 = performance.now();
    expect(await sleepNs(5e9, c)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(500);
    // interruptOn 'cancel' ignores a stop.
    const c2 = new RunControl();
    c2.stop();
    expect(await sleepNs(5e6, c2, { interruptOn: 'cancel' })).toBe(true);
    await sleep(1);
  });
});

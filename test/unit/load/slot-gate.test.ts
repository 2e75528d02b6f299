// The closed loop over a transport's slot gate (load/types.ts SlotGate): a plain count hands its
// slots to the gate, held until its first wave is issued, and keeps `ahead` more requests issued;
// a duration, a ramp or a cooldown does not; a stop ends the waiting requests, never sent; the
// gate closes once the phase has drained.
import { describe, expect, it } from 'vitest';
import { runBenchmark, type BenchmarkHooks, type BenchmarkPlan } from '../../../src/load/benchmark.js';
import { RunControl } from '../../../src/load/control.js';
import { CreditCounters } from '../../../src/load/counters.js';
import { formatProgress } from '../../../src/ui/progress.js';
import type { DispatchResult, PhaseSpec, SlotGate } from '../../../src/load/types.js';
import { singleTurnSource, sleep } from './fakes.js';

/** A transport with a gate, as the native engine's: dispatches beyond the slots wait in order. */
function gatedTransport(latencyMs: number, ahead = 3, minSlots = 1) {
  const log: string[] = [];
  let slots = 0;
  let held = false;
  let running = 0;
  let issued = 0;
  const peaks = { running: 0, issued: 0 };
  // Each waiting dispatch: start it on a slot, or end it unsent.
  const waiting: { run: () => void; drop: () => void }[] = [];
  const runningCancels = new Set<() => void>();
  const gate: SlotGate = {
    ahead: () => ahead,
    open: (n) => {
      log.push(`open ${n} (issued ${issued})`);
      if (n < minSlots) return false;
      slots = n;
      held = true;
      return true;
    },
    release: () => {
      log.push(`release (issued ${issued}, running ${running})`);
      held = false;
      while (running < slots && waiting.length > 0) waiting.shift()!.run();
    },
    cancelWaiting: () => {
      log.push(`cancelWaiting (waiting ${waiting.length})`);
      for (const w of waiting.splice(0)) w.drop();
    },
    close: () => {
      log.push(`close (issued ${issued})`);
      slots = 0;
      for (const w of waiting.splice(0)) w.run();
    },
  };
  const hooks: BenchmarkHooks = {
    dispatch: () =>
      new Promise<DispatchResult>((resolve) => {
        issued++;
        peaks.issued = Math.max(peaks.issued, issued);
        const settle = (status: DispatchResult['status']) => {
          issued--;
          resolve({ status, reply: null });
        };
        const run = () => {
          running++;
          peaks.running = Math.max(peaks.running, running);
          const end = (status: DispatchResult['status']) => {
            clearTimeout(timer);
            runningCancels.delete(cancel);
            running--;
            settle(status);
            // The freed slot takes the next waiting request at once.
            if (slots > 0) waiting.shift()?.run();
          };
          const cancel = () => end('cancelled');
          const timer = setTimeout(() => end('ok'), latencyMs);
          runningCancels.add(cancel);
        };
        if (slots > 0 && (held || running >= slots)) waiting.push({ run, drop: () => settle('unsent') });
        else run();
      }),
    cancelAll: () => {
      for (const c of [...runningCancels]) c();
    },
  };
  return { gate, hooks, log, peaks: () => ({ ...peaks }) };
}

const closed = (concurrency: number, over: Partial<PhaseSpec> = {}, rampNs: number | null = null): PhaseSpec => ({
  phase: 'profiling',
  mode: { kind: 'concurrency', concurrency, rampNs },
  requestCount: null,
  durationNs: null,
  cooldownNs: null,
  ...over,
});

const plan = (profiling: PhaseSpec, gate: SlotGate, over: Partial<BenchmarkPlan> = {}): BenchmarkPlan => ({
  warmup: null,
  profiling,
  graceNs: 30e9,
  cancellation: null,
  gate,
  ...over,
});

describe('closed loop over a slot gate', () => {
  it('a count opens the gate at the concurrency, keeps `ahead` more issued, and closes it once drained', async () => {
    const t = gatedTransport(10, 3);
    const r = await runBenchmark(plan(closed(4, { requestCount: 20 }), t.gate), singleTurnSource(), t.hooks, new RunControl());
    expect(r.profiling!.counters).toMatchObject({ sent: 20, succeeded: 20 });
    // The first wave was all issued, held, before any of it ran.
    expect(t.log).toEqual(['open 4 (issued 0)', 'release (issued 4, running 0)', 'close (issued 0)']);
    expect(t.peaks()).toEqual({ running: 4, issued: 7 });
  });

  it('a count below concurrency + ahead issues no more than the count', async () => {
    const t = gatedTransport(10, 8);
    const r = await runBenchmark(plan(closed(4, { requestCount: 6 }), t.gate), singleTurnSource(), t.hooks, new RunControl());
    expect(r.profiling!.counters).toMatchObject({ sent: 6, succeeded: 6 });
    expect(t.peaks()).toEqual({ running: 4, issued: 6 });
  });

  it.each([
    ['a duration', closed(3, { durationNs: 60e6 })],
    ['a cooldown', closed(3, { requestCount: 12, cooldownNs: 30e6 })],
    ['a ramp', closed(3, { requestCount: 12 }, 20e6)],
  ])('%s keeps the slots in JS: the gate never opens', async (_name, spec) => {
    const t = gatedTransport(10);
    await runBenchmark(plan(spec, t.gate), singleTurnSource(), t.hooks, new RunControl());
    expect(t.log.some((l) => l.startsWith('open') || l.startsWith('release'))).toBe(false);
    expect(t.peaks().issued).toBe(3);
  });

  it('a stop ends the waiting requests unsent (no record); the running ones finish', async () => {
    const t = gatedTransport(60, 3);
    const control = new RunControl();
    const run = runBenchmark(plan(closed(2, { requestCount: 100 }), t.gate), singleTurnSource(), t.hooks, control);
    await sleep(20);
    control.stop();
    const r = await run;
    const c = r.profiling!.counters;
    expect(t.log).toEqual(['open 2 (issued 0)', 'release (issued 2, running 0)', 'cancelWaiting (waiting 3)', 'close (issued 0)']);
    expect(c).toMatchObject({ sent: 2, succeeded: 2, cancelled: 0, unsent: 3 });
    expect(r.profiling!.sessions).toMatchObject({ started: 5, completed: 2, abandoned: 3 });
  });

  it('a transport that cannot gate that few slots: the JS slots run as without one', async () => {
    const t = gatedTransport(10, 3, 8);
    const r = await runBenchmark(plan(closed(4, { requestCount: 12 }), t.gate), singleTurnSource(), t.hooks, new RunControl());
    expect(r.profiling!.counters).toMatchObject({ sent: 12, succeeded: 12 });
    expect(t.log).toEqual(['open 4 (issued 0)', 'close (issued 0)']);
    expect(t.peaks()).toEqual({ running: 4, issued: 4 });
  });

  it('counts under a gate: at most its slots in flight, the rest waiting (the progress line says both)', () => {
    const c = new CreditCounters();
    c.sent = 5;
    c.settle('ok');
    expect([c.inFlight, c.waiting]).toEqual([4, 0]);
    c.gateSlots = 2;
    expect([c.inFlight, c.waiting]).toEqual([2, 2]);
    expect(formatProgress(c, { requestCount: 10, durationS: null }, 1, 'profiling')).toContain('in flight 2 (+2 waiting)');
  });
});

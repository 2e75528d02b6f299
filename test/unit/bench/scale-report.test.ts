// bench/e2e-scale.js: the prediction lines from the measured rows. The both-CPUs row's split (I/O threads
// not preempted by the JS thread) gives its own prediction beside the pinned row's.
import { describe, expect, it } from 'vitest';
import { scaleClients, scaleReport } from '../../../bench/e2e-scale.js';
import { bestIoThreads } from '../../../bench/scale-model.js';

const EVENTS = 131_072;

/** A small and a big run whose marginal split is (main, io, other) µs per event. */
function runs(splits: Record<string, [number, number, number]>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const run = (events: number, [m, io, o]: number[]) => [
    {
      requests: 1,
      events,
      wall_s: 1,
      thread_main_s: m,
      thread_io_s: io,
      thread_other_s: o,
      thread_per_event_us: { main: 1, io: 1, other: 1 },
    },
  ];
  for (const [k, [m, io, o]] of Object.entries(splits)) {
    out[`${k}:small`] = run(EVENTS, [0.1, 0.1, 0.1]);
    out[`${k}:big`] = run(2 * EVENTS, [0.1 + m * 1e-6 * EVENTS, 0.1 + io * 1e-6 * EVENTS, 0.1 + o * 1e-6 * EVENTS]);
  }
  return out;
}

const setting = { C: 1024, OSL: 128, COST: 1, KEEP: 5, offeredCost: 1_040_000, offeredKeep: 208_000 };

describe('scale report', () => {
  it('predicts from the pinned 1-thread row, and from the both-CPUs row when it ran', () => {
    const rows = { ...scaleClients({ quick: true }) };
    if (!rows['sb-t2-spread']) rows['sb-t2-spread'] = { label: 'spread', extra: [], cpus: '0-1', spread: true };
    const r = scaleReport({ runs: runs({ 'sb-t1': [2, 10, 7], 'sb-t2': [2, 16, 7], 'sb-t2-spread': [2, 3, 7] }) }, rows, setting);
    expect(r.prediction.basis).toBe('sb-t1');
    expect(r.prediction.split!.io_us).toBeCloseTo(10, 6);
    const want = bestIoThreads({ main_us: 2, io_us: 3, other_us: 7 }, { cores: 16 });
    expect(r.prediction.from_spread!.best.ioThreads).toBe(want.ioThreads);
    expect(r.prediction.from_spread!.best.events_per_s).toBeCloseTo(want.events_per_s, 0);
    expect(r.lines.join('\n')).toMatch(
      /from the both-CPUs 2-thread row's split \(I\/O 3\.00 µs\/event\) 500,000 events\/s with 2 I\/O thread\(s\), limit: main/,
    );
  });

  it('says nothing of the both-CPUs row when it did not run', () => {
    const rows = scaleClients({ quick: true });
    delete rows['sb-t2-spread'];
    const r = scaleReport({ runs: runs({ 'sb-t1': [2, 10, 7], 'sb-t2': [2, 16, 7] }) }, rows, setting);
    expect(r.prediction.from_spread).toBeUndefined();
    expect(r.lines.join('\n')).not.toMatch(/both-CPUs 2-thread row/);
  });
});

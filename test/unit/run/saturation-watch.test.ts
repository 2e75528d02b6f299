// The over-saturation stop's run control: it follows the run's (Ctrl-C stops and cancels it), and
// its own verdict stops only this run, so a sweep or a search goes on.
import { describe, expect, it } from 'vitest';
import { RunControl } from '../../../src/load/control.js';
import { SaturationWatch } from '../../../src/run/single/saturation-watch.js';

const cfg = { min_duration_s: 30, min_samples: 20, window_s: 120, alpha: 0.001 };

describe('SaturationWatch', () => {
  it('follows the parent: stop, then cancel', () => {
    const parent = new RunControl();
    const w = new SaturationWatch(cfg, parent, () => {});
    expect(w.control.stopped).toBe(false);
    parent.stop();
    expect([w.control.stopped, w.control.cancelled]).toEqual([true, false]);
    parent.cancel();
    expect(w.control.cancelled).toBe(true);
    w.dispose();
  });

  it('a parent already stopped stops it at once; after dispose it no longer follows', () => {
    const stopped = new RunControl();
    stopped.stop();
    expect(new SaturationWatch(cfg, stopped, () => {}).control.stopped).toBe(true);
    const parent = new RunControl();
    const w = new SaturationWatch(cfg, parent, () => {});
    w.dispose();
    parent.stop();
    expect(w.control.stopped).toBe(false);
  });

  it('without a verdict: the result unchanged, and the export says it did not stop', () => {
    const w = new SaturationWatch(cfg, new RunControl(), () => {});
    const result = { warmup: null, profiling: null, interrupted: false };
    expect(w.amend(result)).toBe(result);
    const r = w.report().over_saturation as { stopped: boolean; stopped_at_s: number | null; checks: number };
    expect([r.stopped, r.stopped_at_s, r.checks]).toEqual([false, null, 0]);
  });
});

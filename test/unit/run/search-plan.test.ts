// --search's state machine from tables: the loads it picks, when it re-measures, and its answer.
import { describe, expect, it } from 'vitest';
import { answerOf, nextStep, verdictOf, verdicts, wilson, type Measurement, type SearchSpec } from '../../../src/run/series/search-plan.js';

const rate: SearchSpec = { kind: 'max-rate', start: 1, tolerance: 0.05, maxPoints: 20, fraction: 0.9, confidence: 0.95 };
const conc: SearchSpec = { ...rate, kind: 'max-concurrency' };

/** Drives the machine against a server whose attainment at each load is `attain(load)`, with n requests a point. */
function drive(spec: SearchSpec, attain: (load: number) => number, n = (_: number) => 1000) {
  const ms: Measurement[] = [];
  for (;;) {
    const step = nextStep(spec, ms);
    if (step.kind === 'done') return { ms, step };
    const total = n(step.load);
    ms.push({ load: step.load, good: Math.round(attain(step.load) * total), total, overSaturated: false });
  }
}

describe('Wilson interval', () => {
  it.each([
    // good, total, level → lower, upper (values from the closed form, checked against R's prop.test without correction)
    [50, 100, 0.95, 0.4038, 0.5962],
    [100, 100, 0.95, 0.963, 1],
    [0, 10, 0.95, 0, 0.2775],
    [9, 10, 0.95, 0.5958, 0.9821],
  ])('%i/%i at %f', (g, t, level, lo, hi) => {
    const w = wilson(g, t, level);
    expect(w.lower).toBeCloseTo(lo, 3);
    expect(w.upper).toBeCloseTo(hi, 3);
  });
  it('nothing finished: [0, 0]', () => expect(wilson(0, 0, 0.95)).toEqual({ lower: 0, upper: 0 }));
});

describe('verdicts', () => {
  it.each([
    // good/total, F → pass, uncertain
    [1000, 1000, 0.9, true, false],
    [0, 1000, 0.9, false, false],
    [905, 1000, 0.9, true, true], // 0.905, interval [0.886, 0.921] straddles 0.9
    [895, 1000, 0.9, false, true],
    [40, 40, 0.99, true, true], // 40 requests cannot certify 99 %
  ])('%i/%i against %f', (good, total, fraction, pass, uncertain) => {
    const v = verdictOf({ ...rate, fraction }, [{ load: 1, good, total, overSaturated: false }]);
    expect([v.pass, v.uncertain]).toEqual([pass, uncertain]);
  });
  it('pools re-measurements; an over-saturated run fails for certain', () => {
    const v = verdictOf(rate, [
      { load: 3, good: 905, total: 1000, overSaturated: false },
      { load: 3, good: 910, total: 1000, overSaturated: false },
    ]);
    expect([v.good, v.total, v.measurements, v.pass]).toEqual([1815, 2000, 2, true]);
    const o = verdictOf(rate, [{ load: 3, good: 1000, total: 1000, overSaturated: true }]);
    expect([o.pass, o.uncertain]).toEqual([false, false]);
  });
});

describe('the walk', () => {
  it('max-rate: doubles from the start until a fail, then bisects to the tolerance', () => {
    const { ms, step } = drive(rate, (l) => (l <= 37 ? 1 : 0));
    expect(ms.map((m) => m.load)).toEqual([1, 2, 4, 8, 16, 32, 64, 48, 40, 36, 38, 37]);
    expect(step.kind === 'done' && step.reason).toBe('tolerance');
    if (step.kind !== 'done') return;
    expect(step.answer).toMatchObject({ lo: 37, hi: 38, value: 37.5, plusMinus: 0.5, uncertain: false });
    expect(step.answer.hi! / step.answer.lo! - 1).toBeLessThanOrEqual(rate.tolerance);
  });

  it('max-rate: halves from a failing start', () => {
    const { ms, step } = drive({ ...rate, start: 100 }, (l) => (l <= 20 ? 1 : 0));
    expect(ms.map((m) => m.load).slice(0, 4)).toEqual([100, 50, 25, 12.5]);
    expect(step.kind === 'done' && step.answer.lo! <= 20 && step.answer.hi! > 20).toBe(true);
  });

  it('max-concurrency: integers, exact once the bracket is one apart', () => {
    const { ms, step } = drive(conc, (l) => (l <= 13 ? 1 : 0));
    expect(ms.map((m) => m.load)).toEqual([1, 2, 4, 8, 16, 12, 14, 13]);
    expect(step.kind === 'done' && step.answer).toMatchObject({ lo: 13, hi: 14, value: 13, plusMinus: null });
  });

  it('the point budget ends it, with the bracket so far', () => {
    const { ms, step } = drive({ ...rate, maxPoints: 5 }, (l) => (l <= 37 ? 1 : 0));
    expect(ms).toHaveLength(5);
    expect(step.kind === 'done' && step.reason).toBe('budget');
    expect(step.kind === 'done' && step.answer).toMatchObject({ lo: 16, hi: null, value: 16 });
  });

  it('nothing passes: floor, no answer', () => {
    const { step } = drive({ ...conc, start: 4 }, () => 0);
    expect(step.kind === 'done' && step.reason).toBe('floor');
    expect(step.kind === 'done' && step.answer.value).toBeNull();
  });

  it('a straddling point is measured once more; still straddling, it is uncertain and widens the range', () => {
    // 0.905 at 8 (uncertain pass) then 16 fails: the certain range goes down to 4.
    const attain = (l: number) => (l < 8 ? 1 : l === 8 ? 0.905 : l < 12 ? 0.895 : 0);
    const { ms, step } = drive({ ...rate, tolerance: 0.3 }, attain);
    const loads = ms.map((m) => m.load);
    expect(loads.slice(0, 6)).toEqual([1, 2, 4, 8, 8, 16]);
    if (step.kind !== 'done') throw new Error('not done');
    const v8 = step.verdicts.find((v) => v.load === 8)!;
    expect([v8.measurements, v8.uncertain, v8.pass]).toEqual([2, true, true]);
    expect(step.answer.uncertain).toBe(true);
    expect(step.answer.lo).toBe(8);
    expect(step.answer.rangeLo).toBe(4);
    expect(step.answer.rangeHi).toBe(12);
  });

  it('a pass above a fail is not trusted', () => {
    const vs = verdicts(rate, [
      { load: 10, good: 1000, total: 1000, overSaturated: false },
      { load: 20, good: 0, total: 1000, overSaturated: false },
      { load: 30, good: 1000, total: 1000, overSaturated: false },
    ]);
    expect(answerOf(rate, vs)).toMatchObject({ lo: 10, hi: 20 });
  });
});

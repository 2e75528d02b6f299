import { describe, expect, it } from 'vitest';
import { counterEnergyJ, counterStep, gpuWindowEnergy, integratedEnergyJ, meanPowerW } from '../../../src/telemetry/energy-window.js';

const MS = 1_000_000n;
const T0 = 5_000_000_000_000n; // an arbitrary monotonic origin

/** Samples every `stepMs` from `fromMs` to `toMs` (relative to T0). */
function stamps(fromMs: number, toMs: number, stepMs: number): BigInt64Array {
  const out: bigint[] = [];
  for (let m = fromMs; m <= toMs; m += stepMs) out.push(T0 + BigInt(m) * MS);
  return BigInt64Array.from(out);
}
const win = (a: number, b: number) => ({ start_ns: T0 + BigInt(a) * MS, end_ns: T0 + BigInt(b) * MS });

describe('counterEnergyJ', () => {
  it('is the counter increase over the window, ends interpolated', () => {
    // 300 W: the counter gains 0.3 J per ms; samples every 50 ms from -100 to 1100 ms.
    const t = stamps(-100, 1100, 50);
    const e = Float64Array.from(t, (x) => 1e6 + (0.3 * Number(x - T0)) / 1e6);
    expect(counterEnergyJ(t, e, win(10, 1010), 100n * MS)).toBeCloseTo(300, 9);
  });

  it('counts a reset step as the energy since the restart, and keeps counting after it', () => {
    const t = stamps(0, 1000, 100);
    // 0.1 J/ms; the counter restarts from 0 at 550 ms.
    const e = Float64Array.from(t, (x) => {
      const ms = Number(x - T0) / 1e6;
      return ms < 550 ? 5000 + 0.1 * ms : 0.1 * (ms - 550);
    });
    // Steps: 0..500 = 50 J; 500->600 = 5 J (the new value: 550..600); 600..1000 = 40 J.
    // Only 500..550 (5 J) is lost.
    expect(counterEnergyJ(t, e, win(0, 1000), 0n)).toBeCloseTo(95, 9);
  });

  it('never counts a small backward step (jitter) as negative or as a restart', () => {
    expect(counterStep(100, 130)).toBe(30);
    expect(counterStep(1000, 999.5)).toBe(0);
    expect(counterStep(1000, 20)).toBe(20);
    expect(counterStep(1000, -5)).toBe(0);
    const t = stamps(0, 300, 100);
    expect(counterEnergyJ(t, Float64Array.from([1000, 1010, 1009, 1020]), win(0, 300), 0n)).toBeCloseTo(21, 9);
  });

  it('skips NaN samples (nearest valid neighbours)', () => {
    const t = stamps(0, 1000, 100);
    const e = Float64Array.from(t, (x) => (0.2 * Number(x - T0)) / 1e6);
    e[0] = NaN;
    e[5] = NaN;
    e[10] = NaN;
    // Valid samples cover 100..900 ms only; nothing is extrapolated.
    expect(counterEnergyJ(t, e, win(0, 1000), 0n)).toBeCloseTo(160, 9);
  });

  it('uses the sample after the window only within the grace', () => {
    const t = BigInt64Array.from([T0, T0 + 900n * MS, T0 + 1300n * MS]);
    const e = Float64Array.from([0, 90, 130]); // 0.1 J/ms
    // Grace 400 ms: the 1300 ms sample brackets the end, so the end is interpolated: 100 J.
    expect(counterEnergyJ(t, e, win(0, 1000), 400n * MS)).toBeCloseTo(100, 9);
    // Grace 200 ms: it is out of reach; the last sample in reach (900 ms) closes the delta.
    expect(counterEnergyJ(t, e, win(0, 1000), 200n * MS)).toBeCloseTo(90, 9);
  });

  it('has no value without two valid samples overlapping the window', () => {
    const t = stamps(0, 1000, 100);
    const e = new Float64Array(t.length).fill(NaN);
    e[3] = 10;
    expect(counterEnergyJ(t, e, win(0, 1000), 0n)).toBeUndefined();
    const later = Float64Array.from(t, (_x, i) => i);
    expect(counterEnergyJ(t, later, win(2000, 3000), 0n)).toBeUndefined();
  });
});

describe('integratedEnergyJ and meanPowerW', () => {
  it('integrates a ramp exactly (trapezoids) and interpolates the ends', () => {
    const t = stamps(-50, 1050, 50);
    const p = Float64Array.from(t, (x) => 100 + Number(x - T0) / 1e7); // 100 W + 0.1 W/ms
    // ∫_0^1000ms (100 + 0.1 m) W dm = 100*1 + 0.1*1000/2*1 = 150 J
    expect(integratedEnergyJ(t, p, win(0, 1000), 50n * MS)).toBeCloseTo(150, 9);
    // Without grace the last sample in reach is at 1000 ms exactly: still covered.
    expect(integratedEnergyJ(t, p, win(0, 1000), 0n)).toBeCloseTo(150, 9);
  });

  it('skips NaN power samples', () => {
    const t = stamps(0, 1000, 100);
    const p = new Float64Array(t.length).fill(300);
    p[4] = NaN;
    expect(integratedEnergyJ(t, p, win(0, 1000), 0n)).toBeCloseTo(300, 9);
    expect(meanPowerW(t, p, win(0, 1000))).toBe(300);
  });

  it('averages only samples stamped inside the window', () => {
    const t = stamps(0, 1000, 100);
    const p = Float64Array.from(t, (_x, i) => (i < 3 ? 1000 : 200)); // warmup spike before 250 ms
    expect(meanPowerW(t, p, win(250, 1000))).toBe(200);
    expect(meanPowerW(t, p, win(2000, 3000))).toBeUndefined();
  });
});

describe('gpuWindowEnergy', () => {
  it('prefers the counter and falls back to integrated power', () => {
    const t = stamps(0, 1000, 50);
    const p = new Float64Array(t.length).fill(250);
    const counter = Float64Array.from(t, (x) => (0.25 * Number(x - T0)) / 1e6);
    const withCounter = gpuWindowEnergy(t, p, counter, win(0, 1000), 0n);
    expect(withCounter.source).toBe('counter');
    expect(withCounter.energy_j).toBeCloseTo(250, 9);
    expect(withCounter.integrated_energy_j).toBeCloseTo(250, 9);
    expect(withCounter.samples_in_window).toBe(21);
    const without = gpuWindowEnergy(t, p, new Float64Array(t.length).fill(NaN), win(0, 1000), 0n);
    expect(without.source).toBe('power_integration');
    expect(without.energy_j).toBeCloseTo(250, 9);
    expect(without.counter_energy_j).toBeUndefined();
  });
});

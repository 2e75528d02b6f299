// Timers of any length (src/timers.ts): chains of Node timers re-aimed at one deadline, never the
// 1 ms overflow Node gives a delay beyond 2^31 − 1 ms.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, MAX_WAIT_MS, secondsToNs, setLongInterval, setLongTimeout } from '../../src/timers.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('setLongTimeout', () => {
  it('with a 5 ms link, a 60 ms delay is a chain of links and fires once, not before its deadline', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const t0 = performance.now();
    let firedAt = -1;
    let fires = 0;
    setLongTimeout(
      () => {
        fires++;
        firedAt = performance.now();
      },
      60,
      { maxMs: 5 },
    );
    await new Promise((r) => setTimeout(r, 150));
    // The chain's links: every timer set but the test's own 150 ms wait (late links on a loaded host mean fewer of them).
    const links = spy.mock.calls.map((c) => c[1]).filter((ms) => ms !== 150);
    spy.mockRestore();
    expect(fires).toBe(1);
    expect(firedAt - t0).toBeGreaterThanOrEqual(59);
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const ms of links) expect(ms).toBeLessThanOrEqual(5);
  });

  it('clear() stops a chain between links', async () => {
    let fired = false;
    const t = setLongTimeout(() => (fired = true), 40, { maxMs: 5 });
    await new Promise((r) => setTimeout(r, 12));
    t.clear();
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toBe(false);
  });

  it('a 30-day delay sets no timer beyond 2^31 − 1 ms, warns nothing, and fires after 30 days', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const spy = vi.spyOn(globalThis, 'setTimeout');
    let fired = false;
    const day = 86_400_000;
    setLongTimeout(() => (fired = true), 30 * day);
    vi.advanceTimersByTime(29 * day);
    expect(fired).toBe(false);
    vi.advanceTimersByTime(day);
    expect(fired).toBe(true);
    for (const c of spy.mock.calls) expect(c[1]).toBeLessThanOrEqual(MAX_TIMER_MS);
    expect(spy.mock.calls.length).toBeGreaterThanOrEqual(2);
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
  });

  it('Infinity never fires; NaN and negative delays are refused', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    let fired = false;
    setLongTimeout(() => (fired = true), Infinity);
    vi.advanceTimersByTime(10 * MAX_TIMER_MS);
    expect(fired).toBe(false);
    expect(() => setLongTimeout(() => {}, NaN)).toThrow(RangeError);
    expect(() => setLongTimeout(() => {}, -1)).toThrow(RangeError);
  });
});

describe('setLongInterval', () => {
  it('a 40-day period runs once per period, with links no longer than 2^31 − 1 ms', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const day = 86_400_000;
    let runs = 0;
    const t = setLongInterval(() => runs++, 40 * day);
    vi.advanceTimersByTime(39 * day);
    expect(runs).toBe(0);
    vi.advanceTimersByTime(day);
    expect(runs).toBe(1);
    vi.advanceTimersByTime(40 * day);
    expect(runs).toBe(2);
    t.clear();
    vi.advanceTimersByTime(80 * day);
    expect(runs).toBe(2);
    for (const c of spy.mock.calls) expect(c[1]).toBeLessThanOrEqual(MAX_TIMER_MS);
  });
});

describe('secondsToNs', () => {
  it('is exact for ordinary durations and cut to MAX_WAIT_MS beyond it, never Infinity', () => {
    expect(secondsToNs(1.5)).toBe(1_500_000_000);
    expect(secondsToNs(3_000_000)).toBe(3e15);
    expect(secondsToNs(1e300)).toBe(MAX_WAIT_MS * 1e6);
    expect(() => BigInt(secondsToNs(1e300))).not.toThrow();
  });
});

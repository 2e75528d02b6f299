// The over-saturation detector on synthetic series: a simulated FIFO server with c slots and a
// fixed service time under Poisson arrivals, checked every 0.25 s as the run wiring checks it.
import { describe, expect, it } from 'vitest';
import { OverSaturationDetector, slopeTest } from '../../../src/run/single/over-saturation.js';
import type { OverSaturationConfig } from '../../../src/load/search-flags.js';
import { rng } from '../../helpers/rng.js';

const cfg: OverSaturationConfig = { min_duration_s: 3, min_samples: 20, window_s: 120, alpha: 0.001 };

/**
 * Feeds a detector the run of a server with `slots` slots (Infinity: no queue), service `serviceS`,
 * TTFT `ttftS` after service starts (plus up to 2 ms of jitter), under Poisson arrivals at `rate`
 * for `durationS`; returns the first check (every 0.25 s) that says saturated, or null.
 */
function simulate(seed: number, rate: number, slots: number, serviceS: number, ttftS: number, durationS: number, c = cfg) {
  const r = rng(seed);
  const det = new OverSaturationDetector(c);
  const freeAt: number[] = Number.isFinite(slots) ? Array.from({ length: slots }, () => 0) : [];
  const ends: number[] = []; // end times of requests in flight (client view), sorted lazily
  type Ev = { t: number; kind: 'first'; ttft: number };
  const pending: Ev[] = [];
  let t = 0;
  let nextCheck = 0.25;
  const flush = (upTo: number): number | null => {
    pending.sort((a, b) => a.t - b.t);
    while (pending.length && pending[0].t <= upTo) {
      const e = pending.shift()!;
      det.onFirstToken(e.t, e.ttft);
    }
    while (nextCheck <= upTo) {
      const v = det.check(nextCheck);
      if (v.saturated) return v.at_s;
      nextCheck += 0.25;
    }
    return null;
  };
  for (;;) {
    t += -Math.log(1 - r()) / rate;
    if (t > durationS) return flush(durationS);
    const hit = flush(t);
    if (hit !== null) return hit;
    let begin = t;
    if (freeAt.length) {
      let k = 0;
      for (let i = 1; i < freeAt.length; i++) if (freeAt[i] < freeAt[k]) k = i;
      begin = Math.max(t, freeAt[k]);
      freeAt[k] = begin + serviceS;
    }
    const ttft = begin - t + ttftS + r() * 0.002;
    for (let i = ends.length - 1; i >= 0; i--) if (ends[i] <= t) ends.splice(i, 1);
    ends.push(begin + serviceS);
    det.onStart(t, ends.length);
    pending.push({ t: t + ttft, kind: 'first', ttft });
  }
}

describe('slopeTest', () => {
  it('OLS slope, standard error and one-sided p by hand', () => {
    // y = 1 + 2x with residuals +1, -1, -1, +1: slope 2, rss 4, sxx 5, se sqrt(4/2/5).
    const r = slopeTest([0, 1, 2, 3], [2, 2, 4, 8], 0.05)!;
    expect(r.slope).toBeCloseTo(2, 12);
    expect(r.stderr).toBeCloseTo(Math.sqrt(4 / 2 / 5), 12);
    expect(r.t).toBeCloseTo(2 / Math.sqrt(0.4), 10);
    expect(r.df).toBe(2);
    // t = 3.1623 with 2 df: one-sided p = 0.0435.
    expect(r.p_value).toBeCloseTo(0.0435, 3);
    expect(r.significant).toBe(true);
    expect(slopeTest([0, 1, 2, 3], [2, 2, 4, 8], 0.01)!.significant).toBe(false);
  });
  it('a falling or flat series is never significant; too few points, no test', () => {
    expect(slopeTest([0, 1, 2, 3], [8, 4, 2, 2], 0.5)!.significant).toBe(false);
    expect(slopeTest([0, 1, 2, 3], [5, 5, 5, 5], 0.5)!.significant).toBe(false);
    expect(slopeTest([0, 1], [0, 1], 0.5)).toBeNull();
  });
  it('a rise too small against the level is not significant however sure', () => {
    expect(slopeTest([0, 1, 2, 3], [100, 100.1, 100.2, 100.3], 0.01)!.significant).toBe(false);
  });
});

describe('OverSaturationDetector', () => {
  it('a server past its capacity (1.5×) is detected soon after the minimum duration', () => {
    // 4 slots × 0.1 s = 40 req/s of capacity, offered 60.
    for (const seed of [1, 2, 3]) {
      const at = simulate(seed, 60, 4, 0.1, 0.02, 20);
      expect(at).not.toBeNull();
      expect(at!).toBeGreaterThanOrEqual(cfg.min_duration_s);
      expect(at!).toBeLessThanOrEqual(cfg.min_duration_s + 1);
    }
  });

  it('not before the minimum duration, nor before the minimum samples', () => {
    expect(simulate(1, 60, 4, 0.1, 0.02, 20, { ...cfg, min_duration_s: 8 })!).toBeGreaterThanOrEqual(8);
    // 60 req/s over a window of 2.4 s cannot give 1000 samples.
    expect(simulate(1, 60, 4, 0.1, 0.02, 3, { ...cfg, min_samples: 1000 })).toBeNull();
  });

  it('no false stop: 5 seeded runs of 60 s each, unqueued and at 70 % of capacity (240 checks each)', () => {
    for (const seed of [11, 12, 13, 14, 15]) {
      expect(simulate(seed, 30, Infinity, 0.2, 0.02, 60)).toBeNull();
      expect(simulate(seed, 28, 4, 0.1, 0.02, 60)).toBeNull();
    }
  });

  it('a queue that grows while TTFT does not (or the other way) is not over-saturation', () => {
    const det = new OverSaturationDetector(cfg);
    for (let i = 0; i < 400; i++) {
      const t = i * 0.01;
      det.onStart(t, 1 + i);
      det.onFirstToken(t, 0.02);
    }
    const v = det.check(4);
    expect(v.concurrency?.significant).toBe(true);
    expect(v.ttft?.significant).toBe(false);
    expect(v.saturated).toBe(false);
  });
});

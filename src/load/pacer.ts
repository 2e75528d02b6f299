// The pacer: when request i is due, as a pure function of the arrival spec and i, and what to do
// at a given moment (send now, wait, stop) as a pure function of the elapsed time and the number
// sent so far (vegeta's Pacer contract). No clocks and no timers here: rate.ts owns those.
//
// Request i's target is an absolute offset from the phase start, never a sleep after request i−1,
// so the rate cannot drift: a request that falls behind (a stall, a busy event loop) is sent as
// soon as the loop gets to it, and the ones after it keep their planned times.
import { Rng } from '../model/rng.js';
import type { ArrivalSpec } from './types.js';
import { stageTimeForCount } from './stages.js';

export type PaceDecision = { action: 'send' } | { action: 'wait'; ns: number } | { action: 'stop' };

export interface PaceBounds {
  /** Stop once this many requests were sent (null: no limit). */
  count: number | null;
  /** Stop at the first request whose target is at or past this offset (null: no limit). */
  durationNs: number | null;
}

export interface ArrivalSchedule {
  /** Target send time of request i (0-based), in ns from the phase start; non-decreasing in i. */
  targetNs(i: number): number;
}

/**
 * What to do `elapsedNs` after the phase start with `sent` requests already sent: send request
 * `sent` now (its target has passed, however long ago), wait until its target, or stop.
 */
export function pace(schedule: ArrivalSchedule, elapsedNs: number, sent: number, bounds: PaceBounds): PaceDecision {
  if (bounds.count !== null && sent >= bounds.count) return { action: 'stop' };
  const target = schedule.targetNs(sent);
  if (bounds.durationNs !== null && target >= bounds.durationNs) return { action: 'stop' };
  if (target <= elapsedNs) return { action: 'send' };
  return { action: 'wait', ns: target - elapsedNs };
}

/**
 * One gap of "operational time" (mean 1 request): constant 1, poisson Exp(1), gamma Gamma(k, 1/k).
 * The coefficient of variation of the gaps is 0, 1 and 1/sqrt(k) respectively.
 */
export function unitGap(pattern: ArrivalSpec['pattern'], k: number, rng: Rng): number {
  if (pattern === 'constant') return 1;
  if (pattern === 'poisson' || k === 1) return -Math.log(1 - rng.next());
  return gammaSample(k, rng) / k;
}

/** Gamma(shape k, scale 1): Marsaglia–Tsang; k < 1 via Gamma(k + 1) · U^(1/k). */
export function gammaSample(k: number, rng: Rng): number {
  if (k < 1) {
    const u = 1 - rng.next(); // (0, 1]
    return gammaSample(k + 1, rng) * Math.pow(u, 1 / k);
  }
  const d = k - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = rng.normal(0, 1);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - rng.next();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/**
 * Maps operational time s (requests) to elapsed time (ns) under a rate that ramps linearly from
 * 0 to `rate` over `rampNs`, then stays: the inverse of N(t) = ∫ rate(t) dt.
 */
export function timeForCount(s: number, rate: number, rampNs: number | null): number {
  const perNs = rate / 1e9;
  if (rampNs === null || rampNs <= 0) return s / perNs;
  const rampCount = (perNs * rampNs) / 2; // requests due during the ramp
  if (s <= rampCount) return Math.sqrt((2 * rampNs * s) / perNs);
  return rampNs + (s - rampCount) / perNs;
}

/**
 * The schedule of an arrival spec. Request 0 is due at the phase start; the gaps after it are
 * drawn from a stream seeded by `spec.seed`, so a schedule is the same run after run. Targets are
 * generated in order and only the last one is kept (a long run at 20k req/s would not fit in
 * memory otherwise); asking for an earlier index replays the stream from the start.
 */
export class RateSchedule implements ArrivalSchedule {
  private rng!: Rng;
  private index = 0;
  /** Operational time of request `index`. */
  private s = 0;

  constructor(readonly spec: ArrivalSpec) {
    if (!(spec.rate > 0) || !Number.isFinite(spec.rate)) throw new RangeError(`arrival rate must be > 0, got ${spec.rate}`);
    if (!(spec.smoothness > 0)) throw new RangeError(`arrival smoothness must be > 0, got ${spec.smoothness}`);
    this.reset();
  }

  private reset(): void {
    this.rng = new Rng(`arrival/${String(this.spec.seed)}`);
    this.index = 0;
    this.s = 0;
  }

  targetNs(i: number): number {
    if (!Number.isInteger(i) || i < 0) throw new RangeError(`request index must be an integer >= 0, got ${i}`);
    if (i < this.index) this.reset();
    const { pattern, smoothness } = this.spec;
    while (this.index < i) {
      this.s += unitGap(pattern, smoothness, this.rng);
      this.index++;
    }
    const { stages } = this.spec;
    return stages ? stageTimeForCount(this.s, stages) : timeForCount(this.s, this.spec.rate, this.spec.rampNs);
  }
}

/** A schedule given as a list of offsets (trace replay), in ns from the phase start. */
export class ListSchedule implements ArrivalSchedule {
  constructor(private readonly offsetsNs: ArrayLike<number>) {}

  get length(): number {
    return this.offsetsNs.length;
  }

  targetNs(i: number): number {
    // Past the end there is nothing to send; an infinite target makes pace() wait forever, so
    // callers bound the count by the list length.
    return i < this.offsetsNs.length ? this.offsetsNs[i] : Infinity;
  }
}

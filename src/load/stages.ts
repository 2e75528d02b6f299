// --stages "30s:10,60s:50,30s:0" (k6's stages): a piecewise-linear target over time. Stage i
// ramps linearly from the previous stage's target (0 before the first) to its own over its
// duration; the run ends with the last stage. The target is a request rate (open loop: the pacer
// inverts the cumulative count, as timeForCount does for the single linear ramp it generalises)
// or a concurrency (closed loop: slot k runs while the target is above k). Pure functions of the
// elapsed time, like pacer.ts and ramp.ts.
import { InvalidArgumentError } from '../errors.js';

export interface Stage {
  durationNs: number;
  /** Rate (requests/s) or concurrency at the end of the stage. */
  target: number;
}

/**
 * What the stages' values are (--stages-target). Named "quantity" here so "target" keeps one meaning
 * inside the code (where a request goes: model/credit.ts RequestTarget); the flag's name and the
 * exported config's `target` fields stay as users know them.
 */
export type StageQuantity = 'rate' | 'concurrency';
export const STAGE_QUANTITIES: readonly StageQuantity[] = ['rate', 'concurrency'];

const UNIT_NS: Record<string, number> = { ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** "30s:10,1m:50,500ms:0": DURATION:TARGET, a duration with ms/s/m/h (a bare number is seconds). */
export function parseStages(text: string, target: StageQuantity, flag = 'stages'): Stage[] {
  const bad = (msg: string): never => {
    throw new InvalidArgumentError(`--${flag}: ${msg}`);
  };
  const items = text.split(',').map((s) => s.trim());
  if (items.length === 0 || items.some((s) => s === '')) bad(`expected DURATION:TARGET[,DURATION:TARGET...], got ${JSON.stringify(text)}`);
  const stages = items.map((item): Stage => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?:(\d+(?:\.\d+)?)$/.exec(item);
    if (!m) return bad(`expected DURATION:TARGET (e.g. 30s:10), got ${JSON.stringify(item)}`);
    const durationNs = Math.round(Number(m[1]) * UNIT_NS[m[2] ?? 's']);
    if (!(durationNs > 0)) bad(`a stage must last longer than 0, got ${JSON.stringify(item)}`);
    const value = Number(m[3]);
    if (target === 'concurrency' && !Number.isInteger(value)) bad(`a concurrency target must be an integer, got ${JSON.stringify(item)}`);
    return { durationNs, target: value };
  });
  if (stages.every((s) => s.target === 0)) bad('every target is 0: nothing would be sent');
  return stages;
}

export function stagesDurationNs(stages: readonly Stage[]): number {
  return stages.reduce((a, s) => a + s.durationNs, 0);
}

/** Start (ns from the phase start) and start target of each stage. */
export function stageBounds(stages: readonly Stage[]): { startNs: number; endNs: number; from: number; to: number }[] {
  let t = 0;
  let from = 0;
  return stages.map((s) => {
    const b = { startNs: t, endNs: t + s.durationNs, from, to: s.target };
    t += s.durationNs;
    from = s.target;
    return b;
  });
}

/** The target `elapsedNs` after the phase start (the last target after the end). */
export function stageValueAt(elapsedNs: number, stages: readonly Stage[]): number {
  for (const b of stageBounds(stages)) {
    if (elapsedNs < b.endNs) return b.from + ((b.to - b.from) * Math.max(0, elapsedNs - b.startNs)) / (b.endNs - b.startNs);
  }
  return stages.length === 0 ? 0 : stages[stages.length - 1].target;
}

/** Requests due by `elapsedNs` under a rate target: ∫ rate dt (a stage's count is its mean rate × its duration). */
export function stageCountAt(elapsedNs: number, stages: readonly Stage[]): number {
  let n = 0;
  for (const b of stageBounds(stages)) {
    const d = b.endNs - b.startNs;
    const tau = Math.min(d, Math.max(0, elapsedNs - b.startNs));
    n += ((b.from + ((b.to - b.from) * tau) / (2 * d)) * tau) / 1e9;
  }
  return n;
}

/**
 * The inverse of stageCountAt: when operational time `s` (requests) is reached, in ns from the
 * phase start; Infinity when the stages end first (the pacer then stops at the duration bound).
 */
export function stageTimeForCount(s: number, stages: readonly Stage[]): number {
  let before = 0;
  for (const b of stageBounds(stages)) {
    const d = b.endNs - b.startNs;
    const count = ((b.from + b.to) / 2) * (d / 1e9);
    if (count > 0 && s <= before + count) {
      const delta = s - before;
      if (delta <= 0) return b.startNs;
      // The stage's last request is due at its end exactly (not a rounding error before it).
      if (delta >= count * (1 - 1e-12)) return b.endNs;
      // N(τ) = aτ + bτ²/2 per ns; τ = 2Δ / (a + √(a² + 2bΔ)) is stable for b of either sign, and b = 0.
      const a = b.from / 1e9;
      const slope = (b.to - b.from) / 1e9 / d;
      const tau = (2 * delta) / (a + Math.sqrt(Math.max(0, a * a + 2 * slope * delta)));
      return b.startNs + Math.min(d, tau);
    }
    before += count;
  }
  return Infinity;
}

/** Closed loop: requests allowed in flight at `elapsedNs` (the target, rounded down). */
export function stageConcurrencyAt(elapsedNs: number, stages: readonly Stage[]): number {
  return Math.floor(stageValueAt(elapsedNs, stages) + 1e-9);
}

/**
 * Closed loop: the first elapsed time at or after `fromNs` at which slot k (0-based) may run, i.e.
 * the target is above k; null when it never is again before the stages end.
 */
export function slotActiveFromNs(k: number, fromNs: number, stages: readonly Stage[]): number | null {
  for (const b of stageBounds(stages)) {
    if (b.endNs <= fromNs) continue;
    const t0 = Math.max(fromNs, b.startNs);
    if (stageConcurrencyAt(t0, stages) > k) return t0;
    // Within a rising stage the target reaches k + 1 at one instant.
    if (b.to > b.from && b.to >= k + 1) {
      const t = b.startNs + Math.ceil(((k + 1 - b.from) * (b.endNs - b.startNs)) / (b.to - b.from));
      if (t >= t0 && t < b.endNs) return t;
    }
  }
  return null;
}

/** The peak target (the slots of a concurrency run; the warmup's default rate). */
export function stagesPeak(stages: readonly Stage[]): number {
  return Math.max(...stages.map((s) => s.target));
}

// --search's state machine, pure: the next step (a load to measure, or the answer) from the
// measurements so far. Bracket by doubling up from --search-start while the load passes (halving
// down while it fails), then bisect [last pass, first fail] until it is within the tolerance or the
// point budget is spent.
//
// A load passes when its good-request fraction reaches F. Noise: the fraction's Wilson score
// interval (at the run's --confidence) decides how sure that is. A load whose interval straddles F
// is measured once more (the counts pooled); if it still straddles, it is classed by its point
// estimate and marked uncertain, and the answer's range is widened to the nearest loads whose
// verdict is certain. A run stopped for over-saturation fails, certainly.
import { normalQuantile } from '../../metrics/core/special.js';
import type { SearchKind } from '../../load/search-flags.js';

export interface SearchSpec {
  kind: SearchKind;
  start: number;
  /** Relative width of the final bracket, e.g. 0.05. */
  tolerance: number;
  maxPoints: number;
  /** Required good-request fraction F. */
  fraction: number;
  /** Level of the Wilson interval, e.g. 0.95. */
  confidence: number;
}

/** One run at one load. */
export interface Measurement {
  load: number;
  /** Requests that met every SLO. */
  good: number;
  /** Requests that count in the fraction's denominator (succeeded + errored). */
  total: number;
  /** The run was stopped by --stop-on-over-saturation. */
  overSaturated: boolean;
}

export interface LoadVerdict {
  load: number;
  good: number;
  total: number;
  /** good / total (null when nothing finished). */
  attainment: number | null;
  lower: number;
  upper: number;
  pass: boolean;
  /** The interval straddles F: pass/fail is the point estimate's call. */
  uncertain: boolean;
  measurements: number;
  overSaturated: boolean;
}

export interface SearchAnswer {
  /** Largest passing load below the first failing one; null: none passed. */
  lo: number | null;
  /** Smallest failing load; null: none failed (the answer is above every load tried). */
  hi: number | null;
  /** Rate: the bracket's midpoint; concurrency: lo. Null when no load passed. */
  value: number | null;
  /** Half the bracket's width (rate), null when the bracket is open. */
  plusMinus: number | null;
  /** The bracket between loads whose verdicts are certain: equals [lo, hi] unless uncertain. */
  rangeLo: number | null;
  rangeHi: number | null;
  uncertain: boolean;
}

export type SearchEnd = 'tolerance' | 'budget' | 'floor' | 'ceiling';

export type SearchStep =
  | { kind: 'measure'; load: number; remeasure: boolean }
  | { kind: 'done'; reason: SearchEnd; answer: SearchAnswer; verdicts: LoadVerdict[] };

/** The lowest rate the halving goes to (requests/s), and the highest either search doubles to. */
export const MIN_SEARCH_RATE = 0.01;
export const MAX_SEARCH_RATE = 1e6;
export const MAX_SEARCH_CONCURRENCY = 1_000_000;

/** Wilson score interval of good/total at the given two-sided level. */
export function wilson(good: number, total: number, level: number): { lower: number; upper: number } {
  if (total <= 0) return { lower: 0, upper: 0 };
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = good / total;
  const z2n = (z * z) / total;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / total + z2n / (4 * total))) / (1 + z2n);
  return { lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/** The pooled verdict of every measurement at one load. */
export function verdictOf(spec: SearchSpec, ms: readonly Measurement[]): LoadVerdict {
  const load = ms[0].load;
  const good = ms.reduce((s, m) => s + m.good, 0);
  const total = ms.reduce((s, m) => s + m.total, 0);
  const overSaturated = ms.some((m) => m.overSaturated);
  const { lower, upper } = wilson(good, total, spec.confidence);
  const attainment = total > 0 ? good / total : null;
  const base = { load, good, total, attainment, lower, upper, measurements: ms.length, overSaturated };
  if (overSaturated || attainment === null) return { ...base, pass: false, uncertain: false };
  const certainPass = lower >= spec.fraction;
  const certainFail = upper < spec.fraction;
  return { ...base, pass: attainment >= spec.fraction, uncertain: !certainPass && !certainFail };
}

/** One verdict per load, in the order the loads were first measured. */
export function verdicts(spec: SearchSpec, ms: readonly Measurement[]): LoadVerdict[] {
  const byLoad = new Map<number, Measurement[]>();
  for (const m of ms) {
    const list = byLoad.get(m.load);
    if (list) list.push(m);
    else byLoad.set(m.load, [m]);
  }
  return [...byLoad.values()].map((list) => verdictOf(spec, list));
}

const roundRate = (r: number): number => Number(r.toPrecision(6));

/** The answer from the verdicts: the bracket, and its widening by uncertain verdicts. */
export function answerOf(spec: SearchSpec, vs: readonly LoadVerdict[]): SearchAnswer {
  const minOf = (xs: number[]) => (xs.length ? Math.min(...xs) : null);
  const maxOf = (xs: number[]) => (xs.length ? Math.max(...xs) : null);
  // A pass above a fail (noise, or a server that is not monotone) is not trusted: the bracket is
  // the first fail and the largest pass below it.
  const hi = minOf(vs.filter((v) => !v.pass).map((v) => v.load));
  const lo = maxOf(vs.filter((v) => v.pass && (hi === null || v.load < hi)).map((v) => v.load));
  const rangeHi = minOf(vs.filter((v) => !v.pass && !v.uncertain).map((v) => v.load));
  const rangeLo = maxOf(vs.filter((v) => v.pass && !v.uncertain && (rangeHi === null || v.load < rangeHi)).map((v) => v.load));
  const uncertain = rangeLo !== lo || rangeHi !== hi;
  if (lo === null) return { lo, hi, value: null, plusMinus: null, rangeLo, rangeHi, uncertain };
  if (spec.kind === 'max-concurrency' || hi === null) return { lo, hi, value: lo, plusMinus: null, rangeLo, rangeHi, uncertain };
  return { lo, hi, value: roundRate((lo + hi) / 2), plusMinus: roundRate((hi - lo) / 2), rangeLo, rangeHi, uncertain };
}

function converged(spec: SearchSpec, lo: number, hi: number): boolean {
  if (spec.kind === 'max-concurrency' && hi - lo <= 1) return true;
  return hi <= lo * (1 + spec.tolerance);
}

export function nextStep(spec: SearchSpec, ms: readonly Measurement[]): SearchStep {
  if (ms.length === 0) return { kind: 'measure', load: spec.start, remeasure: false };
  const vs = verdicts(spec, ms);
  const done = (reason: SearchEnd): SearchStep => ({ kind: 'done', reason, answer: answerOf(spec, vs), verdicts: vs });
  if (ms.length >= spec.maxPoints) return done('budget');
  // The load just measured straddles F after one measurement: once more.
  const last = vs.find((v) => v.load === ms[ms.length - 1].load)!;
  if (last.uncertain && last.measurements === 1) return { kind: 'measure', load: last.load, remeasure: true };

  const a = answerOf(spec, vs);
  const conc = spec.kind === 'max-concurrency';
  if (a.hi === null) {
    // Everything passed so far: double.
    const top = a.lo!;
    const ceiling = conc ? MAX_SEARCH_CONCURRENCY : MAX_SEARCH_RATE;
    if (top >= ceiling) return done('ceiling');
    return { kind: 'measure', load: Math.min(ceiling, conc ? top * 2 : roundRate(top * 2)), remeasure: false };
  }
  if (a.lo === null) {
    // Everything failed so far: halve.
    const next = conc ? Math.floor(a.hi / 2) : roundRate(a.hi / 2);
    if (conc ? next < 1 : next < MIN_SEARCH_RATE) return done('floor');
    return { kind: 'measure', load: next, remeasure: false };
  }
  if (converged(spec, a.lo, a.hi)) return done('tolerance');
  const mid = conc ? Math.floor((a.lo + a.hi) / 2) : roundRate((a.lo + a.hi) / 2);
  return { kind: 'measure', load: mid, remeasure: false };
}

// Energy and power of one GPU over the profiling window, from its time series.
//
// Counter path: the total-energy counter is cumulative, so the energy in [start, end] is its
// increase. Consecutive valid samples are chained; a negative step is never counted as negative.
// When the counter fell to under half its previous value it restarted from zero (driver reload):
// the step counts the new value, the energy since the restart, so a reset loses only the part of
// one interval before it. A smaller backward step (sensor jitter) counts as 0. NaN samples are
// skipped. Both ends are interpolated linearly between the samples around them; the sample after
// `end` is used only if it lands within `grace` (the reference's FINAL_SCRAPE_GRACE), so
// cooldown samples cannot leak in.
// Fallback: trapezoidal integration of the power gauge over the window, ends interpolated the same way.
import type { TimeWindow } from './types.js';

interface Point {
  x: number; // ns since window start
  y: number;
}

/** Valid (finite) points from the last one at or before `start` to the last one at or before `end + grace`. */
function pointsAround(t: BigInt64Array, v: Float64Array, w: TimeWindow, graceNs: bigint): Point[] {
  const limit = w.end_ns + graceNs;
  let first = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] > w.start_ns) break;
    if (Number.isFinite(v[i])) first = i;
  }
  const out: Point[] = [];
  for (let i = first; i < t.length && t[i] <= limit; i++) {
    if (Number.isFinite(v[i])) out.push({ x: Number(t[i] - w.start_ns), y: v[i] });
  }
  return out;
}

/** Value of the piecewise-linear curve through `pts` at x, clamped to the covered range. */
function at(pts: readonly Point[], x: number): number {
  if (x <= pts[0].x) return pts[0].y;
  const last = pts[pts.length - 1];
  if (x >= last.x) return last.y;
  let lo = 0;
  let hi = pts.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (pts[mid].x <= x) lo = mid;
    else hi = mid;
  }
  const a = pts[lo];
  const b = pts[hi];
  return a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
}

function covers(pts: readonly Point[], spanNs: number): boolean {
  return pts.length >= 2 && pts[pts.length - 1].x > 0 && pts[0].x < spanNs;
}

/** The energy one counter step adds: the increase; after a restart from zero, the new value; else 0. */
export function counterStep(prev: number, next: number): number {
  if (next >= prev) return next - prev;
  return next >= 0 && next < prev / 2 ? next : 0;
}

/** Energy (J) from a cumulative counter (J); undefined when fewer than two valid samples overlap the window. */
export function counterEnergyJ(t: BigInt64Array, counterJ: Float64Array, w: TimeWindow, graceNs: bigint): number | undefined {
  const raw = pointsAround(t, counterJ, w, graceNs);
  const span = Number(w.end_ns - w.start_ns);
  if (!covers(raw, span)) return undefined;
  // Unwrap: chain the increases; see the header for how a backward step counts.
  const pts: Point[] = [{ x: raw[0].x, y: 0 }];
  for (let i = 1; i < raw.length; i++) pts.push({ x: raw[i].x, y: pts[i - 1].y + counterStep(raw[i - 1].y, raw[i].y) });
  return at(pts, span) - at(pts, 0);
}

/** Energy (J) by integrating power (W) over the covered part of the window; undefined without two valid samples. */
export function integratedEnergyJ(t: BigInt64Array, powerW: Float64Array, w: TimeWindow, graceNs: bigint): number | undefined {
  const pts = pointsAround(t, powerW, w, graceNs);
  const span = Number(w.end_ns - w.start_ns);
  if (!covers(pts, span)) return undefined;
  const lo = Math.max(0, pts[0].x);
  const hi = Math.min(span, pts[pts.length - 1].x);
  let joules = 0;
  let prevX = lo;
  let prevY = at(pts, lo);
  for (const p of pts) {
    if (p.x <= lo) continue;
    if (p.x >= hi) break;
    joules += ((prevY + p.y) / 2) * (p.x - prevX);
    prevX = p.x;
    prevY = p.y;
  }
  joules += ((prevY + at(pts, hi)) / 2) * (hi - prevX);
  return joules / 1e9;
}

/** Mean of the valid power samples stamped inside the window (W); undefined when there are none. */
export function meanPowerW(t: BigInt64Array, powerW: Float64Array, w: TimeWindow): number | undefined {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] < w.start_ns) continue;
    if (t[i] > w.end_ns) break;
    if (Number.isFinite(powerW[i])) {
      sum += powerW[i];
      n++;
    }
  }
  return n > 0 ? sum / n : undefined;
}

export interface GpuWindowEnergy {
  /** Energy used for the metrics: the counter's when it has one, else integrated power. */
  energy_j: number | undefined;
  source: 'counter' | 'power_integration' | null;
  mean_power_w: number | undefined;
  /** Both estimates, for the counter-vs-integration check the telemetry command prints. */
  counter_energy_j: number | undefined;
  integrated_energy_j: number | undefined;
  samples_in_window: number;
}

export function gpuWindowEnergy(
  t: BigInt64Array,
  powerW: Float64Array,
  energyJ: Float64Array,
  w: TimeWindow,
  graceNs: bigint,
): GpuWindowEnergy {
  const counter = counterEnergyJ(t, energyJ, w, graceNs);
  const integrated = integratedEnergyJ(t, powerW, w, graceNs);
  let inWindow = 0;
  for (let i = 0; i < t.length; i++) if (t[i] >= w.start_ns && t[i] <= w.end_ns) inWindow++;
  return {
    energy_j: counter ?? integrated,
    source: counter !== undefined ? 'counter' : integrated !== undefined ? 'power_integration' : null,
    mean_power_w: meanPowerW(t, powerW, w),
    counter_energy_j: counter,
    integrated_energy_j: integrated,
    samples_in_window: inWindow,
  };
}

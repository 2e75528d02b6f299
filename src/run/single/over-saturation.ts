// The over-saturation test (GuideLLM's idea: stop once requests in flight and TTFT both keep
// rising, because the server no longer keeps up), pure: samples in, a verdict out.
//
// Series: the requests in flight at each request's start, and each request's TTFT at its first
// token. Over the last --over-saturation-window seconds (never the first fifth of
// --over-saturation-min-duration, where the load is still ramping up to its level) each series is
// averaged in equal time bins (20 of them, none shorter than 0.25 s), so that neighbouring values are
// nearly independent, and an OLS line is fitted through the bin means. Each slope gets a one-sided
// t-test (H0: slope ≤ 0; t = slope / standard error, n − 2 degrees of freedom) at level α. The run
// is over-saturated when both slopes are significant and both fitted rises over the window are at
// least MIN_RELATIVE_RISE of their series' mean (a rise too small to matter is not saturation, however
// sure), and have stayed so at every check for confirmSeconds (a burst of a stable queue fades
// sooner), once min-duration seconds have passed and each series has min-samples samples.
import { studentTCdf } from '../../metrics/core/special.js';
import type { OverSaturationConfig } from '../../load/search-flags.js';

export const MAX_BINS = 20;
export const MIN_BINS = 6;
export const MIN_BIN_S = 0.25;
export const MIN_RELATIVE_RISE = 0.2;
/** The leading share of min-duration left out of the fit (the ramp to the load's level). */
export const SETTLE_SHARE = 0.2;

export interface SlopeTest {
  /** Units of the series per second. */
  slope: number;
  stderr: number;
  t: number;
  df: number;
  /** One-sided p-value of H0: slope ≤ 0. */
  p_value: number;
  bins: number;
  samples: number;
  /** The fitted rise across the bins, and the series' mean in the window. */
  rise: number;
  mean: number;
  significant: boolean;
}

export interface SaturationVerdict {
  /** Seconds since the detector's start. */
  at_s: number;
  saturated: boolean;
  /** Since when both slopes have been significant at every check (null: not now). */
  rising_since_s: number | null;
  concurrency: SlopeTest | null;
  ttft: SlopeTest | null;
}

/** OLS slope of y on x with its one-sided t-test; null with fewer than 3 points or no spread in x. */
export function slopeTest(xs: readonly number[], ys: readonly number[], alpha: number): Omit<SlopeTest, 'samples'> | null {
  const n = xs.length;
  if (n < 3) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    my += ys[i];
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx;
    const dy = ys[i] - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0)) return null;
  const slope = sxy / sxx;
  const df = n - 2;
  const rss = Math.max(0, syy - slope * sxy);
  const stderr = Math.sqrt(rss / df / sxx);
  const t = stderr > 0 ? slope / stderr : slope > 0 ? Infinity : slope < 0 ? -Infinity : 0;
  const p_value = Number.isFinite(t) ? 1 - studentTCdf(t, df) : t > 0 ? 0 : 1;
  const rise = slope * (xs[n - 1] - xs[0]);
  const significant = slope > 0 && p_value < alpha && rise >= MIN_RELATIVE_RISE * Math.abs(my);
  return { slope, stderr, t, df, p_value, bins: n, rise, mean: my, significant };
}

/** Samples in time order, with the old ones dropped from the front. */
class Series {
  private ts: number[] = [];
  private vs: number[] = [];
  private head = 0;

  add(t: number, v: number): void {
    this.ts.push(t);
    this.vs.push(v);
  }

  dropBefore(t: number): void {
    while (this.head < this.ts.length && this.ts[this.head] < t) this.head++;
    if (this.head > 4096 && this.head * 2 > this.ts.length) {
      this.ts = this.ts.slice(this.head);
      this.vs = this.vs.slice(this.head);
      this.head = 0;
    }
  }

  /** Bin means over [from, from + bins·width): the bins' centres and means, empty bins left out; and the samples counted. */
  binned(from: number, width: number, bins: number): { xs: number[]; ys: number[]; samples: number } {
    const sum = new Float64Array(bins);
    const cnt = new Uint32Array(bins);
    let samples = 0;
    for (let i = this.head; i < this.ts.length; i++) {
      const b = Math.floor((this.ts[i] - from) / width);
      if (b < 0 || b >= bins) continue;
      sum[b] += this.vs[i];
      cnt[b]++;
      samples++;
    }
    const xs: number[] = [];
    const ys: number[] = [];
    for (let b = 0; b < bins; b++) {
      if (cnt[b] === 0) continue;
      xs.push(from + (b + 0.5) * width);
      ys.push(sum[b] / cnt[b]);
    }
    return { xs, ys, samples };
  }
}

/** Both slopes must stay significant this long (seconds, at least) before the verdict: a passing burst of a stable queue fades sooner. */
export function confirmSeconds(cfg: OverSaturationConfig): number {
  return Math.max(1, 0.1 * cfg.min_duration_s);
}

export class OverSaturationDetector {
  private readonly inFlight = new Series();
  private readonly ttft = new Series();
  /** When both slopes became significant and stayed so at every check since; null: they are not now. */
  private risingSince: number | null = null;

  constructor(private readonly cfg: OverSaturationConfig) {}

  /** A request started at `t` (seconds since the start) with `inFlight` requests in flight, itself included. */
  onStart(t: number, inFlight: number): void {
    this.inFlight.add(t, inFlight);
  }

  /** A request's first token came at `t` after `ttftS` seconds. Calls must come in time order per series; late ones are binned where they fall. */
  onFirstToken(t: number, ttftS: number): void {
    this.ttft.add(t, ttftS);
  }

  check(now: number): SaturationVerdict {
    const settle = SETTLE_SHARE * this.cfg.min_duration_s;
    const from = Math.max(settle, now - this.cfg.window_s);
    this.inFlight.dropBefore(from);
    this.ttft.dropBefore(from);
    const none: SaturationVerdict = { at_s: now, saturated: false, rising_since_s: null, concurrency: null, ttft: null };
    const span = now - from;
    const width = Math.max(span / MAX_BINS, MIN_BIN_S);
    const bins = Math.floor(span / width);
    if (bins < MIN_BINS) {
      this.risingSince = null;
      return none;
    }
    const start = now - bins * width;
    const test = (s: Series): SlopeTest | null => {
      const b = s.binned(start, width, bins);
      const r = b.xs.length >= MIN_BINS ? slopeTest(b.xs, b.ys, this.cfg.alpha) : null;
      return r ? { ...r, samples: b.samples } : null;
    };
    const concurrency = test(this.inFlight);
    const ttft = test(this.ttft);
    const enough = (r: SlopeTest | null) => r !== null && r.samples >= this.cfg.min_samples;
    const rising = enough(concurrency) && enough(ttft) && concurrency!.significant && ttft!.significant;
    this.risingSince = rising ? (this.risingSince ?? now) : null;
    const saturated = rising && now >= this.cfg.min_duration_s && now - this.risingSince! >= confirmSeconds(this.cfg);
    return { at_s: now, saturated, rising_since_s: this.risingSince, concurrency, ttft };
  }
}

// Is a difference between two runs beyond noise? One test per kind of statistic, each at the
// 95 % level, each treating the REQUEST as the independent unit (never a token or a chunk: the
// gaps of one request move together, so counting them would overstate the sample):
// - a percentile: distribution-free intervals from order statistics, read from each run's HDR
//   histogram (metrics/core/confidence.ts): the ranks come from Binomial(n, q), so they hold for
//   any distribution, which matters for latency (skewed, multi-modal, heavy-tailed; no normal
//   model fits it). Beyond noise when the two intervals do not overlap, a conservative test (two
//   disjoint 95 % intervals mean a difference significant at well above 95 %). Below the sample
//   size that bounds the percentile (368 for p99) the test says so instead of guessing.
// - a mean: Welch's t test from each run's exact mean, std and count (no equal-variance assumption).
// - a throughput (a run-level rate): batch means, the profiling window cut into 10 equal slices per
//   run, each slice's rate a sample, then Welch's t on the slices; needs records.jsonl.
// - the error rate: the two-proportion z test on the runs' error and issued counts.
import { MetricHistogram } from '../metrics/core/histogram.js';
import { minSampleSize, orderStatisticRanks } from '../metrics/core/confidence.js';
import { normalQuantile, studentTQuantile } from '../metrics/core/special.js';
import { displayFactor } from '../metrics/core/units.js';
import type { RunExports } from '../export/read-run.js';
import type { MetricChoice } from './select.js';

export const LEVEL = 0.95;
export const BATCHES = 10;

export type Noise =
  | { beyond: boolean; test: string; detail: string }
  /** No test could be made; `reason` says why. */
  | { beyond: null; test: string; detail: string };

export const TESTS = {
  percentile: 'order-statistic 95 % intervals (distribution-free), overlap = within noise',
  mean: "Welch's t test, 95 %",
  batch: `batch means over ${BATCHES} time slices, Welch's t test, 95 %`,
  proportion: 'two-proportion z test, 95 %',
  none: 'no test',
} as const;

function fmt(v: number): string {
  return Number(v.toPrecision(4)).toString();
}

/** The run's requests that the metric's distribution counts: successful profiling requests. */
function requestCount(run: RunExports, histogramCount: number): number {
  return Math.min(histogramCount, run.profile.counts.succeeded);
}

interface PercentileInterval {
  interval: [number, number] | null;
  reason: string | null;
}

function percentileInterval(run: RunExports, c: MetricChoice): PercentileInterval {
  const e = run.histograms?.metrics[c.tag];
  if (!run.histograms) return { interval: null, reason: `${run.label} has no histograms.json` };
  if (!e) return { interval: null, reason: `${run.label} has no histogram of ${c.tag}` };
  const h = MetricHistogram.fromExport(e);
  const n = requestCount(run, h.count);
  const q = Number(c.stat.slice(1)) / 100;
  if (!(q > 0 && q < 1) || n < 1) return { interval: null, reason: `no interval for ${c.stat}` };
  const r = orderStatisticRanks(n, q, LEVEL);
  if (!r) return { interval: null, reason: `too few requests in ${run.label} to bound ${c.stat} (${n}, needs ${minSampleSize(q, LEVEL)})` };
  // Ranks among n requests, read from a histogram that may count more values (token-weighted ITL).
  const [lo, hi] = h.percentiles([(100 * (r.lower - 0.5)) / n, (100 * (r.upper - 0.5)) / n]);
  const f = displayFactor(c.def.unit, c.def.display);
  return { interval: [lo * f, hi * f], reason: null };
}

function percentileTest(a: RunExports, b: RunExports, c: MetricChoice): Noise {
  const ia = percentileInterval(a, c);
  const ib = percentileInterval(b, c);
  if (!ia.interval || !ib.interval) return { beyond: null, test: TESTS.percentile, detail: (ia.reason ?? ib.reason)! };
  const [a0, a1] = ia.interval;
  const [b0, b1] = ib.interval;
  const beyond = a1 < b0 || b1 < a0;
  return { beyond, test: TESTS.percentile, detail: `[${fmt(a0)}, ${fmt(a1)}] vs [${fmt(b0)}, ${fmt(b1)}]` };
}

interface Sample {
  mean: number;
  /** Sample (n − 1) variance. */
  variance: number;
  n: number;
}

/** Welch's test of two means; null when either side has fewer than 2 values. */
export function welch(a: Sample, b: Sample): { beyond: boolean; halfWidth: number } | null {
  if (a.n < 2 || b.n < 2) return null;
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  const se = Math.sqrt(va + vb);
  const diff = b.mean - a.mean;
  if (se === 0) return { beyond: diff !== 0, halfWidth: 0 };
  const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  const halfWidth = studentTQuantile(1 - (1 - LEVEL) / 2, df) * se;
  return { beyond: Math.abs(diff) > halfWidth, halfWidth };
}

function entryOf(run: RunExports, tag: string): Record<string, unknown> | undefined {
  return run.profile.metrics[tag] as unknown as Record<string, unknown> | undefined;
}

function meanSample(run: RunExports, tag: string): Sample | null {
  const e = entryOf(run, tag);
  if (!e || typeof e.avg !== 'number' || typeof e.std !== 'number' || typeof e.count !== 'number') return null;
  const n = requestCount(run, e.count);
  if (n < 2) return null;
  // The population std over the entry's values; as a sample variance over n requests.
  return { mean: e.avg, variance: (e.std * e.std * n) / (n - 1), n };
}

function meanTest(a: RunExports, b: RunExports, c: MetricChoice): Noise {
  const sa = meanSample(a, c.tag);
  const sb = meanSample(b, c.tag);
  const w = sa && sb ? welch(sa, sb) : null;
  if (!w) return { beyond: null, test: TESTS.mean, detail: 'fewer than 2 requests with a value' };
  return { beyond: w.beyond, test: TESTS.mean, detail: `difference ±${fmt(w.halfWidth)} at 95 %` };
}

const BATCH_RATES: Readonly<Record<string, (run: RunExports, i: number) => number>> = {
  output_token_throughput: (r, i) => r.records!.output_tokens[i] ?? 0,
  total_token_throughput: (r, i) => (r.records!.output_tokens[i] ?? 0) + (r.records!.input_tokens[i] ?? 0),
  request_throughput: () => 1,
};

/** Per-slice rates of successful profiling requests, attributed to the slice they ended in. */
export function batchRates(run: RunExports, weight: (run: RunExports, i: number) => number): Sample | null {
  const rec = run.records;
  const start = run.profile.run?.start_ns;
  const end = run.profile.run?.end_ns;
  if (!rec || start === null || end === null || start === undefined || end === undefined) return null;
  const span = (Number(end) - Number(start)) / 1e9;
  if (!(span > 0)) return null;
  const sums = new Array<number>(BATCHES).fill(0);
  for (let i = 0; i < rec.status.length; i++) {
    if (rec.phase[i] !== 'profiling' || rec.status[i] !== 'ok') continue;
    const k = Math.min(BATCHES - 1, Math.max(0, Math.floor((rec.end_s[i] / span) * BATCHES)));
    sums[k] += weight(run, i);
  }
  const rates = sums.map((s) => s / (span / BATCHES));
  const mean = rates.reduce((x, y) => x + y, 0) / BATCHES;
  const variance = rates.reduce((x, y) => x + (y - mean) ** 2, 0) / (BATCHES - 1);
  return { mean, variance, n: BATCHES };
}

function batchTest(a: RunExports, b: RunExports, c: MetricChoice): Noise {
  const w = BATCH_RATES[c.tag];
  const sa = batchRates(a, w);
  const sb = batchRates(b, w);
  if (!sa || !sb) return { beyond: null, test: TESTS.batch, detail: 'needs records.jsonl and the run window in both runs' };
  const t = welch(sa, sb)!;
  return { beyond: t.beyond, test: TESTS.batch, detail: `difference ±${fmt(t.halfWidth)} at 95 %` };
}

function proportionTest(a: RunExports, b: RunExports): Noise {
  const na = a.profile.counts.issued;
  const nb = b.profile.counts.issued;
  if (na === 0 || nb === 0) return { beyond: null, test: TESTS.proportion, detail: 'a run issued no request' };
  const pa = a.profile.counts.errored / na;
  const pb = b.profile.counts.errored / nb;
  const p = (a.profile.counts.errored + b.profile.counts.errored) / (na + nb);
  const se = Math.sqrt(p * (1 - p) * (1 / na + 1 / nb));
  const half = normalQuantile(1 - (1 - LEVEL) / 2) * se;
  return {
    beyond: se === 0 ? pa !== pb : Math.abs(pb - pa) > half,
    test: TESTS.proportion,
    detail: `difference ±${fmt(half * 100)} % at 95 %`,
  };
}

/** The noise test of one metric between the baseline `a` and the run `b`. */
export function noiseTest(a: RunExports, b: RunExports, c: MetricChoice): Noise {
  if (c.def.kind === 'record') {
    if (c.stat.startsWith('p')) return percentileTest(a, b, c);
    if (c.stat === 'avg') return meanTest(a, b, c);
    return { beyond: null, test: TESTS.none, detail: `no noise test for ${c.stat}` };
  }
  if (c.tag in BATCH_RATES) return batchTest(a, b, c);
  if (c.tag === 'request_error_rate') return proportionTest(a, b);
  return {
    beyond: null,
    test: TESTS.none,
    detail: `no noise estimate for ${c.def.kind === 'time_weighted' ? 'a time-weighted' : 'this run-level'} value`,
  };
}

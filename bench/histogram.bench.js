// HDR histograms: the native batch record (one recordValues call over a 10M-value column) and
// percentile queries, against plain-JS ways of getting the same percentiles in the same run:
// sorting a copy of the column (nearest rank), and recording value by value into hdr-histogram-js.
import { createRequire } from 'node:module';
import { duration, importDist, measureInterleaved, median, ratio, rng, si, spread } from './lib.js';

export const description = 'HDR histogram: native batch record and percentile queries vs a JS sort and hdr-histogram-js';

const PS = [1, 5, 10, 25, 50, 75, 90, 95, 99];

/** Latency-like integers (ns): lognormal around 20 ms, a slow tail, as a column. */
function latencies(n, seed) {
  const r = rng(seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    out[i] = Math.round(Math.exp(Math.log(2e7) + 0.8 * z));
  }
  return out;
}

/** Nearest-rank percentiles of a sorted copy: the plain-TS way. */
function sortPercentiles(values) {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  return PS.map((p) => sorted[Math.max(1, Math.ceil((p / 100) * n)) - 1]);
}

export async function run(ctx) {
  const n = ctx.quick ? 200_000 : 10_000_000;
  const reps = ctx.quick ? 3 : 7;
  const { Histogram } = ctx.native;
  const values = latencies(n, 7);
  const bigints = BigInt64Array.from(values, (v) => BigInt(v));
  const psArray = Float64Array.from(PS);
  let hdr = null;
  try {
    hdr = createRequire(import.meta.url)('hdr-histogram-js');
  } catch {
    ctx.log('  histogram: hdr-histogram-js not installed, its row is skipped');
  }
  const metricHistogram = await importDist('metrics/core/histogram.js');

  // The answers must agree before the times mean anything: the histogram's percentiles are within
  // 10^-3 of the exact nearest-rank ones (and never below them).
  const check = new Histogram(3);
  check.recordValues(values);
  const exact = sortPercentiles(values);
  const approx = check.valuesAtPercentiles(psArray);
  exact.forEach((x, i) => {
    if (!(approx[i] >= x && approx[i] - x <= x * 1e-3)) throw new Error(`histogram bench: p${PS[i]} ${approx[i]} vs exact ${x}`);
  });
  ctx.log(`  histogram: ${si(n)} values, ${reps} repetitions`);

  const recorders = [
    ['native recordValues(Float64Array)', () => new Histogram(3).recordValues(values)],
    ['native recordValues(BigInt64Array)', () => new Histogram(3).recordValues(bigints)],
  ];
  if (metricHistogram) {
    recorders.push([
      'MetricHistogram.add (JS, staged 4096/call)',
      () => {
        const h = new metricHistogram.MetricHistogram('ns');
        for (let i = 0; i < values.length; i++) h.add(values[i]);
        return h.count;
      },
    ]);
  }
  if (hdr) {
    recorders.push([
      'hdr-histogram-js recordValue loop',
      () => {
        const h = hdr.build({ numberOfSignificantValueDigits: 3 });
        for (let i = 0; i < values.length; i++) h.recordValue(values[i]);
        return h;
      },
    ]);
  }
  // The end-to-end comparison: 9 percentiles of the column, from nothing.
  const endToEnd = [
    [
      'native: record batch + 9 percentiles',
      () => {
        const h = new Histogram(3);
        h.recordValues(values);
        return h.valuesAtPercentiles(psArray);
      },
    ],
    ['JS: sort a copy + nearest rank', () => sortPercentiles(values)],
  ];

  const all = [...recorders, ...endToEnd];
  const samples = measureInterleaved(
    all.map(([, fn]) => fn),
    { reps, warmup: 1 },
  );
  const med = samples.map(median);
  const nativeNs = med[0];
  const recordRows = recorders.map(([label], k) => [
    label,
    (med[k] / n).toFixed(2),
    si(n / (med[k] / 1e9), '/s'),
    `${(spread(samples[k]) * 100).toFixed(0)}%`,
    k === 0 ? '1×' : ratio(nativeNs, med[k]),
  ]);
  const e0 = recorders.length;
  const sortNs = med[e0 + 1];
  const e2eRows = endToEnd.map(([label], j) => [
    label,
    duration(med[e0 + j]),
    `${(spread(samples[e0 + j]) * 100).toFixed(0)}%`,
    j === 1 ? '1×' : ratio(sortNs, med[e0 + j]),
  ]);

  // Queries on a filled histogram: one percentile, and the summary's nine in one call.
  const calls = ctx.quick ? 2_000 : 100_000;
  const q = measureInterleaved(
    [
      () => {
        for (let i = 0; i < calls; i++) check.valueAtPercentile(PS[i % PS.length]);
      },
      () => {
        for (let i = 0; i < calls; i++) check.valuesAtPercentiles(psArray);
      },
    ],
    { reps, warmup: 1 },
  );
  const queryRows = [
    ['valueAtPercentile(p)', duration(median(q[0]) / calls), `${(spread(q[0]) * 100).toFixed(0)}%`],
    ['valuesAtPercentiles(9 ps)', duration(median(q[1]) / calls), `${(spread(q[1]) * 100).toFixed(0)}%`],
  ];

  return {
    tables: [
      {
        title: `record ${si(n)} latency-like values, 3 significant digits (median of ${reps}, interleaved)`,
        columns: ['recorder', 'ns/value', 'values/s', 'spread', 'vs native batch'],
        rows: recordRows,
      },
      {
        title: `9 percentiles of ${si(n)} values from scratch (median of ${reps}, interleaved)`,
        columns: ['method', 'time', 'spread', 'speed-up vs JS sort'],
        rows: e2eRows,
      },
      {
        title: `queries on a filled histogram (${si(calls)} calls per repetition)`,
        columns: ['query', 'per call', 'spread'],
        rows: queryRows,
      },
    ],
    notes: [
      'target: native batch record ≤ 5 ns/value; the batch keeps exact count/sum/min/max/std alongside the buckets',
      'spread: (max - min) / median over the repetitions; large values mean a noisy machine',
    ],
  };
}

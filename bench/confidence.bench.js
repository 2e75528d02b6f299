// Confidence intervals: what they add to a summary. The exact binomial ranks of the eleven
// reported percentiles (the incomplete beta function, bisected) at growing sample sizes, uncached;
// and one metric's full intervals (ranks + values at ranks from its HDR histogram + the t interval
// of the mean) against its plain statistics (moments + percentiles), from the same histogram.
import { duration, importDist, measureInterleaved, median, rng, si, spread } from './lib.js';

export const description = 'confidence intervals: exact order-statistic ranks and per-metric interval cost vs the plain statistics';

const QS = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999];

export async function run(ctx) {
  const conf = await importDist('metrics/core/confidence.js');
  const hist = await importDist('metrics/core/histogram.js');
  const stats = await importDist('metrics/core/stats.js');
  if (!conf || !hist || !stats) throw new Error('confidence bench: dist/ is not built (npx tsc -p tsconfig.build.json)');
  const reps = ctx.quick ? 3 : 9;

  // Ranks: a different level each call keeps the cache out of the measurement.
  let tweak = 0;
  const level = () => 0.95 + 1e-9 * ++tweak;
  const sizes = ctx.quick ? [1_000, 100_000] : [1_000, 100_000, 10_000_000];
  const rankFns = sizes.map((n) => () => {
    const l = level();
    for (const q of QS) conf.orderStatisticRanks(n, q, l);
  });
  const rankSamples = measureInterleaved(rankFns, { reps, warmup: 1 });
  const rankRows = sizes.map((n, i) => [
    si(n),
    duration(median(rankSamples[i])),
    duration(median(rankSamples[i]) / QS.length),
    `${(spread(rankSamples[i]) * 100).toFixed(0)}%`,
  ]);

  // One metric of latency-like values (lognormal around 20 ms).
  const n = ctx.quick ? 100_000 : 1_000_000;
  const r = rng(11);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++)
    values[i] = Math.round(Math.exp(Math.log(2e7) + 0.8 * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())));
  const h = new hist.MetricHistogram('ns');
  h.addAll(values);
  const m = h.moments();
  const [plain, withCi] = measureInterleaved(
    [
      () => stats.histogramStats(h),
      () => {
        stats.histogramStats(h);
        conf.distributionIntervals(h, m, level());
      },
    ],
    { reps, warmup: 1 },
  );
  const metricRows = [
    ['plain statistics (moments, mode, 11 percentiles)', duration(median(plain)), `${(spread(plain) * 100).toFixed(0)}%`],
    ['+ intervals (22 ranks, values at ranks, t interval)', duration(median(withCi)), `${(spread(withCi) * 100).toFixed(0)}%`],
  ];
  ctx.log(`  confidence: ranks at ${sizes.map((s) => si(s)).join(', ')}; one metric of ${si(n)} values; ${reps} repetitions`);
  return {
    tables: [
      {
        title: 'Exact order-statistic ranks, 11 percentiles, uncached',
        columns: ['sample size', 'all 11', 'per percentile', 'spread'],
        rows: rankRows,
      },
      { title: `One metric's summary (${si(n)} values in its histogram)`, columns: ['work', 'time', 'spread'], rows: metricRows },
    ],
    notes: ['Ranks depend only on (n, q, level) and are cached per summary, so metrics of the same size pay them once.'],
  };
}

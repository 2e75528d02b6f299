// Sweep-line integration (Effective / Active metrics, native/timeline/timeline.cc): one call over a run's
// request columns, against the same sweep in plain JS (bench/timeline-js.js: comparator sort of the
// events, a loop, exact percentiles by sorting each curve's values), on synthetic closed-loop runs.
import { duration, importDist, measure, measureInterleaved, median, ratio, rng, si, spread } from './lib.js';
import { jsTimeline } from './timeline-js.js';

export const description = 'sweep-line integration of a run (Effective / Active metrics), native vs plain JS';

/**
 * n requests from 1024 closed-loop slots, in the order they were issued (the order records arrive
 * in, give or take the concurrency): TTFT 50–150 ms, decode 1–3 s, ISL 100–2000, OSL 50–500,
 * integer ns relative to the run start, as src/metrics/core/timeweighted.ts builds them.
 */
function synthetic(n, seed = 42) {
  const r = rng(seed);
  const slots = 1024;
  const free = new Float64Array(slots);
  const cols = {
    start: new Float64Array(n),
    generationStart: new Float64Array(n),
    end: new Float64Array(n),
    isl: new Float64Array(n),
    osl: new Float64Array(n),
  };
  let last = 0;
  for (let i = 0; i < n; i++) {
    const k = i % slots;
    const s = free[k] + Math.floor(r() * 1e6);
    const g = s + Math.floor(50e6 + r() * 100e6);
    const e = g + Math.floor(1e9 + r() * 2e9);
    free[k] = e;
    if (e > last) last = e;
    cols.start[i] = s;
    cols.generationStart[i] = g;
    cols.end[i] = e;
    cols.isl[i] = Math.floor(100 + r() * 1900);
    cols.osl[i] = Math.floor(50 + r() * 450);
  }
  return { cols, end: last };
}

/** Largest relative difference of the averages of two results (a check that both did the work). */
function agreement(a, b) {
  let worst = 0;
  for (const row of Object.keys(a.rows)) {
    const x = a.rows[row].avg;
    const y = b.rows[row].avg;
    if (Number.isNaN(x) && Number.isNaN(y)) continue;
    worst = Math.max(worst, Math.abs(x - y) / Math.max(1e-300, Math.abs(y)));
  }
  return worst;
}

export async function run(ctx) {
  const { native, quick, log } = ctx;
  const wrapper = await importDist('metrics/core/timeline.js');
  const sweep = wrapper
    ? (c, w0, w1) => wrapper.timeline(c, w0, w1)
    : (c, w0, w1) => native.timeline(c.start, c.generationStart, c.end, c.isl, c.osl, w0, w1);
  const small = quick ? 10_000 : 1_000_000;
  const large = quick ? 100_000 : 10_000_000;
  const rows = [];
  const notes = [];

  // Native and JS on the same run, round-robin, so load from elsewhere hits both alike.
  log(`sweep: ${small} requests, native vs JS`);
  const a = synthetic(small);
  const [nat, js] = measureInterleaved([() => sweep(a.cols, 0, a.end), () => jsTimeline(a.cols, 0, a.end)], {
    reps: quick ? 2 : 3,
    warmup: 1,
  });
  const diff = agreement(sweep(a.cols, 0, a.end), jsTimeline(a.cols, 0, a.end));
  rows.push(row(small, 'native (addon)', nat, median(js)));
  rows.push(row(small, 'plain JS sweep', js, median(js)));
  notes.push(`averages of native and JS agree to ${diff.toExponential(1)} (relative); percentiles to 2^-12 (native histogram buckets)`);

  // Native alone at the large size: the JS sweep would take minutes and several GB here.
  log(`sweep: ${large} requests, native`);
  const b = synthetic(large);
  const big = measure(() => sweep(b.cols, 0, b.end), { reps: quick ? 2 : 5, warmup: 1 });
  // The JS time at this size is extrapolated from the small run (n log n), for the ratio only.
  const jsEstimate = median(js) * (large / small) * (Math.log2(3 * large) / Math.log2(3 * small));
  rows.push(row(large, 'native (addon)', big, jsEstimate));
  notes.push(
    `${si(large)} requests: native median ${duration(median(big))} (target < 1 s); the JS sweep is not run at this size, ` +
      `its time (${duration(jsEstimate)}) is extrapolated from ${si(small)} as n log n for the speed-up column`,
  );
  const columns = 5 * 8 * large;
  notes.push(
    `input columns at ${si(large)}: ${si(columns, 'B')} (5 Float64Arrays); the addon maps ~80 B per request more ` +
      `while it runs; peak RSS of this process: ${si(process.resourceUsage().maxRSS * 1024, 'B')}`,
  );
  return {
    tables: [
      {
        title: 'Sweep-line integration: one call per run (sort events, sweep, time-weighted stats of 14 curves)',
        columns: ['requests', 'implementation', 'median', 'min', 'spread', 'requests/s', 'speed-up vs JS'],
        rows,
      },
    ],
    notes,
  };
}

function row(n, name, samples, jsMedian) {
  const m = median(samples);
  return [
    si(n),
    name,
    duration(m),
    duration(Math.min(...samples)),
    `${(100 * spread(samples)).toFixed(0)}%`,
    si(n / (m / 1e9)),
    ratio(jsMedian, m),
  ];
}

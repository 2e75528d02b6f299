// Distribution plots from each run's HDR histograms (histograms.json): the CDF and the histogram
// of TTFT, ITL, request latency and per-user output tokens/s, with p50/p90/p99 marked. The CDF is
// read at 104 percentiles and the histogram binned from 1,000 evenly spaced quantiles, both from
// the decoded histogram, so a run's file size does not grow with its request count.
import type { RunExports } from '../export/read-run.js';
import type { MetricRegistry } from '../metrics/core/registry.js';
import { MetricHistogram } from '../metrics/core/histogram.js';
import { MetricFlag } from '../metrics/core/types.js';
import { displayFactor } from '../metrics/core/units.js';
import { color, join, round, type ChartSpec, type Mark } from './model.js';

export const DISTRIBUTION_TAGS = [
  'time_to_first_token',
  'inter_token_latency',
  'request_latency',
  'output_token_throughput_per_user',
] as const;

const CDF_PERCENTILES = [...Array.from({ length: 100 }, (_, i) => i), 99.5, 99.9, 99.99, 100];
const QUANTILES = Array.from({ length: 1000 }, (_, i) => (i + 0.5) / 10);
const BINS = 40;
const MARKED = [50, 90, 99] as const;

interface Decoded {
  run: RunExports;
  index: number;
  cdf: number[];
  quantiles: number[];
  marks: number[];
}

function decode(runs: readonly RunExports[], tag: string, factor: number): Decoded[] {
  const out: Decoded[] = [];
  runs.forEach((run, index) => {
    const e = run.histograms?.metrics[tag];
    if (!e) return;
    const h = MetricHistogram.fromExport(e);
    if (h.count === 0) return;
    const scale = (vs: number[]) => vs.map((v) => v * factor);
    out.push({
      run,
      index,
      cdf: scale(h.percentiles(CDF_PERCENTILES)),
      quantiles: scale(h.percentiles(QUANTILES)),
      marks: scale(h.percentiles([...MARKED])),
    });
  });
  return out;
}

function percentileMarks(d: readonly Decoded[]): Mark[] {
  // One run: p50/p90/p99 in grey shades; several: each run's p50 and p99 in its colour, to stay readable.
  if (d.length === 1)
    return d[0].marks.map((v, k) => ({ axis: 'x', value: round(v)!, label: `p${MARKED[k]}`, color: ['#555', '#888', '#222'][k] }));
  return d.flatMap((r) =>
    r.marks.flatMap((v, k) =>
      MARKED[k] === 90 ? [] : [{ axis: 'x' as const, value: round(v)!, label: `p${MARKED[k]} ${r.run.label}`, color: color(r.index) }],
    ),
  );
}

export function distributionCharts(runs: readonly RunExports[], registry: MetricRegistry): { charts: ChartSpec[]; missing: string[] } {
  const charts: ChartSpec[] = [];
  const missing: string[] = [];
  const overlay = runs.length > 1;
  for (const tag of DISTRIBUTION_TAGS) {
    const def = registry.getMetric(tag)!;
    const unit = def.display;
    const d = decode(runs, tag, displayFactor(def.unit, def.display));
    if (d.length === 0) {
      missing.push(def.header);
      continue;
    }
    const marks = percentileMarks(d);
    const what = `${def.header} (${unit})`;
    charts.push({
      id: `cdf-${tag}`,
      title: `${def.header}: CDF`,
      caption: `Share of requests at or below each ${def.header.toLowerCase()}; a curve further ${def.flags & MetricFlag.LARGER_IS_BETTER ? 'right' : 'left'} is better, and the top of the curve is the tail.`,
      x: { label: what },
      y: { label: 'requests at or below (%)' },
      series: d.map((r) => ({ label: r.run.label, color: color(r.index), kind: 'line' })),
      data: join(d.map((r) => ({ x: r.cdf, y: CDF_PERCENTILES }))),
      marks,
    });
    const lo = Math.min(...d.map((r) => r.quantiles[0]));
    const hi = Math.max(...d.map((r) => r.quantiles[r.quantiles.length - 1]));
    const width = hi > lo ? (hi - lo) / BINS : 1;
    const centers = Array.from({ length: BINS }, (_, i) => lo + (i + 0.5) * width);
    const cols = d.map((r) => {
      const counts = new Array<number>(BINS).fill(0);
      for (const q of r.quantiles) counts[Math.min(BINS - 1, Math.max(0, Math.floor((q - lo) / width)))]++;
      return counts.map((c) => (c / r.quantiles.length) * 100);
    });
    charts.push({
      id: `hist-${tag}`,
      title: `${def.header}: histogram`,
      caption: `Where the requests' ${def.header.toLowerCase()} values fall: a narrow peak is a steady server, a second peak or a long right tail is worth a look.`,
      x: { label: what },
      y: { label: 'requests (%)' },
      series: d.map((r) => ({ label: r.run.label, color: color(r.index), kind: overlay ? 'step' : 'bars' })),
      data: [centers.map((c) => round(c)), ...cols.map((c) => c.map((v) => round(v)))],
      marks,
      note: `${BINS} bins from p0.05 to p99.95 of the runs shown.`,
    });
  }
  return { charts, missing };
}

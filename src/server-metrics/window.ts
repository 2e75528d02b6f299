// Summaries of scraped series over a window (the profiling window, or one time slice):
//   gauges     time-weighted: each scrape's value holds until the next scrape; avg, min, max and
//              p50/p90/p99 over time (weighted by how long each value held inside the window);
//   counters   the increase from the last scrape at or before the window's start to the first at or
//              after its end, a drop counted as a reset (the counter restarted from 0), and the rate;
//   histograms the window's delta buckets (the same two scrapes), percentiles interpolated inside
//              their bucket as Prometheus' histogram_quantile does, each with the bucket it fell in.
import { SeriesTable, type Scrape } from './series.js';

export interface Window {
  start_ns: bigint;
  end_ns: bigint;
}

export interface GaugeStats {
  avg: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
  samples: number;
}

export interface CounterStats {
  increase: number;
  /** Per second, over the span between the two bracketing scrapes. */
  rate: number;
  resets: number;
  span_s: number;
}

export interface HistogramPercentile {
  value: number;
  /** The bucket it fell in: the resolution of this percentile. */
  bucket: [number, number];
}

export interface HistogramStats {
  count: number;
  sum: number;
  mean: number | null;
  p50: HistogramPercentile | null;
  p90: HistogramPercentile | null;
  p99: HistogramPercentile | null;
  /** The window's delta buckets: upper bound → observations up to it (cumulative). */
  buckets: { le: number; count: number }[];
}

export interface Point {
  t_ns: bigint;
  v: number;
}

/** One value per successful scrape: the combination (`sum` or `mean`) of the present series, × scale. */
export function pointsOf(table: SeriesTable, ids: readonly number[], agg: 'sum' | 'mean', scale = 1): Point[] {
  const out: Point[] = [];
  for (const s of table.scrapes) {
    if (s.values === null) continue;
    let total = 0;
    let n = 0;
    for (const id of ids) {
      const v = SeriesTable.value(s, id);
      if (Number.isFinite(v)) {
        total += v;
        n++;
      }
    }
    if (n > 0) out.push({ t_ns: s.t_ns, v: (agg === 'sum' ? total : total / n) * scale });
  }
  return out;
}

export function gaugeStats(points: readonly Point[], w: Window): GaugeStats | null {
  const segs: { v: number; d: number }[] = [];
  let min = Infinity;
  let max = -Infinity;
  let inside = 0;
  for (let i = 0; i < points.length; i++) {
    const from = points[i].t_ns > w.start_ns ? points[i].t_ns : w.start_ns;
    const nextT = i + 1 < points.length ? points[i + 1].t_ns : w.end_ns;
    const to = nextT < w.end_ns ? nextT : w.end_ns;
    if (to <= from) continue;
    const v = points[i].v;
    segs.push({ v, d: Number(to - from) });
    if (points[i].t_ns >= w.start_ns && points[i].t_ns <= w.end_ns) inside++;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (segs.length === 0) return null;
  let total = 0;
  let weighted = 0;
  for (const s of segs) {
    total += s.d;
    weighted += s.v * s.d;
  }
  const sorted = [...segs].sort((a, b) => a.v - b.v);
  const pct = (p: number) => {
    const target = p * total;
    let cum = 0;
    for (const s of sorted) {
      cum += s.d;
      if (cum >= target) return s.v;
    }
    return sorted[sorted.length - 1].v;
  };
  return { avg: weighted / total, min, max, p50: pct(0.5), p90: pct(0.9), p99: pct(0.99), samples: inside };
}

/** Indices of the scrapes that bracket the window: last ok at or before start, first ok at or after end. */
export function bracket(scrapes: readonly Scrape[], w: Window): [number, number] | null {
  let base = -1;
  let final = -1;
  let firstOk = -1;
  let lastOk = -1;
  for (let i = 0; i < scrapes.length; i++) {
    const s = scrapes[i];
    if (s.values === null) continue;
    if (firstOk < 0) firstOk = i;
    lastOk = i;
    if (s.t_ns <= w.start_ns) base = i;
    if (final < 0 && s.t_ns >= w.end_ns) final = i;
  }
  if (firstOk < 0) return null;
  if (base < 0) base = firstOk;
  if (final < 0) final = lastOk;
  return final > base ? [base, final] : null;
}

/** A counter's increase between two scrapes, with resets: a value below the previous one restarted from 0. */
function increase(scrapes: readonly Scrape[], id: number, from: number, to: number): { inc: number; resets: number } | null {
  let prev = NaN;
  let inc = 0;
  let resets = 0;
  let seen = false;
  for (let i = from; i <= to; i++) {
    const v = SeriesTable.value(scrapes[i], id);
    if (!Number.isFinite(v)) continue;
    if (Number.isFinite(prev)) {
      if (v >= prev) inc += v - prev;
      else {
        inc += v;
        resets++;
      }
      seen = true;
    }
    prev = v;
  }
  return seen ? { inc, resets } : null;
}

export function counterStats(table: SeriesTable, ids: readonly number[], w: Window): CounterStats | null {
  const b = bracket(table.scrapes, w);
  if (!b) return null;
  let inc = 0;
  let resets = 0;
  let any = false;
  for (const id of ids) {
    const r = increase(table.scrapes, id, b[0], b[1]);
    if (!r) continue;
    any = true;
    inc += r.inc;
    resets += r.resets;
  }
  if (!any) return null;
  const span_s = Number(table.scrapes[b[1]].t_ns - table.scrapes[b[0]].t_ns) / 1e9;
  return { increase: inc, rate: span_s > 0 ? inc / span_s : 0, resets, span_s };
}

/** The bucket, _sum and _count series of one histogram family, grouped by their labels less `le`. */
export interface HistogramGroup {
  labels: string;
  buckets: { le: number; id: number }[];
  sum: number | null;
  count: number | null;
}

export function histogramGroups(table: SeriesTable, family: string): HistogramGroup[] {
  const groups = new Map<string, HistogramGroup>();
  const group = (labels: Record<string, string>): HistogramGroup => {
    const rest = Object.entries(labels)
      .filter(([k]) => k !== 'le')
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join(',');
    let g = groups.get(rest);
    if (!g) {
      g = { labels: rest, buckets: [], sum: null, count: null };
      groups.set(rest, g);
    }
    return g;
  };
  table.meta.forEach((m, id) => {
    if (m.family !== family) return;
    if (m.name === `${family}_bucket`) {
      const le = m.labels.le === '+Inf' ? Infinity : Number(m.labels.le);
      if (!Number.isNaN(le)) group(m.labels).buckets.push({ le, id });
    } else if (m.name === `${family}_sum`) group(m.labels).sum = id;
    else if (m.name === `${family}_count`) group(m.labels).count = id;
  });
  for (const g of groups.values()) g.buckets.sort((a, b) => a.le - b.le);
  return [...groups.values()].filter((g) => g.buckets.length > 0);
}

function delta(scrapes: readonly Scrape[], id: number, from: number, to: number): number {
  const a = SeriesTable.value(scrapes[from], id);
  const b = SeriesTable.value(scrapes[to], id);
  if (!Number.isFinite(b)) return 0;
  if (!Number.isFinite(a) || b < a) return b; // absent before, or reset: all of it is new
  return b - a;
}

/** Prometheus' histogram_quantile over cumulative buckets (the last one +Inf). */
export function bucketQuantile(q: number, buckets: readonly { le: number; count: number }[]): HistogramPercentile | null {
  const total = buckets.length > 0 ? buckets[buckets.length - 1].count : 0;
  if (total <= 0) return null;
  const rank = q * total;
  for (let i = 0; i < buckets.length; i++) {
    if (buckets[i].count < rank) continue;
    const lower = i === 0 ? Math.min(0, buckets[0].le) : buckets[i - 1].le;
    const upper = buckets[i].le;
    if (upper === Infinity) return { value: lower, bucket: [lower, upper] };
    const below = i === 0 ? 0 : buckets[i - 1].count;
    const inBucket = buckets[i].count - below;
    const value = inBucket > 0 ? lower + ((upper - lower) * (rank - below)) / inBucket : upper;
    return { value, bucket: [lower, upper] };
  }
  return null;
}

/** The window's histogram over the given groups (summed where their bounds agree with the first's). */
export function histogramStats(table: SeriesTable, groups: readonly HistogramGroup[], w: Window): HistogramStats | null {
  const b = bracket(table.scrapes, w);
  if (!b || groups.length === 0) return null;
  const bounds = groups[0].buckets.map((x) => x.le);
  const counts = new Array<number>(bounds.length).fill(0);
  let sum = 0;
  let count = 0;
  for (const g of groups) {
    if (g.buckets.length !== bounds.length || g.buckets.some((x, i) => x.le !== bounds[i])) continue;
    g.buckets.forEach((x, i) => (counts[i] += delta(table.scrapes, x.id, b[0], b[1])));
    if (g.sum !== null) sum += delta(table.scrapes, g.sum, b[0], b[1]);
    if (g.count !== null) count += delta(table.scrapes, g.count, b[0], b[1]);
  }
  if (bounds[bounds.length - 1] !== Infinity) {
    bounds.push(Infinity);
    counts.push(count > 0 ? count : counts[counts.length - 1]);
  }
  const buckets = bounds.map((le, i) => ({ le, count: counts[i] }));
  const n = count > 0 ? count : counts[counts.length - 1];
  return {
    count: n,
    sum,
    mean: n > 0 ? sum / n : null,
    p50: bucketQuantile(0.5, buckets),
    p90: bucketQuantile(0.9, buckets),
    p99: bucketQuantile(0.99, buckets),
    buckets,
  };
}

// The sweep's Pareto plots, one point per sweep point (or per run of a concurrency/rate list):
// TTFT p99 and ITL p99 against output tokens/s, and per-user output tokens/s against total output
// tokens/s, with the goodput SLOs as lines and the knee marked.
import type { RunExports } from '../export/read-run.js';
import { join, round, type ChartSpec, type Mark } from './model.js';

interface Point {
  label: string;
  throughput: number;
  ttftP99: number | null;
  itlP99: number | null;
  perUser: number | null;
}

function stat(run: RunExports, tag: string, key: string): number | null {
  const e = run.profile.metrics[tag] as unknown as Record<string, unknown> | undefined;
  const v = e?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The knee (Kneedle): with both axes scaled to [0, 1], the point farthest from the chord between
 * the first and last points, in the sweep's order. Null below 3 points or on a straight line.
 */
export function kneeIndex(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 3) return null;
  const norm = (vs: readonly number[]) => {
    const lo = Math.min(...vs);
    const hi = Math.max(...vs);
    return vs.map((v) => (hi > lo ? (v - lo) / (hi - lo) : 0));
  };
  const x = norm(xs);
  const y = norm(ys);
  const dx = x[n - 1] - x[0];
  const dy = y[n - 1] - y[0];
  const len = Math.hypot(dx, dy);
  if (len === 0) return null;
  let best = -1;
  let at: number | null = null;
  for (let i = 1; i < n - 1; i++) {
    const d = Math.abs(dy * (x[i] - x[0]) - dx * (y[i] - y[0])) / len;
    if (d > best + 1e-12) {
      best = d;
      at = i;
    }
  }
  return best > 1e-9 ? at : null;
}

function slos(run: RunExports): Map<string, number> {
  const cfg = run.profile.config as { metrics?: { goodput?: { tag: string; value: number }[] } } | null;
  return new Map((cfg?.metrics?.goodput ?? []).map((s) => [s.tag, s.value] as const));
}

export function sweepCharts(points: readonly RunExports[]): ChartSpec[] {
  const pts: Point[] = [];
  for (const run of points) {
    const throughput = stat(run, 'output_token_throughput', 'avg');
    if (throughput === null) continue;
    pts.push({
      label: run.label,
      throughput,
      ttftP99: stat(run, 'time_to_first_token', 'p99'),
      itlP99: stat(run, 'inter_token_latency', 'p99'),
      perUser: stat(run, 'output_token_throughput_per_user', 'p50'),
    });
  }
  if (pts.length < 2) return [];
  const slo = slos(points[0]);
  const xs = pts.map((p) => p.throughput);
  const knee = (ys: (number | null)[]): Mark[] => {
    if (ys.some((y) => y === null)) return [];
    const k = kneeIndex(xs, ys as number[]);
    return k === null ? [] : [{ axis: 'x', value: round(xs[k])!, label: `knee: ${pts[k].label}`, color: '#2ca02c' }];
  };
  const sloMark = (tag: string, what: string): Mark[] =>
    slo.has(tag) ? [{ axis: 'y', value: slo.get(tag)!, label: `SLO ${what} ${slo.get(tag)} ms`, color: '#d62728' }] : [];
  const x = { label: 'output tokens/s (all users)' };
  const latency = (id: string, title: string, what: string, tag: string, ys: (number | null)[]): ChartSpec => ({
    id,
    title,
    caption: `Each point is a sweep point: moving right buys throughput, moving up costs ${what}; past the knee throughput barely grows while ${what} climbs.`,
    x,
    y: { label: `${what} (ms)` },
    series: [{ label: what, color: '#1f77b4', kind: 'linepoints' }],
    data: join([{ x: xs, y: ys }]),
    marks: [...sloMark(tag, what), ...knee(ys)],
  });
  const perUser = pts.map((p) => p.perUser);
  return [
    latency(
      'pareto-ttft',
      'TTFT p99 against throughput',
      'TTFT p99',
      'time_to_first_token',
      pts.map((p) => p.ttftP99),
    ),
    latency(
      'pareto-itl',
      'ITL p99 against throughput',
      'ITL p99',
      'inter_token_latency',
      pts.map((p) => p.itlP99),
    ),
    {
      id: 'pareto-per-user',
      title: 'Per-user against total output tokens/s',
      caption:
        'The trade-off of batching: each user streams slower as the server serves more users in total; the upper-right frontier is best.',
      x,
      y: { label: 'output tokens/s per user (p50)' },
      series: [{ label: 'per-user tokens/s', color: '#9467bd', kind: 'linepoints' }],
      data: join([{ x: xs, y: perUser }]),
      marks: knee(perUser.map((v) => (v === null ? null : -v))),
    },
  ];
}

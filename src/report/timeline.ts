// Plots over run time, from records.jsonl (and gpu_telemetry.jsonl where GPUs were sampled):
// per-request TTFT and latency against start time, coloured by status; throughput and in-flight
// concurrency in time slices; GPU power and energy. Times are seconds from the profiling start.
import type { RecordColumns, RunExports } from '../export/read-run.js';
import { color, join, stack, STATUS_COLORS, type ChartSpec, type SeriesSpec } from './model.js';

/** Per-request points beyond this many per run (and per status) are down-sampled, every k-th kept. */
export const MAX_POINTS_PER_RUN = 4000;
/** Time slices of the throughput and concurrency plots: about 10 completions each, 10 to 100 of them. */
export function sliceCount(completed: number): number {
  return Math.max(10, Math.min(100, Math.floor(completed / 10)));
}

function profilingIndexes(r: RecordColumns): number[] {
  const out: number[] = [];
  for (let i = 0; i < r.phase.length; i++) if (r.phase[i] === 'profiling') out.push(i);
  return out;
}

/** Every k-th index so that at most `max` remain; k = 1 keeps all. */
export function stride<T>(xs: readonly T[], max: number): { kept: T[]; k: number } {
  const k = Math.max(1, Math.ceil(xs.length / max));
  return { kept: k === 1 ? [...xs] : xs.filter((_, i) => i % k === 0), k };
}

function latencyOf(r: RecordColumns, i: number): number {
  // A failed request has no request_latency: its time to failure is what it cost.
  return r.latency_ms[i] ?? (r.end_s[i] - r.start_s[i]) * 1000;
}

export function scatterCharts(runs: readonly RunExports[]): ChartSpec[] {
  const withRecords = runs.map((run, index) => ({ run, index })).filter((x) => x.run.records !== null);
  if (withRecords.length === 0) return [];
  const overlay = runs.length > 1;
  const sampled: string[] = [];
  // One run: a series per status. Several: a series per run (successes) and one for every run's failures.
  const groups: { label: string; color: string; points: { x: number; i: number; r: RecordColumns }[] }[] = [];
  const failures: { x: number; i: number; r: RecordColumns }[] = [];
  for (const { run, index } of withRecords) {
    const r = run.records!;
    const idx = profilingIndexes(r);
    for (const status of ['ok', 'error', 'cancelled'] as const) {
      const mine = idx.filter((i) => r.status[i] === status);
      const { kept, k } = stride(mine, MAX_POINTS_PER_RUN);
      if (k > 1) sampled.push(`${run.label} ${status}: 1 in ${k} of ${mine.length} kept`);
      const pts = kept.map((i) => ({ x: r.start_s[i], i, r }));
      if (!overlay)
        groups.push({
          label: status === 'ok' ? 'succeeded' : status === 'error' ? 'errored' : 'cancelled',
          color: STATUS_COLORS[status],
          points: pts,
        });
      else if (status === 'ok') groups.push({ label: run.label, color: color(index), points: pts });
      else failures.push(...pts);
    }
  }
  if (overlay) groups.push({ label: 'errored or cancelled (all runs)', color: STATUS_COLORS.error, points: failures });
  const note = `Per-request points: at most ${MAX_POINTS_PER_RUN.toLocaleString('en')} per run and status, beyond that every k-th request is kept${sampled.length > 0 ? ` (${sampled.join('; ')})` : ' (none down-sampled here)'}.`;
  const series: SeriesSpec[] = groups.map((g) => ({ label: g.label, color: g.color, kind: 'points' }));
  const chart = (
    id: string,
    title: string,
    y: string,
    caption: string,
    value: (r: RecordColumns, i: number) => number | null,
  ): ChartSpec => ({
    id,
    title,
    caption,
    x: { label: 'request start (s from profiling start)' },
    y: { label: y },
    series,
    data: stack(groups.map((g) => ({ x: g.points.map((p) => p.x), y: g.points.map((p) => value(p.r, p.i)) }))),
    marks: [],
    note,
  });
  return [
    chart(
      'scatter-ttft',
      'Time to first token per request',
      'TTFT (ms)',
      'Each dot is a request at its start time: a rising band means queueing builds up; failures sit at their time to failure.',
      (r, i) => r.ttft_ms[i] ?? (r.status[i] === 'ok' ? null : (r.end_s[i] - r.start_s[i]) * 1000),
    ),
    chart(
      'scatter-latency',
      'Request latency per request',
      'latency (ms)',
      'Each dot is a request at its start time: stripes and outliers show stalls; errors and cancellations are coloured apart.',
      latencyOf,
    ),
  ];
}

interface Slices {
  n: number;
  width: number;
  centers: number[];
}

function slicesOf(r: RecordColumns): Slices | null {
  const idx = profilingIndexes(r);
  if (idx.length === 0) return null;
  const end = Math.max(...idx.map((i) => r.end_s[i]));
  if (!(end > 0)) return null;
  const n = sliceCount(idx.filter((i) => r.status[i] === 'ok').length);
  const width = end / n;
  return { n, width, centers: Array.from({ length: n }, (_, k) => (k + 0.5) * width) };
}

/** Adds `weight` spread evenly over [a, b) (seconds) to the slices it overlaps; a point adds to one. */
function spread(acc: number[], s: Slices, a: number, b: number, weight: number): void {
  if (!(b > a)) {
    const k = Math.min(s.n - 1, Math.max(0, Math.floor(b / s.width)));
    acc[k] += weight;
    return;
  }
  const k0 = Math.max(0, Math.floor(a / s.width));
  const k1 = Math.min(s.n - 1, Math.floor(b / s.width));
  for (let k = k0; k <= k1; k++) {
    const lo = Math.max(a, k * s.width);
    const hi = Math.min(b, (k + 1) * s.width);
    if (hi > lo) acc[k] += (weight * (hi - lo)) / (b - a);
  }
}

function perRun(run: RunExports) {
  const r = run.records!;
  const s = slicesOf(r);
  if (!s) return null;
  const [requests, tokens, prefill, decode] = [0, 1, 2, 3].map(() => new Array<number>(s.n).fill(0));
  for (const i of profilingIndexes(r)) {
    const first = r.ttft_ms[i] === null ? r.end_s[i] : r.start_s[i] + r.ttft_ms[i] / 1000;
    // In flight: prefill from start to the first token, decode from it to the end (request-seconds per slice).
    spread(prefill, s, r.start_s[i], first, first - r.start_s[i]);
    spread(decode, s, first, r.end_s[i], r.end_s[i] - first);
    if (r.status[i] !== 'ok') continue;
    spread(requests, s, r.end_s[i], r.end_s[i], 1);
    // Output tokens spread over the decode time they were produced in.
    spread(tokens, s, first, r.end_s[i], r.output_tokens[i] ?? 0);
  }
  const rate = (xs: number[]) => xs.map((v) => v / s.width);
  return { x: s.centers, requests: rate(requests), tokens: rate(tokens), prefill: rate(prefill), decode: rate(decode) };
}

export function timeSliceCharts(runs: readonly RunExports[]): ChartSpec[] {
  const rows = runs.map((run, index) => ({ run, index, t: run.records ? perRun(run) : null })).filter((x) => x.t !== null);
  if (rows.length === 0) return [];
  const two = (label: string, i: number, second: string): [SeriesSpec, SeriesSpec] => [
    { label: `${label}${rows.length > 1 ? ` ${rows[i].run.label}` : ''}`, color: color(rows[i].index * 2), kind: 'line' },
    { label: `${second}${rows.length > 1 ? ` ${rows[i].run.label}` : ''}`, color: color(rows[i].index * 2 + 1), kind: 'line', scale: 'y2' },
  ];
  const x = { label: 'time (s from profiling start)' };
  const note = `Time slices per run: ${rows.map((r) => `${r.t!.x.length} of ${Number((r.t!.x[0] * 2).toPrecision(3))} s`).join(', ')} (one per 10 completed requests, at least 10 and at most 100).`;
  return [
    {
      id: 'throughput',
      title: 'Throughput over time',
      caption:
        'Completed requests/s (left) and output tokens/s (right) per time slice: flat is steady state; the ramp and the tail are warm-up and drain.',
      x,
      y: { label: 'requests/s' },
      y2: { label: 'output tokens/s' },
      series: rows.flatMap((_, i) => two('requests/s', i, 'output tokens/s')),
      data: join(
        rows.flatMap((r) => [
          { x: r.t!.x, y: r.t!.requests },
          { x: r.t!.x, y: r.t!.tokens },
        ]),
      ),
      marks: [],
      note,
    },
    {
      id: 'concurrency',
      title: 'In-flight requests over time',
      caption:
        'Time-averaged requests in prefill (waiting for the first token, left) and in decode (streaming, right): prefill that grows means the server queues.',
      x,
      y: { label: 'in prefill (requests)' },
      y2: { label: 'in decode (requests)' },
      series: rows.flatMap((_, i) => two('prefill', i, 'decode')),
      data: join(
        rows.flatMap((r) => [
          { x: r.t!.x, y: r.t!.prefill },
          { x: r.t!.x, y: r.t!.decode },
        ]),
      ),
      marks: [],
      note,
    },
  ];
}

export function gpuCharts(runs: readonly RunExports[]): ChartSpec[] {
  const series: { label: string; x: number[]; power: (number | null)[]; energy: (number | null)[] }[] = [];
  for (const run of runs) {
    if (!run.gpu) continue;
    for (const gpu of [...new Set(run.gpu.map((g) => g.gpu))]) {
      const s = run.gpu.filter((g) => g.gpu === gpu);
      const { kept } = stride(s, MAX_POINTS_PER_RUN);
      const e0 = kept.find((g) => g.energy_j !== null)?.energy_j ?? null;
      series.push({
        label: runs.length > 1 ? `${run.label} ${gpu}` : gpu,
        x: kept.map((g) => g.t_s),
        power: kept.map((g) => g.power_w),
        energy: kept.map((g) => (g.energy_j === null || e0 === null ? null : g.energy_j - e0)),
      });
    }
  }
  if (series.length === 0) return [];
  const specs: SeriesSpec[] = series.map((s, i) => ({ label: s.label, color: color(i), kind: 'line' }));
  const x = { label: 'time (s from profiling start)' };
  return [
    {
      id: 'gpu-power',
      title: 'GPU power over time',
      caption: 'Board power per GPU as sampled: it should rise with load and fall back when the run drains.',
      x,
      y: { label: 'power (W)' },
      series: specs,
      data: join(series.map((s) => ({ x: s.x, y: s.power }))),
      marks: [],
    },
    {
      id: 'gpu-energy',
      title: 'GPU energy over time',
      caption: "Energy used per GPU since sampling began (the driver's counter): its slope is the power.",
      x,
      y: { label: 'energy (J)' },
      series: specs,
      data: join(series.map((s) => ({ x: s.x, y: s.energy }))),
      marks: [],
    },
  ];
}

// --slice-duration S: the profiling window cut into slices of S seconds (AIPerf's time slices).
// A request belongs to the slice in which it ended (as AIPerf assigns it); its TTFT, ITL and latency
// go into that slice's HDR histograms. Effective concurrency is time-weighted inside each slice
// (each request's overlap with the slice, over the slice's length), so a request spanning several
// slices counts in each. Server gauges (time-weighted), counter rates and GPU power are read over
// the same slice window by the callers' functions.
import { MetricHistogram } from '../metrics/core/histogram.js';
import type { MetricValue, ProcessedRecord } from '../model/processed-record.js';
import type { Phase } from '../model/phase.js';
import type { RecordStatus } from '../model/raw-record.js';

export interface SliceWindow {
  index: number;
  start_ns: bigint;
  end_ns: bigint;
}

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
}

export interface TimeSlice extends SliceWindow {
  duration_s: number;
  request_count: number;
  error_count: number;
  /** Succeeded requests per second. */
  request_throughput: number;
  output_token_throughput: number;
  /** Milliseconds; null when no request of the slice had the metric. */
  time_to_first_token_ms: Percentiles | null;
  inter_token_latency_ms: Percentiles | null;
  request_latency_ms: Percentiles | null;
  effective_concurrency: number;
  /** Server concepts read over the slice: gauges' time-weighted averages, counters' rates per second. */
  server?: Record<string, number>;
  /** Total GPU power over the slice (W, average of the samples inside it, summed over GPUs). */
  gpu_power_w?: number | null;
}

/** Slices of `sliceNs` from the window's start; the last one ends at the window's end (it may be shorter). */
export function sliceWindows(start_ns: bigint, end_ns: bigint, sliceNs: bigint): SliceWindow[] {
  const out: SliceWindow[] = [];
  if (sliceNs <= 0n || end_ns <= start_ns) return out;
  for (let t = start_ns, i = 0; t < end_ns; t += sliceNs, i++)
    out.push({ index: i, start_ns: t, end_ns: t + sliceNs < end_ns ? t + sliceNs : end_ns });
  return out;
}

/** What a slice reads of a record: a run with --slice-duration keeps this much of each (sliceRecord). */
export interface SliceRecord {
  raw: { credit: { phase: Phase }; start_ns: bigint; end_ns: bigint };
  status: RecordStatus;
  metrics: ReadonlyMap<string, MetricValue>;
}

const SLICE_TAGS = ['output_token_count', 'time_to_first_token', 'inter_token_latency', 'request_latency'];

/** A finished record cut down to what its slice reads (about 200 bytes, not the record's kilobytes). */
export function sliceRecord(r: ProcessedRecord): SliceRecord {
  const metrics = new Map<string, MetricValue>();
  for (const tag of SLICE_TAGS) {
    const v = r.metrics.get(tag);
    if (typeof v === 'number') metrics.set(tag, v);
  }
  return { raw: { credit: { phase: r.raw.credit.phase }, start_ns: r.raw.start_ns, end_ns: r.raw.end_ns }, status: r.status, metrics };
}

function metric(r: SliceRecord, tag: string): number | null {
  const v = r.metrics.get(tag);
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function pct(h: MetricHistogram, count: number): Percentiles | null {
  if (count === 0) return null;
  const [p50, p90, p99] = h.percentiles([50, 90, 99]).map((v) => v / 1e6);
  return { p50, p90, p99 };
}

/** The client's side of every slice, from the profiling records. */
export function clientSlices(records: readonly SliceRecord[], windows: readonly SliceWindow[], significantDigits?: number): TimeSlice[] {
  if (windows.length === 0) return [];
  const start = windows[0].start_ns;
  const end = windows[windows.length - 1].end_ns;
  const sliceNs = windows[0].end_ns - windows[0].start_ns;
  const n = windows.length;
  const hist = () => new MetricHistogram('ns', { significantDigits });
  const acc = windows.map(() => ({
    req: 0,
    err: 0,
    ok: 0,
    tokens: 0,
    ttft: hist(),
    itl: hist(),
    lat: hist(),
    nt: 0,
    ni: 0,
    nl: 0,
    busy: 0,
  }));
  const sliceOf = (t: bigint) => {
    if (t < start || t > end) return -1;
    const i = Number((t - start) / sliceNs);
    return i >= n ? n - 1 : i;
  };
  for (const r of records) {
    if (r.raw.credit.phase !== 'profiling') continue;
    // Effective concurrency: the request's overlap with each slice it spans.
    const s0 = r.raw.start_ns > start ? r.raw.start_ns : start;
    const e0 = r.raw.end_ns < end ? r.raw.end_ns : end;
    if (e0 > s0) {
      for (let i = sliceOf(s0); i >= 0 && i < n && windows[i].start_ns < e0; i++) {
        const a = s0 > windows[i].start_ns ? s0 : windows[i].start_ns;
        const b = e0 < windows[i].end_ns ? e0 : windows[i].end_ns;
        if (b > a) acc[i].busy += Number(b - a);
      }
    }
    const i = sliceOf(r.raw.end_ns);
    if (i < 0) continue;
    const a = acc[i];
    a.req++;
    if (r.status === 'error') a.err++;
    if (r.status !== 'ok') continue;
    a.ok++;
    a.tokens += metric(r, 'output_token_count') ?? 0;
    const ttft = metric(r, 'time_to_first_token');
    const itl = metric(r, 'inter_token_latency');
    const lat = metric(r, 'request_latency');
    if (ttft !== null) {
      a.ttft.add(ttft);
      a.nt++;
    }
    if (itl !== null) {
      a.itl.add(itl);
      a.ni++;
    }
    if (lat !== null) {
      a.lat.add(lat);
      a.nl++;
    }
  }
  return windows.map((w, i) => {
    const a = acc[i];
    const d = Number(w.end_ns - w.start_ns);
    return {
      ...w,
      duration_s: d / 1e9,
      request_count: a.req,
      error_count: a.err,
      request_throughput: a.ok / (d / 1e9),
      output_token_throughput: a.tokens / (d / 1e9),
      time_to_first_token_ms: pct(a.ttft, a.nt),
      inter_token_latency_ms: pct(a.itl, a.ni),
      request_latency_ms: pct(a.lat, a.nl),
      effective_concurrency: a.busy / d,
    };
  });
}

/** timeslices.csv: one row per slice, the nested figures flattened (server_<concept>, ttft_p50_ms, …). */
export function slicesCsv(slices: readonly TimeSlice[]): string {
  const serverKeys = [...new Set(slices.flatMap((s) => Object.keys(s.server ?? {})))];
  const pk = (name: string) => ['p50', 'p90', 'p99'].map((p) => `${name}_${p}_ms`);
  const header = [
    'index',
    'start_ns',
    'end_ns',
    'duration_s',
    'request_count',
    'error_count',
    'request_throughput',
    'output_token_throughput',
    ...pk('ttft'),
    ...pk('itl'),
    ...pk('latency'),
    'effective_concurrency',
    ...serverKeys.map((k) => `server_${k}`),
    'gpu_power_w',
  ];
  const cell = (v: number | bigint | null | undefined) => (v === null || v === undefined ? '' : String(v));
  const ps = (p: Percentiles | null) => (p ? [p.p50, p.p90, p.p99] : [null, null, null]);
  const rows = slices.map((s) =>
    [
      s.index,
      s.start_ns,
      s.end_ns,
      s.duration_s,
      s.request_count,
      s.error_count,
      s.request_throughput,
      s.output_token_throughput,
      ...ps(s.time_to_first_token_ms),
      ...ps(s.inter_token_latency_ms),
      ...ps(s.request_latency_ms),
      s.effective_concurrency,
      ...serverKeys.map((k) => s.server?.[k]),
      s.gpu_power_w,
    ]
      .map(cell)
      .join(','),
  );
  return [header.join(','), ...rows].join('\n') + '\n';
}

// GuideLLM's measurement window (../shared/reference/guidellm-metrics.txt, "Measurement Window,
// Warmup, and Cooldown"), as the guidellm convention's declarations. With a warmup or a cooldown
// (MetricOptions.measurement_window), event-level metrics count by when their events happen:
// - TTFT (and TTFOT) counts when the span from request start to the first (output) token overlaps
//   the window, even partially;
// - ITL counts when the span from the first token to the request's completion overlaps it;
// - per-token rates (output and total tokens per second) count only the token events inside it,
//   over the window's length.
// Request-level metrics keep every profiling request: servebench drains the warmup before the window
// opens and starts cooldown requests after it closes (load/benchmark.ts), so the requests whose
// lifetime overlaps the window are exactly the profiling ones. Bounds are inclusive.
import type { ProcessedRecord } from '../../records/types.js';
import type { MeasurementWindow } from '../core/options.js';
import { perSecond } from '../core/helpers.js';
import type { RecordMetricDef, RunMetricDef, RunMetricInput, RunValue } from '../core/types.js';
import { timeToFirstOutputToken, timeToFirstToken } from './streaming.js';
import { outputTokenThroughput, totalTokenThroughput } from './tokens.js';

/** Whether [from, to] overlaps the window (an open bound always does). */
export function overlapsWindow(from: bigint, to: bigint, w: MeasurementWindow): boolean {
  return (w.start_ns === null || to >= w.start_ns) && (w.end_ns === null || from <= w.end_ns);
}

function inside(t: bigint, w: MeasurementWindow): boolean {
  return overlapsWindow(t, t, w);
}

/** start + a record metric's value (ns from the start), or null without one. */
function stampOf(r: ProcessedRecord, tag: string): bigint | null {
  const v = r.metrics.get(tag);
  return typeof v === 'number' && Number.isFinite(v) ? r.raw.start_ns + BigInt(Math.round(v)) : null;
}

/** A span from the request start to the event a metric times (TTFT, TTFOT): included when it overlaps. */
function startTo(tag: string) {
  return (r: ProcessedRecord, w: MeasurementWindow): boolean => {
    const at = stampOf(r, tag);
    return at !== null && overlapsWindow(r.raw.start_ns, at, w);
  };
}

/** ITL's span: first token to the request's completion (request_end: its last byte). */
export function decodeSpanInWindow(r: ProcessedRecord, w: MeasurementWindow): boolean {
  const first = stampOf(r, 'time_to_first_token');
  return first !== null && overlapsWindow(first, r.raw.end_ns, w);
}

export const guidellmTimeToFirstToken: RecordMetricDef = { ...timeToFirstToken, inWindow: startTo('time_to_first_token') };
export const guidellmTimeToFirstOutputToken: RecordMetricDef = {
  ...timeToFirstOutputToken,
  inWindow: startTo('time_to_first_output_token'),
};

/**
 * A successful record's output tokens whose events fall inside the window. The stream carries no
 * per-token stamps beyond its chunks, so token k of OSL is placed as ITL places it: the first at the
 * first token, the rest evenly up to the last content response (first + k · (last − first) / (OSL − 1)).
 * A non-streaming response delivers them all with its body.
 */
export function outputTokensInWindow(r: ProcessedRecord, w: MeasurementWindow): number {
  const osl = r.metrics.get('output_sequence_length');
  const last = r.metric_input.last_content_ns;
  if (typeof osl !== 'number' || osl <= 0 || last === null) return 0;
  const first = r.raw.streaming ? stampOf(r, 'time_to_first_token') : last;
  if (first === null) return 0;
  if (osl === 1 || last <= first) return inside(first, w) ? osl : 0;
  const step = Number(last - first) / (osl - 1);
  // k such that start ≤ first + k · step ≤ end.
  const lo = w.start_ns === null ? 0 : Math.max(0, Math.ceil(Number(w.start_ns - first) / step));
  const hi = w.end_ns === null ? osl - 1 : Math.min(osl - 1, Math.floor(Number(w.end_ns - first) / step));
  return Math.max(0, hi - lo + 1);
}

/** A successful record's prompt tokens when its prefill ends inside the window (the first token; the body when not streaming). */
export function inputTokensInWindow(r: ProcessedRecord, w: MeasurementWindow): number {
  const isl = r.metrics.get('input_sequence_length');
  if (typeof isl !== 'number') return 0;
  const at = r.raw.streaming ? stampOf(r, 'time_to_first_token') : r.metric_input.last_content_ns;
  return at !== null && inside(at, w) ? isl : 0;
}

/** The window's length, ns: an open bound is the run's own (first request sent, last response). */
function windowSpanNs(w: MeasurementWindow, v: ReadonlyMap<string, RunValue>): number {
  const start = w.start_ns ?? v.get('min_request_timestamp');
  const end = w.end_ns ?? v.get('max_response_timestamp');
  return typeof start === 'bigint' && typeof end === 'bigint' ? Number(end - start) : 0;
}

function windowOf(run: RunMetricInput): MeasurementWindow | null {
  const w = run.options?.measurement_window;
  return w && (w.start_ns !== null || w.end_ns !== null) ? w : null;
}

function tokensInWindow(run: RunMetricInput, w: MeasurementWindow, count: (r: ProcessedRecord, w: MeasurementWindow) => number): number {
  let n = 0;
  for (const r of run.records ?? []) if (r.status === 'ok') n += count(r, w);
  return n;
}

/** Output tokens per second: without a window AIPerf's formula (the same here); with one, its token events. */
export const guidellmOutputTokenThroughput: RunMetricDef = {
  ...outputTokenThroughput,
  compute: (run, v) => {
    const w = windowOf(run);
    if (w === null) return outputTokenThroughput.compute(run, v);
    return perSecond(tokensInWindow(run, w, outputTokensInWindow), windowSpanNs(w, v));
  },
};

/** Total (prompt + output) tokens per second, the same way. */
export const guidellmTotalTokenThroughput: RunMetricDef = {
  ...totalTokenThroughput,
  compute: (run, v) => {
    const w = windowOf(run);
    if (w === null) return totalTokenThroughput.compute(run, v);
    const tokens = tokensInWindow(run, w, (r, win) => inputTokensInWindow(r, win) + outputTokensInWindow(r, win));
    return perSecond(tokens, windowSpanNs(w, v));
  },
};

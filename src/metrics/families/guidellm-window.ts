// GuideLLM's measurement window (GuideLLM's metrics guide, "Measurement Window, Warmup, and
// Cooldown": https://blog.vllm.ai/guidellm/main/guides/metrics), as the guidellm convention's declarations. With a warmup or a cooldown
// (MetricOptions.measurement_window), event-level metrics count by when their events happen:
// - TTFT (and TTFOT) counts when the span from request start to the first (output) token overlaps
//   the window, even partially;
// - ITL counts when the span from the first token to the request's completion overlaps it;
// - per-token rates (output and total tokens per second) count only the token events inside it,
//   over the window's length.
// Request-level metrics keep every profiling request: servebench drains the warmup before the window
// opens and starts cooldown requests after it closes (load/benchmark.ts), so the requests whose
// lifetime overlaps the window are exactly the profiling ones. Bounds are inclusive.
import type { ProcessedRecord } from '../../model/processed-record.js';
import type { MeasurementWindow } from '../core/options.js';
import { foldOf, perSecond } from '../core/helpers.js';
import type { FoldSpec, RecordFold, RecordMetricDef, RunMetricDef, RunMetricInput, RunValue } from '../core/types.js';
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

/** A span from the request start to the event a metric times (TTFT, TTFOT): it counts when the span overlaps the window. */
function startTo(tag: string) {
  return (r: ProcessedRecord): readonly [bigint, bigint] | null => {
    const at = stampOf(r, tag);
    return at === null ? null : [r.raw.start_ns, at];
  };
}

/** ITL's span: first token to the request's completion (request_end: its last byte). */
export function decodeSpan(r: ProcessedRecord): readonly [bigint, bigint] | null {
  const first = stampOf(r, 'time_to_first_token');
  return first === null ? null : [first, r.raw.end_ns];
}

export const guidellmTimeToFirstToken: RecordMetricDef = { ...timeToFirstToken, windowSpan: startTo('time_to_first_token') };
export const guidellmTimeToFirstOutputToken: RecordMetricDef = {
  ...timeToFirstOutputToken,
  windowSpan: startTo('time_to_first_output_token'),
};

/**
 * What the per-token rates need of a successful record: its token counts, when its first token
 * (and its prefill's end) arrived, and its last content response. A non-streaming response
 * delivers everything with its body, so both stamps are the body's.
 */
interface TokenEvents {
  osl: number | null;
  isl: number | null;
  first: bigint | null;
  last: bigint | null;
}

function tokenEvents(r: ProcessedRecord): TokenEvents {
  const osl = r.metrics.get('output_sequence_length');
  const isl = r.metrics.get('input_sequence_length');
  const last = r.metric_input.last_content_ns;
  return {
    osl: typeof osl === 'number' ? osl : null,
    isl: typeof isl === 'number' ? isl : null,
    first: r.raw.streaming ? stampOf(r, 'time_to_first_token') : last,
    last,
  };
}

/**
 * Output tokens whose events fall inside the window. The stream carries no per-token stamps beyond
 * its chunks, so token k of OSL is placed as ITL places it: the first at the first token, the rest
 * evenly up to the last content response (first + k · (last − first) / (OSL − 1)).
 */
function outputIn(e: TokenEvents, w: MeasurementWindow): number {
  const { osl, first, last } = e;
  if (osl === null || osl <= 0 || last === null || first === null) return 0;
  if (osl === 1 || last <= first) return inside(first, w) ? osl : 0;
  const step = Number(last - first) / (osl - 1);
  // k such that start ≤ first + k · step ≤ end.
  const lo = w.start_ns === null ? 0 : Math.max(0, Math.ceil(Number(w.start_ns - first) / step));
  const hi = w.end_ns === null ? osl - 1 : Math.min(osl - 1, Math.floor(Number(w.end_ns - first) / step));
  return Math.max(0, hi - lo + 1);
}

/** Prompt tokens when the prefill ends inside the window (the first token; the body when not streaming). */
function inputIn(e: TokenEvents, w: MeasurementWindow): number {
  return e.isl !== null && e.first !== null && inside(e.first, w) ? e.isl : 0;
}

/** A successful record's output tokens whose events fall inside the window. */
export function outputTokensInWindow(r: ProcessedRecord, w: MeasurementWindow): number {
  return outputIn(tokenEvents(r), w);
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

/** Each successful record's token events, kept (four numbers) until the window is known at the run's end. */
class TokenEventsFold implements RecordFold {
  readonly events: TokenEvents[] = [];
  add(r: ProcessedRecord): void {
    if (r.status === 'ok') this.events.push(tokenEvents(r));
  }
}
const EVENTS: FoldSpec<TokenEventsFold> = { key: 'token_events', create: () => new TokenEventsFold() };

function tokensInWindow(run: RunMetricInput, w: MeasurementWindow, count: (e: TokenEvents, w: MeasurementWindow) => number): number {
  let n = 0;
  for (const e of foldOf(run, EVENTS)?.events ?? []) n += count(e, w);
  return n;
}

/** Output tokens per second: without a window AIPerf's formula (the same here); with one, its token events. */
export const guidellmOutputTokenThroughput: RunMetricDef = {
  ...outputTokenThroughput,
  fold: EVENTS,
  compute: (run, v) => {
    const w = windowOf(run);
    if (w === null) return outputTokenThroughput.compute(run, v);
    return perSecond(tokensInWindow(run, w, outputIn), windowSpanNs(w, v));
  },
};

/** Total (prompt + output) tokens per second, the same way. */
export const guidellmTotalTokenThroughput: RunMetricDef = {
  ...totalTokenThroughput,
  fold: EVENTS,
  compute: (run, v) => {
    const w = windowOf(run);
    if (w === null) return totalTokenThroughput.compute(run, v);
    const tokens = tokensInWindow(run, w, (e, win) => inputIn(e, win) + outputIn(e, win));
    return perSecond(tokens, windowSpanNs(w, v));
  },
};

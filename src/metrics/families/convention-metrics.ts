// The metric declarations that differ between the tools, as the conventions (conventions.ts)
// substitute them for the defaults (AIPerf's). Same tags, units and console places as the metrics
// they replace; only the definitions change. Sources: GuideLLM's metrics guide
// (https://blog.vllm.ai/guidellm/main/guides/metrics) and EvalScope's perf code
// (https://github.com/modelscope/evalscope, evalscope/perf/utils/benchmark_util.py).
import type { MetricRecord, MetricValue, ProcessedRecord } from '../../model/processed-record.js';
import { requestLatency } from './general.js';
import { timePerOutputToken } from './guidellm.js';
import { decodeSpan } from './guidellm-window.js';
import { diffNs, foldOf, perSecond, runNumber, scalar, sumOf } from '../core/helpers.js';
import { MetricFlag, type FoldSpec, type RecordFold, type RecordMetricDef, type RunMetricDef, type RunMetricInput } from '../core/types.js';

const STREAMING_TOKENS = MetricFlag.STREAMING_ONLY | MetricFlag.PRODUCES_TOKENS_ONLY;
const TOKENS_BETTER = MetricFlag.PRODUCES_TOKENS_ONLY | MetricFlag.LARGER_IS_BETTER;

/** Output tokens minus `less`, as a token weight; undefined without a count. */
function tokensLess(v: ReadonlyMap<string, MetricValue>, less: number): number | undefined {
  const osl = v.get('output_sequence_length');
  return typeof osl === 'number' ? Math.max(0, osl - less) : undefined;
}

/**
 * GuideLLM's request latency (request_end − request_start, so that its Scheduled Latency is Dispatch
 * Delay plus Request Latency) and EvalScope's query_latency (completed_time − start_time, taken after
 * the stream's last event): both end when the response does, at its last byte, after any usage
 * chunk and [DONE]. AIPerf's (the default) ends at the last content response.
 */
export const responseEndRequestLatency: RecordMetricDef = {
  ...requestLatency,
  compute: (r) => diffNs(r.end_ns, r.start_ns),
};

/**
 * GuideLLM: (last token − first token) / (output tokens − 1); the span ends at the last token, not
 * the response end. Its distribution weighs each request by its OSL − 1 tokens, so the mean is the
 * total decode span over the total tokens after the first, and the count the token exposure. Under
 * a measurement window it counts when first token → completion overlaps it (guidellm-window.ts).
 */
export const guidellmInterTokenLatency: RecordMetricDef = {
  kind: 'record',
  tag: 'inter_token_latency',
  header: 'Inter Token Latency',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS | MetricFlag.TOKEN_WEIGHTED,
  group: 'default',
  requires: ['output_sequence_length'],
  compute: (r, v) => {
    const osl = scalar(v, 'output_sequence_length');
    if (osl < 2 || r.token_ns.length === 0) return undefined;
    return diffNs(r.token_ns[r.token_ns.length - 1], r.token_ns[0]) / (osl - 1);
  },
  weight: (v) => tokensLess(v, 1),
  windowSpan: decodeSpan,
};

/** GuideLLM's TPOT (the default declaration), its distribution weighed by each request's output tokens. */
export const guidellmTimePerOutputToken: RecordMetricDef = { ...timePerOutputToken, weight: (v) => tokensLess(v, 0) };

/** EvalScope: the first SSE event whose `choices` is non-empty, even a role-only one (first_chunk_latency). */
export const evalscopeTimeToFirstToken: RecordMetricDef = {
  kind: 'record',
  tag: 'time_to_first_token',
  header: 'Time to First Token',
  unit: 'ns',
  display: 'ms',
  flags: STREAMING_TOKENS,
  group: 'default',
  requires: [],
  compute: (r) => (r.first_choice_ns == null ? undefined : diffNs(r.first_choice_ns, r.start_ns)),
};

/** A server count when it is a usable one. */
function usable(n: number | null | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

/** EvalScope: usage.completion_tokens when the server returns it, else the local count of the whole output. */
export const evalscopeOutputSequenceLength: RecordMetricDef = {
  kind: 'record',
  tag: 'output_sequence_length',
  header: 'Output Sequence Length',
  unit: 'tokens',
  display: 'tokens',
  flags: TOKENS_BETTER,
  group: 'default',
  requires: [],
  compute: (r: MetricRecord) => {
    const server = r.usage?.completion_tokens;
    if (usable(server)) return server;
    return r.output_tokens === null && r.reasoning_tokens === null ? undefined : (r.output_tokens ?? 0) + (r.reasoning_tokens ?? 0);
  },
};

/** EvalScope: usage.prompt_tokens when the server returns it, else the local count. */
export const evalscopeInputSequenceLength: RecordMetricDef = {
  kind: 'record',
  tag: 'input_sequence_length',
  header: 'Input Sequence Length',
  unit: 'tokens',
  display: 'tokens',
  flags: MetricFlag.PRODUCES_TOKENS_ONLY,
  group: 'default',
  requires: [],
  compute: (r: MetricRecord) => {
    const server = r.usage?.prompt_tokens;
    return usable(server) ? server : (r.input_tokens ?? undefined);
  },
};

/** EvalScope's TPOT: (latency − TTFT) / (completion tokens − 1), its own latency, TTFT and token counts. */
function evalscopeDecodePerToken(tag: string, header: string): RecordMetricDef {
  return {
    kind: 'record',
    tag,
    header,
    unit: 'ns',
    display: 'ms',
    flags: STREAMING_TOKENS | MetricFlag.TOKEN_WEIGHTED,
    group: 'default',
    requires: ['request_latency', 'time_to_first_token', 'output_sequence_length'],
    compute: (_r, v) => {
      const osl = scalar(v, 'output_sequence_length');
      if (osl <= 1) return undefined;
      return (scalar(v, 'request_latency') - scalar(v, 'time_to_first_token')) / (osl - 1);
    },
  };
}

export const evalscopeTimePerOutputToken = evalscopeDecodePerToken('time_per_output_token', 'Time Per Output Token');
/** EvalScope reports no separate ITL; its decode time per token is the TPOT formula. */
export const evalscopeInterTokenLatency = evalscopeDecodePerToken('inter_token_latency', 'Inter Token Latency');

/** EvalScope's wall time: max(completed) − min(start) over successful requests only, ns. */
class SuccessWindowFold implements RecordFold {
  private start: bigint | null = null;
  private end: bigint | null = null;
  add(r: Pick<ProcessedRecord, 'status' | 'raw'>): void {
    if (r.status !== 'ok') return;
    if (this.start === null || r.raw.start_ns < this.start) this.start = r.raw.start_ns;
    if (this.end === null || r.raw.end_ns > this.end) this.end = r.raw.end_ns;
  }
  ns(): number | undefined {
    return this.start === null || this.end === null ? undefined : diffNs(this.end, this.start);
  }
}

// One state for the metrics that read the same window.
const SUCCESS_WINDOW: FoldSpec<SuccessWindowFold> = { key: 'success_window', create: () => new SuccessWindowFold() };
function successWindow(run: RunMetricInput): number | undefined {
  return foldOf(run, SUCCESS_WINDOW)?.ns();
}

export const evalscopeOutputTokenThroughput: RunMetricDef = {
  kind: 'derived',
  tag: 'output_token_throughput',
  header: 'Output Token Throughput',
  unit: 'tokens/s',
  display: 'tokens/s',
  flags: TOKENS_BETTER,
  group: 'default',
  requires: ['total_osl'],
  fold: SUCCESS_WINDOW,
  compute: (run, v) => perSecond(runNumber(v, 'total_osl'), successWindow(run) ?? 0),
};

export const evalscopeTotalTokenThroughput: RunMetricDef = {
  kind: 'derived',
  tag: 'total_token_throughput',
  header: 'Total Token Throughput',
  unit: 'tokens/s',
  display: 'tokens/s',
  flags: TOKENS_BETTER,
  group: 'default',
  requires: ['total_isl', 'total_osl'],
  fold: SUCCESS_WINDOW,
  compute: (run, v) => perSecond(runNumber(v, 'total_isl') + runNumber(v, 'total_osl'), successWindow(run) ?? 0),
};

/** EvalScope only: total prompt tokens over the summed first-chunk latency of the successful requests. */
export const evalscopeInputTokenThroughput: RunMetricDef = {
  kind: 'derived',
  tag: 'input_token_throughput',
  header: 'Input Token Throughput',
  unit: 'tokens/s',
  display: 'tokens/s',
  flags: TOKENS_BETTER,
  group: 'default',
  requires: ['total_isl', 'time_to_first_token'],
  compute: (run, v) => perSecond(runNumber(v, 'total_isl'), sumOf(run, 'time_to_first_token') ?? 0),
};

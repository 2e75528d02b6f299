// Token-based metrics (AIPerf reference, "Token Based Metrics"). Counts come from the record
// (local tokenizer, or server usage with --use-server-token-count); null means unknown.
import { MetricFlag, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { perSecond, runNumber, scalar, sumOf } from '../core/helpers.js';

const TOKENS = MetricFlag.PRODUCES_TOKENS_ONLY;
const TOKENS_BETTER = MetricFlag.PRODUCES_TOKENS_ONLY | MetricFlag.LARGER_IS_BETTER;

export const outputTokenCount: RecordMetricDef = {
  kind: 'record',
  tag: 'output_token_count',
  header: 'Output Token Count',
  unit: 'tokens',
  display: 'tokens',
  flags: TOKENS_BETTER,
  // Equals OSL unless the model reasons; exported, but the console shows OSL and reasoning instead.
  group: 'none',
  requires: [],
  compute: (r) => r.output_tokens ?? undefined,
};

export const outputSequenceLength: RecordMetricDef = {
  kind: 'record',
  tag: 'output_sequence_length',
  header: 'Output Sequence Length',
  unit: 'tokens',
  display: 'tokens',
  flags: TOKENS_BETTER,
  group: 'default',
  // Reads the counts directly rather than requiring their tags: one known count is enough.
  requires: [],
  compute: (r) =>
    r.output_tokens === null && r.reasoning_tokens === null ? undefined : (r.output_tokens ?? 0) + (r.reasoning_tokens ?? 0),
};

export const inputSequenceLength: RecordMetricDef = {
  kind: 'record',
  tag: 'input_sequence_length',
  header: 'Input Sequence Length',
  unit: 'tokens',
  display: 'tokens',
  flags: TOKENS,
  group: 'default',
  requires: [],
  compute: (r) => r.input_tokens ?? undefined,
};

export const e2eOutputTokenThroughput: RecordMetricDef = {
  kind: 'record',
  tag: 'e2e_output_token_throughput',
  header: 'E2E Output Token Throughput',
  unit: 'tokens/s/user',
  display: 'tokens/s/user',
  flags: TOKENS_BETTER,
  group: 'default',
  requires: ['output_sequence_length', 'request_latency'],
  compute: (_r, v) => perSecond(scalar(v, 'output_sequence_length'), scalar(v, 'request_latency')),
};

function totalOf(tag: string, recordTag: string, header: string): RunMetricDef {
  return {
    kind: 'derived',
    tag,
    header,
    unit: 'tokens',
    display: 'tokens',
    flags: TOKENS_BETTER,
    group: 'none',
    requires: [recordTag],
    compute: (run) => sumOf(run, recordTag),
  };
}

export const totalOutputTokens = totalOf('total_output_tokens', 'output_token_count', 'Total Output Tokens');
export const totalOutputSequenceLength = totalOf('total_osl', 'output_sequence_length', 'Total Output Sequence Length');
export const totalInputSequenceLength = totalOf('total_isl', 'input_sequence_length', 'Total Input Sequence Length');

export const outputTokenThroughput: RunMetricDef = {
  kind: 'derived',
  tag: 'output_token_throughput',
  header: 'Output Token Throughput',
  unit: 'tokens/s',
  display: 'tokens/s',
  flags: TOKENS_BETTER,
  group: 'default',
  requires: ['total_osl', 'benchmark_duration'],
  compute: (_run, v) => perSecond(runNumber(v, 'total_osl'), runNumber(v, 'benchmark_duration')),
};

export const totalTokenThroughput: RunMetricDef = {
  kind: 'derived',
  tag: 'total_token_throughput',
  header: 'Total Token Throughput',
  unit: 'tokens/s',
  display: 'tokens/s',
  flags: TOKENS_BETTER,
  group: 'default',
  requires: ['total_isl', 'total_osl', 'benchmark_duration'],
  compute: (_run, v) => perSecond(runNumber(v, 'total_isl') + runNumber(v, 'total_osl'), runNumber(v, 'benchmark_duration')),
};

export const tokenRecordMetrics: readonly RecordMetricDef[] = [
  outputTokenCount,
  outputSequenceLength,
  inputSequenceLength,
  e2eOutputTokenThroughput,
];

export const tokenRunMetrics: readonly RunMetricDef[] = [
  totalOutputTokens,
  totalOutputSequenceLength,
  totalInputSequenceLength,
  outputTokenThroughput,
  totalTokenThroughput,
];

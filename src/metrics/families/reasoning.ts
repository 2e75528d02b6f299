// Reasoning metrics (AIPerf reference, "Reasoning Metrics"): tokens the server returned in a
// separate reasoning field. A record with no reasoning count (null) has no value, so the
// reasoning table only appears for models that reason.
import { MetricFlag, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { sumOf } from '../core/helpers.js';

const REASONING = MetricFlag.PRODUCES_TOKENS_ONLY | MetricFlag.LARGER_IS_BETTER | MetricFlag.SUPPORTS_REASONING;

export const reasoningTokenCount: RecordMetricDef = {
  kind: 'record',
  tag: 'reasoning_token_count',
  header: 'Reasoning Token Count',
  unit: 'tokens',
  display: 'tokens',
  flags: REASONING,
  group: 'reasoning',
  requires: [],
  compute: (r) => r.reasoning_tokens ?? undefined,
};

export const totalReasoningTokens: RunMetricDef = {
  kind: 'derived',
  tag: 'total_reasoning_tokens',
  header: 'Total Reasoning Tokens',
  unit: 'tokens',
  display: 'tokens',
  flags: REASONING,
  group: 'reasoning',
  requires: ['reasoning_token_count'],
  compute: (run) => sumOf(run, 'reasoning_token_count'),
};

export const reasoningRecordMetrics: readonly RecordMetricDef[] = [reasoningTokenCount];
export const reasoningRunMetrics: readonly RunMetricDef[] = [totalReasoningTokens];

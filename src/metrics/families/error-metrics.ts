// Error metrics (AIPerf reference, "Error Metrics"): the prompt length of requests that failed, to
// see whether input size correlates with errors. Computed over error records only (cancelled
// requests are not errors); exported, not shown in the console.
import { MetricFlag, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { sumOf } from '../core/helpers.js';

const FLAGS = MetricFlag.ERROR_ONLY | MetricFlag.PRODUCES_TOKENS_ONLY;

export const errorInputSequenceLength: RecordMetricDef = {
  kind: 'record',
  tag: 'error_isl',
  header: 'Error Input Sequence Length',
  unit: 'tokens',
  display: 'tokens',
  flags: FLAGS,
  group: 'none',
  requires: [],
  compute: (r) => r.input_tokens ?? undefined,
};

export const totalErrorInputSequenceLength: RunMetricDef = {
  kind: 'derived',
  tag: 'total_error_isl',
  header: 'Total Error Input Sequence Length',
  unit: 'tokens',
  display: 'tokens',
  flags: FLAGS,
  group: 'none',
  requires: ['error_isl'],
  compute: (run) => sumOf(run, 'error_isl'),
};

export const errorRecordMetrics: readonly RecordMetricDef[] = [errorInputSequenceLength];
export const errorRunMetrics: readonly RunMetricDef[] = [totalErrorInputSequenceLength];

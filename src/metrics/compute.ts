// Evaluates the registry over a list of records: the run summary over the profiling phase, built
// by the same accumulator a run feeds as its records finish (accumulate.ts); one record's
// metrics: record-metrics.ts.
import type { ProcessedRecord } from '../model/processed-record.js';
import type { MetricsSummary } from './core/summary.js';
import { SummaryAccumulator, type SummarizeOptions } from './accumulate.js';

export { computeRecordMetrics } from './record-metrics.js';
export { SummaryAccumulator, type SummarizeOptions, type SummaryEnd } from './accumulate.js';

/** The run summary over profiling-phase records (warmup and cooldown excluded). */
export function summarize(records: readonly ProcessedRecord[], opts: SummarizeOptions = {}): MetricsSummary {
  const acc = new SummaryAccumulator(opts);
  for (const r of records) acc.add(r);
  return acc.finish();
}

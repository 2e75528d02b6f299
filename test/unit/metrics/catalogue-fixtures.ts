// Hand-built records carrying the catalogue's extra inputs (usage, requested OSL, spec decode, trace).
import { computeRecordMetrics } from '../../../src/metrics/record-metrics.js';
import type { MetricRecord, ProcessedRecord } from '../../../src/model/processed-record.js';
import type { Phase } from '../../../src/model/phase.js';
import type { RecordStatus } from '../../../src/model/raw-record.js';
import { metricRecord, processed, type RecordSpec } from './fixtures.js';

export type Extra = Pick<MetricRecord, 'usage' | 'requested_osl' | 'first_chunk_tokens' | 'spec_decode' | 'trace'>;

/** A MetricRecord from the base fixture plus the catalogue fields. */
export function catalogueRecord(spec: RecordSpec, extra: Partial<Extra> = {}): MetricRecord {
  return { ...metricRecord(spec), ...extra };
}

/** A ProcessedRecord whose metrics are computed from the extended MetricRecord. */
export function catalogueProcessed(
  spec: RecordSpec,
  extra: Partial<Extra> = {},
  opts: { status?: RecordStatus; phase?: Phase; index?: number } = {},
): ProcessedRecord {
  const p = processed(spec, opts);
  const mi = { ...p.metric_input, ...extra };
  return { ...p, metric_input: mi, metrics: computeRecordMetrics(mi) };
}

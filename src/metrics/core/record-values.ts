// Which per-record values make up a distribution, in one place: every record metric of a
// successful record, and the ERROR_ONLY metrics (error_isl) of an error record; cancelled records
// add none. Summaries read these values through histograms (accumulate.ts), a record at a time.
import type { MetricValue, ProcessedRecord } from '../../model/processed-record.js';

/** Calls fn(tag, value) for every metric value a record adds to the distributions (a list adds each element). */
export function forEachRecordValue(
  r: ProcessedRecord,
  errorOnly: ReadonlySet<string>,
  fn: (tag: string, value: MetricValue) => void,
): void {
  if (r.status === 'cancelled') return;
  const only = r.status === 'error' ? errorOnly : null;
  for (const [tag, value] of r.metrics) {
    if (only === null || only.has(tag)) fn(tag, value);
  }
}

// Where a record's request_latency ends, as an absolute stamp: the run window's end
// (max_response_timestamp) and the time-weighted curves read it. Taken from the record's own
// request_latency value, so it follows the registry's definition (a convention may end it elsewhere).
import type { ProcessedRecord } from '../../model/processed-record.js';

/** start_ns + request_latency of a successful record; null for other records and for one without a latency. */
export function latencyEndNs(r: Pick<ProcessedRecord, 'status' | 'raw' | 'metrics'>): bigint | null {
  if (r.status !== 'ok') return null;
  const v = r.metrics.get('request_latency');
  // Whole ns when computed here; read back from records.jsonl (ms, 12 digits) it is rounded to the ns.
  return typeof v === 'number' && Number.isFinite(v) ? r.raw.start_ns + BigInt(Math.round(v)) : null;
}

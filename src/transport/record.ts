// The RawRecord skeleton both transports fill: one place for the status rules.
import type { Credit } from '../model/credit.js';
import type { RawRecord, RecordError } from '../model/raw-record.js';
import { statusError } from './classify.js';
import type { RenderedRequest } from '../endpoints/request.js';

/**
 * A record with no events and no body yet. A non-2xx status with no transport error becomes the
 * error (carrying the body, read through `body` only then); any error sets `status`.
 */
export function newRecord(
  credit: Credit,
  req: RenderedRequest,
  start_ns: bigint,
  end_ns: bigint,
  http_status: number | null,
  error: RecordError | null,
  bytes_received: number,
  body: () => string,
): RawRecord {
  const record: RawRecord = {
    credit,
    start_ns,
    end_ns,
    http_status,
    status: 'ok',
    error,
    streaming: req.streaming,
    event_data: [],
    event_ns: [],
    event_type: [],
    body: null,
    bytes_sent: req.body.length,
    bytes_received,
  };
  const httpErr = error === null && http_status !== null ? statusError(http_status, body()) : null;
  if (httpErr) record.error = httpErr;
  if (record.error) record.status = record.error.type === 'cancelled' ? 'cancelled' : 'error';
  return record;
}

// Maps HTTP statuses and transport failures onto the record error types.
import type { RecordError } from '../records/types.js';

export function statusError(status: number, body: string): RecordError | null {
  if (status >= 200 && status < 300) return null;
  const snippet = body.length > 300 ? body.slice(0, 300) + '…' : body;
  return {
    // Non-2xx below 500 (including unexpected 1xx/3xx) is a client-side class error.
    type: status >= 500 ? 'http_5xx' : 'http_4xx',
    message: `HTTP ${status}${snippet ? `: ${snippet}` : ''}`,
    http_status: status,
  };
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** A thrown transport error (socket, undici, abort) as a record error. */
export function transportError(err: unknown, httpStatus: number | null): RecordError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const message = (e?.message ?? String(err)) + (code && !String(e?.message).includes(code) ? ` (${code})` : '');
  if (e?.name === 'RequestTimeoutError' || TIMEOUT_CODES.has(code)) return { type: 'timeout', message, http_status: httpStatus };
  if (e?.name === 'RequestCancelledError' || code === 'UND_ERR_ABORTED' || e?.name === 'AbortError')
    return { type: 'cancelled', message, http_status: httpStatus };
  return { type: 'connection', message, http_status: httpStatus };
}

export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  readonly code = 'SB_REQUEST_TIMEOUT';
}

export class RequestCancelledError extends Error {
  override readonly name = 'RequestCancelledError';
  readonly code = 'SB_REQUEST_CANCELLED';
}

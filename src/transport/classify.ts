// Maps HTTP statuses and transport failures onto the record error types. The types follow the
// error.type table of the AIPerf reference (timeout, http_5xx, http_4xx, parse_error, cancelled,
// anything else `_OTHER`), plus two of ours that name common causes more precisely: `connection`
// (the socket failed: refused, reset, closed, DNS, TLS) and `sse_error` (an error event in a stream).
import type { RecordError } from '../model/raw-record.js';
import { tlsReasonOfCode, withTlsSubtype } from './tls.js';

export function statusError(status: number, body: string): RecordError | null {
  if (status >= 200 && status < 300) return null;
  const snippet = body.length > 300 ? body.slice(0, 300) + '…' : body;
  return {
    // Only 4xx and 5xx are the http_* types; an unexpected 1xx/3xx (or a status beyond 599) is _OTHER.
    type: status >= 500 && status < 600 ? 'http_5xx' : status >= 400 && status < 500 ? 'http_4xx' : '_OTHER',
    message: `HTTP ${status}${snippet ? `: ${snippet}` : ''}`,
    http_status: status,
  };
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/**
 * Malformed responses, typed as the native engine types the same bytes (native/wire/http1.cc): undici's
 * llhttp errors (HTTPParserError, code HPE_*: a bad status line, header or chunk size), a header
 * block over its limit, a body over --max-response-bytes, an unasked-for protocol upgrade.
 */
const PARSE_CODES = new Set(['UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_RES_EXCEEDED_MAX_SIZE']);
const PARSE_SOCKET_MESSAGES = new Set(['bad upgrade']);

/** A thrown transport error (socket, undici, abort) as a record error. */
export function transportError(err: unknown, httpStatus: number | null): RecordError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const message = (e?.message ?? String(err)) + (code && !String(e?.message).includes(code) ? ` (${code})` : '');
  if (e?.name === 'RequestTimeoutError' || TIMEOUT_CODES.has(code)) return { type: 'timeout', message, http_status: httpStatus };
  if (e?.name === 'RequestCancelledError' || code === 'UND_ERR_ABORTED' || e?.name === 'AbortError')
    return { type: 'cancelled', message, http_status: httpStatus };
  if (e?.name === 'HTTPParserError' || code.startsWith('HPE_') || PARSE_CODES.has(code))
    return { type: 'parse_error', message, http_status: httpStatus };
  if (code === 'UND_ERR_SOCKET' && PARSE_SOCKET_MESSAGES.has(e?.message ?? ''))
    return { type: 'parse_error', message, http_status: httpStatus };
  // undici checks Content-Length at the end of the message: after a complete head, the body stopped
  // short and the server closed (native: "connection closed after N of M body bytes"); before one,
  // the head's Content-Length headers disagree (native: "conflicting Content-Length headers").
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
    return httpStatus !== null
      ? { type: 'connection', message: `connection closed before the body reached its Content-Length (${code})`, http_status: httpStatus }
      : { type: 'parse_error', message, http_status: httpStatus };
  if (isConnectionFailure(code)) return withTlsSubtype({ type: 'connection', message, http_status: httpStatus }, tlsReasonOfCode(code));
  return { type: '_OTHER', message, http_status: httpStatus };
}

const UNDICI_SOCKET_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

/** A socket-level failure: an errno name (ECONNREFUSED, ECONNRESET, ENOTFOUND, …), undici's socket errors, TLS. */
function isConnectionFailure(code: string): boolean {
  return (
    /^E[A-Z0-9_]+$/.test(code) ||
    UNDICI_SOCKET_CODES.has(code) ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    tlsReasonOfCode(code) !== null
  );
}

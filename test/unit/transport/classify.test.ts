import { describe, expect, it } from 'vitest';
import { RequestCancelledError, RequestTimeoutError } from '../../../src/errors.js';
import { statusError, transportError } from '../../../src/transport/classify.js';
import { StampColumn } from '../../../src/transport/stamps.js';

describe('error classification', () => {
  it.each([
    [200, null],
    [204, null],
    [400, 'http_4xx'],
    [429, 'http_4xx'],
    [500, 'http_5xx'],
    [503, 'http_5xx'],
    [302, '_OTHER'],
    [101, '_OTHER'],
  ])('status %i → %s', (status, type) => {
    const e = statusError(status, '{"error":"x"}');
    expect(e?.type ?? null).toBe(type);
    if (e) expect(e.http_status).toBe(status);
  });

  it('truncates long error bodies', () => {
    expect(statusError(500, 'x'.repeat(1000))!.message.length).toBeLessThan(400);
  });

  it.each([
    [new RequestTimeoutError('t'), 'timeout'],
    [Object.assign(new Error('h'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), 'timeout'],
    [new RequestCancelledError('c'), 'cancelled'],
    [Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), 'connection'],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'connection'],
    [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'connection'],
    [Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }), 'connection'],
    [Object.assign(new Error('socket closed'), { code: 'UND_ERR_CLOSED' }), 'connection'],
    [Object.assign(new Error('bad cert'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 'connection'],
    // Malformed HTTP: parse_error, as the native engine types the same bytes.
    [
      Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Invalid status code)'), { name: 'HTTPParserError' }),
      'parse_error',
    ],
    [Object.assign(new Error('Invalid character in chunk size'), { code: 'HPE_INVALID_CHUNK_SIZE' }), 'parse_error'],
    [Object.assign(new Error('Headers Overflow Error'), { code: 'UND_ERR_HEADERS_OVERFLOW' }), 'parse_error'],
    [Object.assign(new Error('bad upgrade'), { code: 'UND_ERR_SOCKET' }), 'parse_error'],
    [
      Object.assign(new Error('Response body length does not match content-length header'), {
        code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
      }),
      'parse_error',
    ],
    // Anything the reference's error.type table does not name is _OTHER.
    [Object.assign(new Error('invalid arg'), { code: 'UND_ERR_INVALID_ARG' }), '_OTHER'],
    [new Error('no code at all'), '_OTHER'],
    ['a thrown string', '_OTHER'],
  ])('%s → %s', (err, type) => {
    expect(transportError(err, null).type).toBe(type);
  });
});

it('a Content-Length mismatch after a complete head is a body cut short: connection, as on native', () => {
  const err = Object.assign(new Error('Response body length does not match content-length header'), {
    code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  });
  expect(transportError(err, 200)).toMatchObject({ type: 'connection', http_status: 200 });
  expect(transportError(err, null)).toMatchObject({ type: 'parse_error', http_status: null });
});

describe('StampColumn', () => {
  it('grows past its capacity and keeps order', () => {
    const c = new StampColumn(2);
    for (let i = 0n; i < 10n; i++) c.push(i * 3n);
    expect(c.length).toBe(10);
    expect(Array.from(c.view())).toEqual([0n, 3n, 6n, 9n, 12n, 15n, 18n, 21n, 24n, 27n]);
  });
});

// The native HTTP/1.1 response parser (the engine's), through its test binding: whole, byte by
// byte, in seeded random splits, and malformed. Every malformed case must end in a clear error.
import { describe, expect, it } from 'vitest';
import { native, type Http1ParseResult } from '../../../src/native.js';
import { createRng } from '../../../src/mock/text.js';

const b = (s: string | Uint8Array): Buffer => Buffer.from(s as string, 'latin1');

function parse(parts: (string | Uint8Array)[], eof = false): Http1ParseResult {
  return native.http1Parse(parts.map(b), eof);
}

function bytewise(s: string): Buffer[] {
  return [...b(s)].map((x) => Buffer.from([x]));
}

/** `s` cut at `k` seeded random points. */
function randomSplit(s: string | Buffer, k: number, seed: number): Buffer[] {
  const bytes = typeof s === 'string' ? b(s) : s;
  const rng = createRng(seed);
  const cuts = new Set<number>();
  for (let i = 0; i < k && bytes.length > 1; i++) cuts.add(1 + (rng() % (bytes.length - 1)));
  const sorted = [...cuts].sort((x, y) => x - y);
  const out: Buffer[] = [];
  let prev = 0;
  for (const c of [...sorted, bytes.length]) {
    out.push(bytes.subarray(prev, c));
    prev = c;
  }
  return out;
}

/** Every way to feed `s`: whole, byte by byte, and 30 seeded random splits. */
function feeds(s: string): Buffer[][] {
  const out = [[b(s)], bytewise(s)];
  for (let seed = 1; seed <= 30; seed++) out.push(randomSplit(s, 1 + (seed % 9), seed));
  return out;
}

const CHUNKED_HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n';
function chunked(...pieces: string[]): string {
  return CHUNKED_HEAD + pieces.map((p) => `${Buffer.byteLength(p, 'latin1').toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n';
}

describe('http1Parse: well-formed responses, however they are split', () => {
  const cases: [string, string, { status: number; body: string; keep_alive: boolean }][] = [
    ['Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world', { status: 200, body: 'hello world', keep_alive: true }],
    [
      'chunked SSE',
      chunked('data: {"a":1}\n\n', 'data: {"b":2}\n\n', 'data: [DONE]\n\n'),
      { status: 200, body: 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n', keep_alive: true },
    ],
    [
      'chunk extensions, upper-case hex, trailers',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, Chunked\r\n\r\nA;name=v\r\n0123456789\r\n1 ; x\r\n!\r\n0\r\nX-Trailer: 1\r\nY: 2\r\n\r\n',
      { status: 200, body: '0123456789!', keep_alive: true },
    ],
    ['bare LF line ends', 'HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n', { status: 200, body: 'abc', keep_alive: true }],
    [
      'interim 100 and 103 responses skipped',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
      { status: 201, body: 'ok', keep_alive: true },
    ],
    ['204 has no body', 'HTTP/1.1 204 No Content\r\nContent-Length: 99\r\n\r\n', { status: 204, body: '', keep_alive: true }],
    [
      'Connection: close',
      'HTTP/1.1 500 Internal\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbad',
      { status: 500, body: 'bad', keep_alive: false },
    ],
    ['HTTP/1.0 closes by default', 'HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx', { status: 200, body: 'x', keep_alive: false }],
    [
      'HTTP/1.0 keep-alive',
      'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nx',
      { status: 200, body: 'x', keep_alive: true },
    ],
    [
      'Transfer-Encoding wins over Content-Length, and the connection is not reused',
      'HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
      { status: 200, body: 'hi', keep_alive: false },
    ],
    ['empty Content-Length body', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', { status: 200, body: '', keep_alive: true }],
    ['no reason phrase', 'HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n', { status: 404, body: '', keep_alive: true }],
  ];
  for (const [name, text, want] of cases) {
    it(name, () => {
      for (const parts of feeds(text)) {
        const r = parse(parts);
        expect(r.error).toBeNull();
        expect(r.complete).toBe(true);
        expect(r.status).toBe(want.status);
        expect(r.keep_alive).toBe(want.keep_alive);
        expect(r.body.toString('latin1')).toBe(want.body);
        expect(r.consumed).toBe(b(text).length);
      }
    });
  }

  it('keeps binary and UTF-8 body bytes intact across splits', () => {
    const payload = Buffer.concat([Buffer.from('data: héllo ✓\n\n', 'utf8'), Buffer.from([0, 255, 13, 10, 13])]);
    const head = b(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${payload.length.toString(16)}\r\n`);
    const whole = Buffer.concat([head, payload, b('\r\n0\r\n\r\n')]);
    for (let seed = 1; seed <= 40; seed++) {
      const r = native.http1Parse(randomSplit(whole, 6, seed), false);
      expect(r.complete).toBe(true);
      expect(Buffer.compare(r.body, payload)).toBe(0);
    }
  });

  it('reads a body without framing until the connection closes', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome bytes';
    for (const parts of feeds(text)) {
      const open = parse(parts, false);
      expect(open.complete).toBe(false);
      expect(open.error).toBeNull();
      const closed = parse(parts, true);
      expect(closed.complete).toBe(true);
      expect(closed.keep_alive).toBe(false);
      expect(closed.body.toString()).toBe('some bytes');
    }
  });

  it('stops at the end of the response and leaves later bytes unconsumed', () => {
    const first = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
    const r = parse([first + 'HTTP/1.1 200 OK\r\n']);
    expect(r.complete).toBe(true);
    expect(r.consumed).toBe(first.length);
    expect(r.body.toString()).toBe('ok');
  });

  it('stamps each body piece with the read that held it', () => {
    const r = parse([CHUNKED_HEAD + '3\r\nabc', '\r\n2\r\nde', '\r\n0\r\n\r\n']);
    expect(r.body.toString()).toBe('abcde');
    expect(Array.from(r.body_stamps)).toEqual([0n, 1n]);
  });

  it('reports the status of an unfinished response and no body until the head is complete', () => {
    const r = parse(['HTTP/1.1 200 OK\r\nContent-Len']);
    expect(r).toMatchObject({ status: 0, complete: false, error: null });
    const s = parse(['HTTP/1.1 503 Busy\r\nContent-Length: 5\r\n\r\nab']);
    expect(s).toMatchObject({ status: 503, complete: false, error: null });
  });
});

describe('http1Parse: malformed input ends in a clear error, however it is split', () => {
  const long = 'x'.repeat(17 * 1024);
  const manyHeaders = Array.from({ length: 300 }, (_, i) => `X-H${i}: ${i}\r\n`).join('');
  const bigHead = Array.from({ length: 200 }, (_, i) => `X-Big${i}: ${'v'.repeat(400)}\r\n`).join('');
  const cases: [string, string, boolean, 'parse_error' | 'connection', RegExp][] = [
    ['a bad chunk size', CHUNKED_HEAD + 'zz\r\nabc\r\n0\r\n\r\n', false, 'parse_error', /bad chunk size line/],
    ['a negative chunk size', CHUNKED_HEAD + '-5\r\nabc\r\n', false, 'parse_error', /bad chunk size line/],
    ['an empty chunk size line', CHUNKED_HEAD + '\r\nabc\r\n', false, 'parse_error', /bad chunk size line/],
    ['a chunk size over 15 hex digits', CHUNKED_HEAD + 'ffffffffffffffff\r\n', false, 'parse_error', /chunk size too large/],
    ['an oversized chunk size line', CHUNKED_HEAD + '5;' + long + '\r\n', false, 'parse_error', /chunk size line over 16384 bytes/],
    ['chunk data longer than its size', CHUNKED_HEAD + '3\r\nabcdef\r\n0\r\n\r\n', false, 'parse_error', /not followed by CRLF/],
    ['an oversized header line', 'HTTP/1.1 200 OK\r\nX-Long: ' + long + '\r\n\r\n', false, 'parse_error', /header line over 16384 bytes/],
    ['a header block over 64 KiB', 'HTTP/1.1 200 OK\r\n' + bigHead + '\r\n', false, 'parse_error', /header block over 65536 bytes/],
    ['too many headers', 'HTTP/1.1 200 OK\r\n' + manyHeaders + '\r\n', false, 'parse_error', /more than 256 response headers/],
    ['a bad status line', 'HTTP/2 200 OK\r\n\r\n', false, 'parse_error', /invalid status line/],
    ['a non-HTTP reply', 'SSH-2.0-OpenSSH_9.2\r\n', false, 'parse_error', /invalid status line/],
    ['a status code out of range', 'HTTP/1.1 999 What\r\n\r\n', false, 'parse_error', /invalid status code 999/],
    ['obsolete line folding', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\n\r\n', false, 'parse_error', /obsolete line folding/],
    ['a header without a name', 'HTTP/1.1 200 OK\r\n: v\r\n\r\n', false, 'parse_error', /no field name/],
    ['a header name with a space', 'HTTP/1.1 200 OK\r\nBad Name: v\r\n\r\n', false, 'parse_error', /invalid character/],
    ['a bad Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n', false, 'parse_error', /invalid Content-Length/],
    [
      'conflicting Content-Lengths',
      'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      false,
      'parse_error',
      /conflicting/,
    ],
    ['101 Switching Protocols', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n', false, 'parse_error', /101/],
    ['truncated headers, then close', 'HTTP/1.1 200 OK\r\nContent-Ty', true, 'connection', /truncated headers/],
    ['a truncated status line, then close', 'HTTP/1.1 2', true, 'connection', /truncated headers/],
    ['a close mid-chunk', CHUNKED_HEAD + '10\r\nonly-part', true, 'connection', /mid-chunk/],
    ['a close between chunks', CHUNKED_HEAD + '3\r\nabc\r\n', true, 'connection', /mid-chunk/],
    ['a close in the trailers', CHUNKED_HEAD + '0\r\nX-T: 1\r\n', true, 'connection', /trailers/],
    [
      'a close before Content-Length is met',
      'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc',
      true,
      'connection',
      /after 3 of 10 body bytes/,
    ],
  ];
  for (const [name, text, eof, type, message] of cases) {
    it(name, () => {
      for (const parts of feeds(text)) {
        const r = parse(parts, eof);
        expect(r.complete).toBe(false);
        expect(r.error?.type).toBe(type);
        expect(r.error?.message).toMatch(message);
        expect(r.consumed).toBeLessThanOrEqual(b(text).length);
      }
    });
  }

  it('a close before any byte is a connection error', () => {
    const r = parse([], true);
    expect(r.error).toEqual({ type: 'connection', message: 'connection closed before any response byte' });
  });

  it('stops consuming at the first malformed byte', () => {
    const r = parse([CHUNKED_HEAD + '3\r\nabcX\r\n0\r\n\r\n']);
    expect(r.error?.type).toBe('parse_error');
    expect(r.body.toString()).toBe('abc');
    expect(r.consumed).toBe(CHUNKED_HEAD.length + 'x\r\nabc'.length);
  });

  it('never crashes on seeded random bytes and mutated responses', () => {
    const rng = createRng(7);
    const base = b(chunked('data: {"a":1}\n\n', 'data: [DONE]\n\n'));
    for (let i = 0; i < 2000; i++) {
      let bytes: Buffer;
      if (i % 2 === 0) {
        bytes = Buffer.from(Array.from({ length: rng() % 200 }, () => rng() & 255));
      } else {
        bytes = Buffer.from(base);
        for (let k = 0; k < 1 + (rng() % 4); k++) bytes[rng() % bytes.length] = rng() & 255;
      }
      const r = native.http1Parse(randomSplit(bytes, rng() % 8, i), (i & 2) === 0);
      expect(r.consumed).toBeLessThanOrEqual(bytes.length);
      // Exactly one of: complete, failed, or waiting for more bytes (only without eof).
      if (r.complete) expect(r.error).toBeNull();
      if ((i & 2) === 0 && !r.complete) expect(r.error).not.toBeNull();
    }
  });
});

describe('http1Parse: argument guards', () => {
  it('throws a TypeError with a stable code on bad arguments', () => {
    const call = (...args: unknown[]) => (native.http1Parse as (...a: unknown[]) => unknown)(...args);
    for (const args of [[], ['x', false], [[b('a')]], [['str'], false], [[new Uint16Array(2)], false]]) {
      expect(() => call(...args)).toThrow(expect.objectContaining({ name: 'TypeError', code: 'SB_NATIVE_BAD_ARG' }));
    }
  });
});

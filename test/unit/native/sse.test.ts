import { describe, expect, it } from 'vitest';
import { frameSse } from '../../../src/transport/sse.js';
import { NativeArgumentError } from '../../../src/errors.js';
import { native } from '../../../src/native.js';
import { referenceFrame } from './sse-reference.js';
import { rng } from '../../helpers/rng.js';

const enc = new TextEncoder();
const buf = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Frames string chunks, stamping chunk i with 100 + i. */
function frame(...parts: (string | Uint8Array)[]) {
  const chunks = parts.map((p) => (typeof p === 'string' ? buf(p) : Buffer.from(p)));
  const f = frameSse(
    chunks,
    chunks.map((_, i) => BigInt(100 + i)),
  );
  return { data: f.data, stamps: Array.from(f.stamps), types: f.types, trailing_bytes: f.trailing_bytes };
}

/** Splits `bytes` at the given sorted offsets. */
function splitAt(bytes: Uint8Array, cuts: number[]): Buffer[] {
  const out: Buffer[] = [];
  let prev = 0;
  for (const c of [...cuts, bytes.length]) {
    out.push(Buffer.from(bytes.subarray(prev, c)));
    prev = c;
  }
  return out;
}

function stampsFor(chunks: unknown[]): bigint[] {
  return chunks.map((_, i) => BigInt(i) * 1_000n + 7n);
}

describe('frameSse: line ends', () => {
  it('accepts LF, CRLF and CR, and a mix of them', () => {
    const want = ['a', 'b\nc'];
    expect(frame('data: a\n\ndata: b\ndata: c\n\n').data).toEqual(want);
    expect(frame('data: a\r\n\r\ndata: b\r\ndata: c\r\n\r\n').data).toEqual(want);
    expect(frame('data: a\r\rdata: b\rdata: c\r\r').data).toEqual(want);
    expect(frame('data: a\r\n\rdata: b\ndata: c\r\r\n').data).toEqual(want);
  });

  it('treats a CR ending one chunk and an LF starting the next as one line end', () => {
    // Were the LF a second line end, it would be a blank line dispatching "a" alone.
    expect(frame('data: a\r', '\ndata: b\r\n\r\n').data).toEqual(['a\nb']);
    // An empty chunk between them changes nothing.
    expect(frame('data: a\r', '', '\ndata: b\n\n').data).toEqual(['a\nb']);
  });

  it('dispatches at a CR ending a chunk, and its LF in the next chunk is not trailing', () => {
    const f = frame('data: a\r\n\r', '\n');
    expect(f).toEqual({ data: ['a'], stamps: [100n], types: [''], trailing_bytes: 0 });
    const g = frame('data: a\r\n\r', '\ndata: b\n\n');
    expect(g.data).toEqual(['a', 'b']);
    expect(g.stamps).toEqual([100n, 101n]);
  });

  it('splits LF LF across chunks', () => {
    expect(frame('data: a\n', '\n')).toMatchObject({ data: ['a'], stamps: [101n], trailing_bytes: 0 });
  });
});

describe('frameSse: fields', () => {
  it('ignores comment lines, including between data lines', () => {
    expect(frame(': keep-alive\n\n:\ndata: a\n: note\ndata: b\n\n').data).toEqual(['a\nb']);
  });

  it('strips exactly one space after the colon', () => {
    expect(frame('data:a\n\ndata: a\n\ndata:  a\n\ndata:\ta\n\n').data).toEqual(['a', 'a', ' a', '\ta']);
  });

  it('joins multi-line data with LF and keeps empty data lines', () => {
    expect(frame('data: one\ndata: two\ndata:\ndata: four\n\n').data).toEqual(['one\ntwo\n\nfour']);
  });

  it('dispatches data with an empty value, and a field with no colon', () => {
    expect(frame('data:\n\ndata\n\n').data).toEqual(['', '']);
  });

  it('does not dispatch events whose data buffer is empty, and resets their type', () => {
    const f = frame('event: ping\n\nid: 7\nretry: 100\n\n: c\n\ndata: x\n\n');
    expect(f.data).toEqual(['x']);
    expect(f.types).toEqual(['']); // "ping" must not leak into the next event
  });

  it('returns event types, reset after each dispatch', () => {
    const f = frame('event: message_start\ndata: {"a":1}\n\nevent: delta\ndata: d1\n\nevent: delta\ndata: d2\n\ndata: plain\n\n');
    expect(f.data).toEqual(['{"a":1}', 'd1', 'd2', 'plain']);
    expect(f.types).toEqual(['message_start', 'delta', 'delta', '']);
  });

  it('takes the last event: line and ignores id, retry, unknown and wrongly cased fields', () => {
    const f = frame('event: a\nevent: b\nid: 1\nretry: 5\nfoo: bar\nData: no\ndata : no\ndata: yes\n\n');
    expect(f.data).toEqual(['yes']);
    expect(f.types).toEqual(['b']);
  });

  it('passes [DONE] through as data', () => {
    const f = frame('data: {"x":1}\n\ndata: [DONE]\n\n');
    expect(f.data).toEqual(['{"x":1}', '[DONE]']);
  });

  it('keeps colons after the first one in the value', () => {
    expect(frame('data: {"a":"b:c"}\n\n').data).toEqual(['{"a":"b:c"}']);
  });
});

describe('frameSse: chunking and stamps', () => {
  it('returns several events from one chunk, all with that chunk stamp', () => {
    const f = frame('data: 1\n\ndata: 2\n\ndata: 3\n\n');
    expect(f.data).toEqual(['1', '2', '3']);
    expect(f.stamps).toEqual([100n, 100n, 100n]);
  });

  it('stamps each event with the chunk that held its terminating blank line', () => {
    const f = frame('data: a', 'bc\n', 'data: d\n', '\ndata: e\n\ndata: f', '\n\n');
    expect(f.data).toEqual(['abc\nd', 'e', 'f']);
    expect(f.stamps).toEqual([103n, 103n, 104n]);
  });

  it('gives the unsplit result for every pair of split points of a sample stream', () => {
    const sample = buf(
      '\uFEFF: hi\r\nevent: t\r\ndata: {"c":"é€😀"}\r\n\r\ndata:x\rdata:  y\r\rid: 3\ndata\n\n: end\ndata: [DONE]\n\ndata: tail',
    );
    const whole = frameSse([sample], [1n]);
    expect(whole.data).toEqual(['{"c":"é€😀"}', 'x\n y', '', '[DONE]']);
    expect(whole.types).toEqual(['t', '', '', '']);
    expect(whole.trailing_bytes).toBe(10);
    for (let a = 0; a <= sample.length; a++) {
      for (let b = a; b <= sample.length; b++) {
        const chunks = splitAt(sample, [a, b]);
        const stamps = stampsFor(chunks);
        const f = frameSse(chunks, stamps);
        expect(f.data).toEqual(whole.data);
        expect(f.types).toEqual(whole.types);
        expect(f.trailing_bytes).toBe(whole.trailing_bytes);
        expect(Array.from(f.stamps)).toEqual(referenceFrame(chunks, stamps).stamps);
      }
    }
  });

  it('decodes a multi-byte character split at any byte inside it', () => {
    for (const ch of ['é', '€', '😀', '中文']) {
      const bytes = buf(`data: <${ch}>\n\n`);
      const start = 'data: <'.length;
      for (let cut = start; cut <= start + enc.encode(ch).length; cut++) {
        expect(frameSse(splitAt(bytes, [cut]), [1n, 2n]).data).toEqual([`<${ch}>`]);
      }
      // And one byte per chunk.
      const bytewise = splitAt(
        bytes,
        [...Array(bytes.length - 1).keys()].map((k) => k + 1),
      );
      expect(frameSse(bytewise, stampsFor(bytewise)).data).toEqual([`<${ch}>`]);
    }
  });

  it('carries a long line across many chunks', () => {
    const big = 'x'.repeat(1 << 20);
    const bytes = buf(`data: ${big}\ndata: é\n\n`);
    const cuts: number[] = [];
    for (let c = 1000; c < bytes.length; c += 1000) cuts.push(c);
    const chunks = splitAt(bytes, cuts);
    const f = frameSse(chunks, stampsFor(chunks));
    expect(f.data).toEqual([`${big}\né`]);
    expect(f.stamps[0]).toBe(BigInt(chunks.length - 1) * 1_000n + 7n);
  });

  it('keeps order, stamps and types over many events (past the 8,192-value blocks)', () => {
    const n = 20_001;
    const types = ['', 'a', 'a', 'b', ''];
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const t = types[i % types.length];
      parts.push(`${t ? `event: ${t}\n` : ''}data: ${i}\n\n`);
    }
    // One event per chunk, so event i carries stamp i.
    const chunks = parts.map(buf);
    const f = frameSse(
      chunks,
      chunks.map((_, i) => BigInt(i)),
    );
    expect(f.data.length).toBe(n);
    for (const i of [0, 8191, 8192, 8193, 16383, 16384, 16385, n - 1]) {
      expect(f.data[i]).toBe(String(i));
      expect(f.stamps[i]).toBe(BigInt(i));
      expect(f.types[i]).toBe(types[i % types.length]);
    }
    expect(f.data.every((d, i) => d === String(i))).toBe(true);
    expect(f.types.every((t, i) => t === types[i % types.length])).toBe(true);
  });
});

describe('frameSse: stream edges', () => {
  it('strips one leading BOM, even when it is split across chunks', () => {
    expect(frame('\uFEFFdata: a\n\n').data).toEqual(['a']);
    const bom = buf('\uFEFFdata: a\n\n');
    expect(frameSse(splitAt(bom, [1, 2]), [1n, 2n, 3n]).data).toEqual(['a']);
    expect(frameSse(splitAt(bom, [1, 1, 3]), [1n, 2n, 3n, 4n]).data).toEqual(['a']);
  });

  it('strips only the first BOM, and none inside data', () => {
    // The second BOM makes the first line's field name "\uFEFFdata", which is unknown.
    expect(frame('\uFEFF\uFEFFdata: a\n\ndata: b\n\n').data).toEqual(['b']);
    expect(frame('data: \uFEFFa\n\n').data).toEqual(['\uFEFFa']);
  });

  it('treats a partial BOM as content', () => {
    const f = frameSse([Buffer.from([0xef, 0xbb]), buf('data: a\n\n')], [1n, 2n]);
    expect(f.data).toEqual([]); // the field name is "\xEF\xBBdata"
    expect(frameSse([Buffer.from([0xef, 0xbb])], [1n]).trailing_bytes).toBe(2);
    expect(frameSse([Buffer.from([0xef])], [1n]).trailing_bytes).toBe(1);
  });

  it('does not dispatch an unterminated final event and reports its size', () => {
    expect(frame('data: a\n\ndata: b\n')).toMatchObject({ data: ['a'], trailing_bytes: 8 });
    expect(frame('data: a\n\ndata: par', 'tial')).toMatchObject({ data: ['a'], trailing_bytes: 13 });
    expect(frame('data: a\n\n').trailing_bytes).toBe(0);
    expect(frame('data: a\n\n: bye\n').trailing_bytes).toBe(6); // trailing comments count too
  });

  it('handles zero chunks and empty chunks', () => {
    expect(frame()).toEqual({ data: [], stamps: [], types: [], trailing_bytes: 0 });
    expect(frame('', '')).toEqual({ data: [], stamps: [], types: [], trailing_bytes: 0 });
    expect(frame('', 'data: a\n', '', '\n', '')).toMatchObject({ data: ['a'], stamps: [103n] });
  });

  it('survives invalid UTF-8, replacing it with U+FFFD', () => {
    const bad = Buffer.concat([buf('data: a'), Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]), buf('\n\n')]);
    expect(frameSse([bad], [1n]).data).toEqual(['a\uFFFD\uFFFD(\uFFFD']);
  });

  it('returns stamps as a BigInt64Array and accepts a subarray view of a column', () => {
    const column = new BigInt64Array([5n, 6n, 99n, 99n]);
    const f = frameSse([buf('data: a\n'), buf('\n')], column.subarray(0, 2));
    expect(f.stamps).toBeInstanceOf(BigInt64Array);
    expect(Array.from(f.stamps)).toEqual([6n]);
  });
});

describe('frameSse: argument errors', () => {
  const call = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err as TypeError & { code?: string };
    }
    throw new Error('expected a throw');
  };

  it('the TS wrapper rejects wrong types with a NativeArgumentError', () => {
    const bad: [unknown, unknown][] = [
      ['data: a\n\n', [1n]],
      [[buf('x')], [1]],
      [[buf('x')], new BigUint64Array(1)],
      [['x'], [1n]],
      [[buf('x')], [1n, 2n]],
      [[buf('x')], null],
    ];
    for (const [chunks, stamps] of bad) {
      const err = call(() => frameSse(chunks as Buffer[], stamps as bigint[]));
      expect(err).toBeInstanceOf(NativeArgumentError);
      expect(err).toBeInstanceOf(TypeError);
      expect(err.code).toBe('SB_NATIVE_BAD_ARG');
    }
  });

  it('the addon itself throws a TypeError with a code instead of crashing', () => {
    const raw = native.frameSse as (...args: unknown[]) => unknown;
    const bad: unknown[][] = [
      [],
      [[buf('x')]],
      ['data: a\n\n', new BigInt64Array(1)],
      [[buf('x')], [1n]],
      [[buf('x')], new BigUint64Array(1)],
      [[buf('x')], new Float64Array(1)],
      [[buf('x'), buf('y')], new BigInt64Array(1)],
      [['x'], new BigInt64Array(1)],
      [[42], new BigInt64Array(1)],
      [[null], new BigInt64Array(1)],
      [[{ length: 3 }], new BigInt64Array(1)],
      [[new DataView(new ArrayBuffer(4))], new BigInt64Array(1)],
      [[new Float64Array(1)], new BigInt64Array(1)],
      [[buf('x')], new BigInt64Array(1), 'extra'],
    ];
    for (const args of bad) {
      const err = call(() => raw(...args));
      expect(err).toBeInstanceOf(TypeError);
      expect(err.code).toBe('SB_NATIVE_BAD_ARG');
      expect(err.message).toMatch(/^frameSse/);
    }
  });

  it('is not fooled by an element getter that detaches stamps or an earlier chunk', () => {
    const detach = (ab: ArrayBufferLike) => structuredClone(ab, { transfer: [ab as ArrayBuffer] });
    const stamps = new BigInt64Array(1);
    const a: Buffer[] = [];
    Object.defineProperty(a, 0, { enumerable: true, get: () => (detach(stamps.buffer), buf('data: z\n\n')) });
    const err = call(() => native.frameSse(a, stamps));
    expect(err).toBeInstanceOf(TypeError);
    expect(err.code).toBe('SB_NATIVE_BAD_ARG');

    const first = new Uint8Array(buf('data: a\n\n'));
    const b: Uint8Array[] = [first];
    Object.defineProperty(b, 1, { enumerable: true, get: () => (detach(first.buffer), buf('data: z\n\n')) });
    // The detached chunk reads as empty instead of as freed memory.
    expect(native.frameSse(b, new BigInt64Array(2)).data).toEqual(['z']);
  });

  it('reads a Uint8Array that is not a Buffer', () => {
    expect(native.frameSse([enc.encode('data: a\n\n')], new BigInt64Array([1n])).data).toEqual(['a']);
  });
});

describe('frameSse: fuzz against the reference framer', () => {
  // Seeded (test/helpers/rng.ts) so a failure can be replayed.
  const pieces = [
    'data',
    'data:',
    'data: ',
    'event:',
    'event: ',
    'id: ',
    'retry:',
    ':',
    ' ',
    '  ',
    '\n',
    '\r',
    '\r\n',
    '\n\n',
    'x',
    'hello',
    '[DONE]',
    '{"a":1}',
    'é',
    '€',
    '😀',
    'da',
    'ta',
    '\uFEFF',
  ].map(buf);

  function randomStream(r: () => number): Buffer {
    const parts: Buffer[] = [];
    if (r() < 0.1) parts.push(buf('\uFEFF'));
    const n = Math.floor(r() * 60);
    for (let i = 0; i < n; i++) {
      if (r() < 0.15) {
        // Raw random bytes: invalid UTF-8, stray CR/LF, anything.
        const b = Buffer.alloc(1 + Math.floor(r() * 4));
        for (let k = 0; k < b.length; k++) b[k] = Math.floor(r() * 256);
        parts.push(b);
      } else {
        parts.push(pieces[Math.floor(r() * pieces.length)]);
      }
    }
    return Buffer.concat(parts);
  }

  it('matches the reference on 1,000 random streams with random splits', () => {
    const seed = 20240601;
    const r = rng(seed);
    for (let iter = 0; iter < 1000; iter++) {
      const stream = randomStream(r);
      const cuts: number[] = [];
      const ncuts = Math.floor(r() * 8);
      for (let k = 0; k < ncuts; k++) cuts.push(Math.floor(r() * (stream.length + 1)));
      cuts.sort((a, b) => a - b);
      const chunks = splitAt(stream, cuts);
      const stamps = stampsFor(chunks);
      const got = frameSse(chunks, stamps);
      const want = referenceFrame(chunks, stamps);
      const ctx = `seed ${seed} iteration ${iter}: ${JSON.stringify(stream.toString('latin1'))} cut at ${cuts}`;
      expect({ ...got, stamps: Array.from(got.stamps) }, ctx).toEqual(want);
    }
  });
});

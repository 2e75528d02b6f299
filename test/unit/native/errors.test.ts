// One error path across the native boundary: every SB_* code the C++ sources throw has its class
// in NATIVE_ERRORS (src/native.ts), every binding throws through native/common/errors.h, and real native
// failures reach callers of the TS wrappers as that class (code, message, instanceof).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EngineClosedError, HistogramDecodeError, MockStartError, NativeArgumentError, ServebenchError } from '../../../src/errors.js';
import { decodeCompressed } from '../../../src/metrics/core/histogram-codec.js';
import { MetricHistogram } from '../../../src/metrics/core/histogram.js';
import { timeline } from '../../../src/metrics/core/timeline.js';
import { startFastMockServer } from '../../../src/mock/fast.js';
import { resolveMockOptions } from '../../../src/mock/options.js';
import { callNative, native, NATIVE_ERRORS, nativeError } from '../../../src/native.js';
import { NativeGpuPoller } from '../../../src/telemetry/poller.js';
import { NativeTransport } from '../../../src/transport/native.js';
import { frameSse } from '../../../src/transport/sse.js';

const NATIVE_DIR = path.resolve('native');
const sources = fs
  .readdirSync(NATIVE_DIR, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.cc') || f.endsWith('.h'))
  .map((f) => ({ file: f, text: fs.readFileSync(path.join(NATIVE_DIR, f), 'utf8') }));

/** The SB_* codes that appear as string literals in native/ (macros named SB_* are not codes). */
function nativeCodes(): Set<string> {
  const codes = new Set<string>();
  for (const { text } of sources) for (const m of text.matchAll(/"(SB_[A-Z0-9_]+)"/g)) codes.add(m[1]);
  return codes;
}

/** What `call` throws (fails the test when it returns). */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

function expectClass(err: unknown, cls: new (...a: never[]) => Error, code: string, message: RegExp): void {
  expect(err).toBeInstanceOf(cls);
  expect(err).toBeInstanceOf(ServebenchError);
  expect((err as ServebenchError).code).toBe(code);
  expect((err as Error).message).toMatch(message);
}

describe('the native error table', () => {
  it('has a class for every code in native/, and no code that native/ never throws', () => {
    const codes = nativeCodes();
    // The sources really were read: the codes every binding relies on are among them.
    for (const c of ['SB_NATIVE_BAD_ARG', 'SB_HDR_DECODE', 'SB_MOCK_START', 'SB_NATIVE_ENGINE_CLOSED']) expect(codes).toContain(c);
    expect([...codes].sort()).toEqual(Object.keys(NATIVE_ERRORS).sort());
  });

  it('maps each code to a ServebenchError class whose own code is that code', () => {
    for (const [code, Cls] of Object.entries(NATIVE_ERRORS)) {
      const e = new Cls('m');
      expect(e.code, Cls.name).toBe(code);
      expect(e, Cls.name).toBeInstanceOf(ServebenchError);
      expect(e.name).toBe(Cls.name);
    }
    // Argument errors stay TypeErrors, as Node's own ERR_INVALID_ARG_TYPE are.
    expect(new NativeArgumentError('m')).toBeInstanceOf(TypeError);
    expect(new HistogramDecodeError('m')).not.toBeInstanceOf(TypeError);
    expect(new HistogramDecodeError('m')).not.toBeInstanceOf(NativeArgumentError);
    // The brand check is the base class's alone: subclasses still check their own prototype.
    expect(new NativeArgumentError('m')).not.toBeInstanceOf(MockStartError);
    expect(new MockStartError('m')).not.toBeInstanceOf(HistogramDecodeError);
    expect(new TypeError('m')).not.toBeInstanceOf(ServebenchError);
  });

  it('every binding throws through native/common/errors.h, and sits in a *_binding.cc', () => {
    const declared = new Set<string>();
    const defined = new Map<string, string>();
    for (const { file, text } of sources) {
      for (const m of text.matchAll(/^void (Register\w+)\(Napi::Env[^;{]*([;{])/gm)) {
        if (m[2] === ';') declared.add(m[1]);
        else defined.set(m[1], file);
      }
      if (file === path.join('common', 'errors.cc') || file === path.join('common', 'errors.h')) continue;
      expect(text, file).not.toMatch(/(Type|Range)?Error::New\(/);
      expect(text, file).not.toMatch(/\.Set\("code"/);
    }
    expect(declared.size).toBeGreaterThanOrEqual(7);
    expect([...defined.keys()].sort()).toEqual([...declared].sort());
    for (const [fn, file] of defined) expect(file, fn).toMatch(/_binding\.cc$/);
    const core = [path.join('wire', 'sse.cc'), path.join('gpu', 'power.cc')].map((f) => fs.readFileSync(path.join(NATIVE_DIR, f), 'utf8'));
    for (const text of core) expect(text).not.toMatch(/napi/i);
  });
});

describe('nativeError', () => {
  it('turns a coded native error into its class, keeping the message and the original as cause', () => {
    const raw = thrown(() => native.http1Parse('x' as never, false));
    expect(raw).toBeInstanceOf(TypeError);
    expect(raw).not.toBeInstanceOf(ServebenchError);
    const e = nativeError(raw);
    expectClass(e, NativeArgumentError, 'SB_NATIVE_BAD_ARG', /^http1Parse\(chunks: Uint8Array\[\], eof: boolean\): bad arguments$/);
    expect((e as Error).cause).toBe(raw);
  });

  it('leaves everything else as it is', () => {
    const ours = new MockStartError('x');
    const plain = new Error('y');
    const unknownCode = Object.assign(new Error('z'), { code: 'SB_NOT_A_NATIVE_CODE' });
    for (const v of [ours, plain, unknownCode, 'text', null, 7]) expect(nativeError(v)).toBe(v);
    expect(callNative(() => 5)).toBe(5);
  });
});

describe('real native failures, through the wrappers', () => {
  it('Histogram: a value it refuses (NaN) is a NativeArgumentError; MetricHistogram then records the rest', () => {
    const raw = callNative(() => new native.Histogram(3));
    const e = thrown(() => callNative(() => raw.recordValues(Float64Array.of(1, Number.NaN), 1)));
    expectClass(e, NativeArgumentError, 'SB_NATIVE_BAD_ARG', /^Histogram\.recordValues: values\[1\]/);
    expect(e).toBeInstanceOf(TypeError);
    expect(raw.count).toBe(0); // all or nothing
    // The wrapper never lets one such value cost a summary: it leaves it out and counts it.
    const h = new MetricHistogram('ns');
    h.addAll(Float64Array.of(1, Number.NaN));
    expect([h.count, h.skipped]).toEqual([1, 1]);
  });

  it('HDR decode: a well-formed envelope around a payload the C++ decoder refuses is a HistogramDecodeError', () => {
    const payload = zlib.deflateSync(Buffer.from('not an HdrHistogram V2 payload'));
    const head = Buffer.alloc(8);
    head.writeUInt32BE(0x1c849314, 0);
    head.writeUInt32BE(payload.length, 4);
    const e = thrown(() => decodeCompressed(Buffer.concat([head, payload]).toString('base64')));
    expectClass(e, HistogramDecodeError, 'SB_HDR_DECODE', /^Histogram\.decode: /);
    expect(((e as Error).cause as { code?: string }).code).toBe('SB_HDR_DECODE');
    expect((e as HistogramDecodeError).exitCode).toBe(2);
  });

  it('engine: a bad option is a NativeArgumentError; submit after close an EngineClosedError', () => {
    const opts = { baseUrl: 'http://127.0.0.1:9', connections: null, requestTimeoutMs: 0, threads: 1 };
    expectClass(
      thrown(() => new NativeTransport({ ...opts, address: 'not-an-address' })),
      NativeArgumentError,
      'SB_NATIVE_BAD_ARG',
      /numeric IPv4 or IPv6/,
    );
    const e = new native.Engine!({ address: '127.0.0.1', port: 9 }, () => {});
    e.close();
    const cols = [
      new Uint32Array(1),
      Buffer.from('x'),
      new Uint32Array([1]),
      new Uint8Array(1),
      new Float64Array(1),
      new BigInt64Array(1),
    ] as const;
    expectClass(
      thrown(() => callNative(() => e.submit(...cols))),
      EngineClosedError,
      'SB_NATIVE_ENGINE_CLOSED',
      /^the engine is closed$/,
    );
  });

  it('frameSse: bad arguments are NativeArgumentErrors, from the wrapper and from the addon alike', () => {
    expectClass(
      thrown(() => frameSse([Buffer.from('a')], [1n, 2n])),
      NativeArgumentError,
      'SB_NATIVE_BAD_ARG',
      /1 stamp|2 stamps/,
    );
    expectClass(
      thrown(() => callNative(() => native.frameSse([Buffer.from('a')], new BigInt64Array(2)))),
      NativeArgumentError,
      'SB_NATIVE_BAD_ARG',
      /^frameSse: stamps\.length must equal chunks\.length$/,
    );
  });

  it('timeline: a request the native pass refuses (start after end) is a NativeArgumentError', () => {
    const col = (v: number) => Float64Array.of(v);
    const columns = { start: col(5), generationStart: col(Number.NaN), end: col(1), isl: col(1), osl: col(1) };
    expectClass(
      thrown(() => timeline(columns, 0, 10)),
      NativeArgumentError,
      'SB_NATIVE_BAD_ARG',
      /^timeline: /,
    );
  });

  it('power poller: an interval the binding refuses is a NativeArgumentError', () => {
    const e = thrown(() => new NativeGpuPoller({ nvml: [], amdsmi: [], intervalMs: 1e7 }));
    expectClass(e, NativeArgumentError, 'SB_NATIVE_BAD_ARG', /^PowerPoller: interval_ns is out of range$/);
  });

  it('fast mock: a taken port is a MockStartError', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const settings = { workers: 1, stampEvents: false, ttftGiven: false, itlGiven: false };
      const err = await startFastMockServer(resolveMockOptions({ host: '127.0.0.1', port }), settings).then(
        (m) => m.close().then(() => null),
        (e: unknown) => e,
      );
      expectClass(err, MockStartError, 'SB_MOCK_START', new RegExp(`^fast mock cannot listen on 127.0.0.1:${port}: `));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

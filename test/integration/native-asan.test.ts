// The native engine, the fast mock and the parser bindings under AddressSanitizer and
// LeakSanitizer, in one CI-sized run: an ASan build of those modules (cached by source hash in the
// temp dir), loaded into node with libasan preloaded (SERVEBENCH_NATIVE_PATH points src/native.ts at
// it), driving streams, cancellations, scheduled sends, malformed and silent servers, timeouts and
// random parser input. Any invalid access aborts the run; leaks are reported at exit, and a leak
// whose allocation stack runs through these modules fails the test (node itself may leak a little at
// exit, depending on its flags; those are not ours to fix).
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeTestCerts } from '../helpers/tls-certs.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = [
  'common/errors.cc',
  'common/js_values.cc',
  'wire/sse.cc',
  'wire/sse_binding.cc',
  'wire/http1.cc',
  'wire/http1_binding.cc',
  'engine/engine.cc',
  'engine/engine_loop.cc',
  'engine/engine_loop_requests.cc',
  'engine/engine_loop_gate.cc',
  'engine/engine_loop_conn.cc',
  'engine/engine_loop_recv.cc',
  'engine/engine_tls.cc',
  'engine/engine_request_state.cc',
  'engine/engine_sched.cc',
  'engine/engine_batch_binding.cc',
  'engine/engine_binding.cc',
  'engine/engine_options_binding.cc',
  'mockserver/mockserver.cc',
  'mockserver/mockserver_stream.cc',
  'mockserver/mockserver_format.cc',
  'mockserver/mockserver_binding.cc',
  'mockserver/mockserver_tls.cc',
  'wire/json_keys.cc',
  'wire/json_scan.cc',
  'wire/utf8_decode.cc',
  'wire/sse_decode.cc',
  'wire/sse_decode_binding.cc',
].map((f) => path.join(ROOT, 'native', f));

const INIT = `#include "bindings.h"
static Napi::Object Init(Napi::Env env, Napi::Object exports) {
  servebench::RegisterSse(env, exports);
  servebench::RegisterSseDecode(env, exports);
  servebench::RegisterHttp1(env, exports);
  servebench::RegisterEngine(env, exports);
  servebench::RegisterMockServer(env, exports);
  return exports;
}
NODE_API_MODULE(servebench_asan, Init)
`;

/** Builds the ASan module (g++ -c in parallel, then one link), or reuses one built from the same sources. */
async function buildAsanModule(): Promise<string> {
  const hash = crypto.createHash('sha256');
  for (const f of SOURCES) hash.update(fs.readFileSync(f));
  const headers = fs.readdirSync(path.join(ROOT, 'native'), { recursive: true, encoding: 'utf8' });
  for (const h of headers.filter((f) => f.endsWith('.h')).sort()) hash.update(fs.readFileSync(path.join(ROOT, 'native', h)));
  hash.update(INIT);
  const dir = path.join(os.tmpdir(), `servebench-asan-${hash.digest('hex').slice(0, 16)}`);
  const out = path.join(dir, 'servebench_asan.node');
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(dir, { recursive: true });
  const init = path.join(dir, 'init.cc');
  fs.writeFileSync(init, INIT);
  const addonApi = (await run(process.execPath, ['-p', "require('node-addon-api').include_dir"], { cwd: ROOT })).stdout.trim();
  const nodeInclude = path.join(path.dirname(path.dirname(process.execPath)), 'include', 'node');
  const flags = [
    '-std=c++17',
    '-O1',
    '-g',
    '-fsanitize=address',
    '-fno-omit-frame-pointer',
    '-fPIC',
    '-DNAPI_VERSION=8',
    '-DNODE_ADDON_API_DISABLE_DEPRECATED',
    '-DNAPI_CPP_EXCEPTIONS',
    `-I${nodeInclude}`,
    '-I/usr/include/node',
    `-I${path.resolve(ROOT, addonApi)}`,
    `-I${path.join(ROOT, 'native')}`,
  ];
  const units = [init, ...SOURCES];
  const objects = units.map((u, i) => path.join(dir, `${i}.o`));
  const jobs = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  for (let i = 0; i < units.length; i += jobs) {
    await Promise.all(
      units.slice(i, i + jobs).map((u, k) => run('g++', [...flags, '-c', u, '-o', objects[i + k]], { maxBuffer: 1 << 24 })),
    );
  }
  const tmp = `${out}.${process.pid}`;
  await run('g++', ['-shared', '-fsanitize=address', ...objects, '-o', tmp]);
  fs.renameSync(tmp, out);
  return out;
}

const SCENARIO = `import fs from 'node:fs';
import net from 'node:net';
if (!fs.readFileSync('/proc/self/maps', 'utf8').includes('libasan')) { console.error('scenario: the ASan runtime is not loaded'); process.exit(1); }
const root = process.argv[2];
const { native } = await import(\`\${root}/dist/native.js\`);
const { NativeTransport } = await import(\`\${root}/dist/transport/native.js\`);
const { frameSse, SseDecoder } = await import(\`\${root}/dist/transport/sse.js\`);
const { chatAdapter } = await import(\`\${root}/dist/endpoints/chat.js\`);
const fail = (m) => { console.error('scenario: ' + m); process.exit(1); };
const body = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }], max_tokens: 24, stream: true }));
// Requests that get cancelled stream long enough (~0.4 s) to be in flight when their abort fires.
const longBody = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }], max_tokens: 400, stream: true }));
const req = (streaming = true, long = false) => ({ path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: long ? longBody : body, streaming });
let n = 0;
const credit = (t = null) => ({ index: n, phase: 'profiling', x_request_id: \`a\${n++}\`, credit_issued_ns: process.hrtime.bigint(), targeted_start_ns: t, turn: {} });

// 1. The fast mock and the engine: streams, non-streaming, cancellations, scheduled sends, the slot gate, two threads each, coalescing reads.
const mock = new native.MockServer({ port: 0, workers: 2, itlMs: 1, words: [' the', ' of'], stampEvents: true });
const url = \`http://127.0.0.1:\${mock.port()}\`;
// Payloads decoded on the I/O threads (native/wire/sse_decode.cc), reads coalesced.
const t = new NativeTransport({ baseUrl: url, address: '127.0.0.1', connections: 24, requestTimeoutMs: 20_000, threads: 2, readCoalesceUs: 50, decode: { spec: chatAdapter.decodeSpec, keepPayloads: false } });
// Half the connections opened ahead of the load (--preconnect), the rest on demand.
if ((await t.preconnect(12, 10_000)).opened !== 12) fail('preconnect opened too few');
const sends = [];
const aborts = [];
for (let i = 0; i < 300; i++) {
  const ac = new AbortController();
  if (i % 7 === 0) aborts.push([ac, 3 + (i % 11)]);
  sends.push(t.send(credit(i % 13 === 0 ? process.hrtime.bigint() + 5_000_000n : null), req(i % 5 !== 0, i % 7 === 0), ac.signal));
}
// Timed from the end of the send loop, which under ASan alone can take longer than a short stream.
for (const [ac, ms] of aborts) setTimeout(() => ac.abort(), ms);
const rs = await Promise.all(sends);
if (!rs.some((r) => r.status === 'ok' && r.decoded && r.decoded.content !== '')) fail('no record was decoded natively');
if (rs.filter((r) => r.status === 'ok').length < 200) fail(\`too few ok: \${JSON.stringify(rs.find((r) => r.status !== 'ok')?.error)}\`);
if (!rs.some((r) => r.status === 'cancelled')) fail('no cancellation happened');
// The slot gate, 6 slots over the two threads: some run, some are cancelled while waiting or
// running, and those still waiting after 30 ms end unsent.
t.setGate(6);
const gated = Array.from({ length: 40 }, (_, i) => {
  const ac = new AbortController();
  if (i % 9 === 4) setTimeout(() => ac.abort(), 5 + i);
  return t.send(credit(), req(), ac.signal);
});
setTimeout(() => t.cancelWaiting(), 30);
const gr = await Promise.all(gated);
if (!gr.some((r) => r.unsent)) fail('no request was left unsent at the gate');
if (!gr.some((r) => r.status === 'ok' && !r.unsent)) fail('no gated request ran');
t.setGate(0);
const inflight = Array.from({ length: 20 }, () => t.send(credit(), req()));
setTimeout(() => t.cancelAll('end'), 2);
await Promise.all(inflight);
await t.close();
if (t.stats().connections_live !== 0 || t.stats().requests_live !== 0) fail('engine left connections or requests behind');
mock.close();

// 2. Malformed and silent servers: parse errors, connection errors, timeouts.
const replies = [
  (s) => s.end('HTTP/1.1 200 OK\\r\\ntransfer-encoding: chunked\\r\\n\\r\\nzz\\r\\n'),
  (s) => s.end('HTTP/1.1 200 OK\\r\\ntransfer-encoding: chunked\\r\\n\\r\\n40\\r\\ndata: x'),
  (s) => s.end('HTTP/1.1 200 OK\\r\\nx: ' + 'a'.repeat(20000) + '\\r\\n\\r\\n'),
  (s) => s.resetAndDestroy(),
  () => {},
  (s) => s.write('HTTP/1.1 200 OK\\r\\ncontent-length: 5\\r\\n\\r\\nab'),
];
let k = 0;
const server = net.createServer((s) => { s.on('error', () => {}); s.once('data', () => replies[k++ % replies.length](s)); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const bad = new NativeTransport({ baseUrl: \`http://127.0.0.1:\${server.address().port}\`, address: '127.0.0.1', connections: 4, requestTimeoutMs: 300, threads: 1 });
const errs = await Promise.all(Array.from({ length: 18 }, () => bad.send(credit(), req())));
if (errs.some((r) => r.status === 'ok')) fail('a malformed reply was taken as ok');
await bad.close();
server.close();
for (const s of server.connections ?? []) s.destroy();

// 2b. The size caps: an endless line passes --max-event-bytes, many small events --max-response-bytes.
const sizeServer = net.createServer((s) => {
  s.on('error', () => {});
  s.once('data', () => {
    s.write('HTTP/1.1 200 OK\\r\\ncontent-type: text/event-stream\\r\\ntransfer-encoding: chunked\\r\\n\\r\\n');
    const piece = s.remotePort % 2 ? 'data: {"choices":[{"delta":{"content":"x"}}]}\\n\\n'.repeat(200) : 'a'.repeat(8000);
    const pump = () => { while (!s.destroyed && s.write(piece.length.toString(16) + '\\r\\n' + piece + '\\r\\n')); if (!s.destroyed) s.once('drain', pump); };
    pump();
  });
});
await new Promise((r) => sizeServer.listen(0, '127.0.0.1', r));
const capped = new NativeTransport({ baseUrl: \`http://127.0.0.1:\${sizeServer.address().port}\`, address: '127.0.0.1', connections: 4, requestTimeoutMs: 5000, threads: 1, limits: { maxResponseBytes: 1 << 16, maxEventBytes: 4096 }, decode: { spec: chatAdapter.decodeSpec, keepPayloads: false } });
const over = await Promise.all(Array.from({ length: 12 }, () => capped.send(credit(), req())));
if (!over.every((r) => r.error?.type === 'parse_error' && /^(event over 4096|response over 65536) bytes/.test(r.error.message))) fail(\`a size cap was not applied: \${JSON.stringify(over.map((r) => r.error))}\`);
await capped.close();
sizeServer.close();
for (const s of sizeServer.connections ?? []) s.destroy();

// 2c. TLS (mockserver_tls.cc serving, engine_tls.cc connecting): streams, cancellations (some
// mid-handshake), and servers that reset or answer garbage mid-handshake.
const cdir = process.argv[3];
const tmock = new native.MockServer({ port: 0, workers: 1, itlMs: 1, words: [' the'], tlsCert: \`\${cdir}/server.pem\`, tlsKey: \`\${cdir}/server.key\` });
const tlsOpts = { servername: '127.0.0.1', verify: true, caFile: \`\${cdir}/ca.pem\` };
const tt = new NativeTransport({ baseUrl: \`https://127.0.0.1:\${tmock.port()}\`, address: '127.0.0.1', connections: 0, requestTimeoutMs: 20_000, threads: 1, tls: tlsOpts });
if ((await tt.preconnect(6, 10_000)).opened !== 6) fail('TLS preconnect opened too few');
const tsends = [];
for (let i = 0; i < 60; i++) {
  const ac = new AbortController();
  if (i % 4 === 0) setTimeout(() => ac.abort(), i % 8);
  tsends.push(tt.send(credit(), req(i % 5 !== 0, i % 4 === 0), ac.signal));
}
const trs = await Promise.all(tsends);
if (trs.filter((r) => r.status === 'ok').length < 30) fail(\`too few ok over TLS: \${JSON.stringify(trs.find((r) => r.status === 'error')?.error)}\`);
await tt.close();
if (tt.stats().connections_live !== 0) fail('TLS connections left behind');
// Closed with TLS preconnects mid-handshake.
const tw = new NativeTransport({ baseUrl: \`https://127.0.0.1:\${tmock.port()}\`, address: '127.0.0.1', connections: 0, requestTimeoutMs: 5000, threads: 2, tls: tlsOpts });
const tws = tw.preconnect(16, 5000);
await tw.close();
await tws;
if (tw.stats().connections_live !== 0 || tw.stats().connections_warming !== 0) fail('TLS preconnects left behind');
tmock.close();
let kk = 0;
const rst = net.createServer((s) => { s.on('error', () => {}); s.once('data', () => (kk++ % 2 ? s.resetAndDestroy() : s.end('HTTP/1.1 400 Bad\\r\\n\\r\\n'))); });
await new Promise((r) => rst.listen(0, '127.0.0.1', r));
const tbad = new NativeTransport({ baseUrl: \`https://127.0.0.1:\${rst.address().port}\`, address: '127.0.0.1', connections: 4, requestTimeoutMs: 2000, threads: 1, tls: tlsOpts });
// Preconnects whose handshake the server breaks: not waited on, nothing left behind.
if ((await tbad.preconnect(4, 5000)).opened !== 0) fail('a broken handshake was taken as a preconnect');
const terrs = await Promise.all(Array.from({ length: 8 }, () => tbad.send(credit(), req())));
if (!terrs.every((r) => r.error?.type === 'connection')) fail(\`a broken handshake was not a connection error: \${JSON.stringify(terrs.map((r) => r.error))}\`);
await tbad.close();
rst.close();
for (const s of rst.connections ?? []) s.destroy();

// 3. The parser, framer and decoder bindings on random input.
const decoder = new SseDecoder(chatAdapter.decodeSpec);
const pieces = ['data: ', '{"choices":[{"delta":{"content":"', '"}},"finish_reason":"', ',"finish_reason":null', '\\\\u00e9', '\\\\ud800', '"}}]}', '\\n\\n', 'NaN', '{"usage":{"a":1}', '[', ']', ',', ':', '"', '\\\\', '中'];
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0);
for (let i = 0; i < 3000; i++) {
  const bytes = Buffer.from(Array.from({ length: rnd() % 300 }, () => rnd() & 255));
  const cut = bytes.length ? rnd() % bytes.length : 0;
  native.http1Parse([bytes.subarray(0, cut), bytes.subarray(cut)], (i & 1) === 0);
  frameSse([bytes.subarray(0, cut), bytes.subarray(cut)], [1n, 2n]);
  const text = Buffer.from(Array.from({ length: rnd() % 40 }, () => pieces[rnd() % pieces.length]).join(''));
  const at = text.length ? rnd() % text.length : 0;
  decoder.decode([text.subarray(0, at), text.subarray(at), bytes], BigInt64Array.of(1n, 2n, 3n), (i & 1) === 0);
}
console.log('scenario: ok');
`;

const OUR_FRAME = /servebench_asan\.node|\bnative\/\w+\.(cc|h)/;
/** Frames of node and V8 themselves (a GC our call set off allocates its pages there: not our leak). */
const NODE_FRAME = /\bv8::internal::|\(\/usr\/(local\/)?bin\/node\+/;

/** Whether the innermost frame below the allocator that is ours or node's is ours. */
function allocatedByUs(block: string): boolean {
  for (const line of block.split('\n')) {
    if (!/^\s*#\d+ /.test(line) || /^\s*#0 /.test(line)) continue;
    if (OUR_FRAME.test(line)) return true;
    if (NODE_FRAME.test(line)) return false;
  }
  return false;
}

/** The reports that concern our code: every ASan error, and each leak allocated by native/. */
function ourFindings(report: string): string[] {
  const out: string[] = [];
  for (const block of report.split(/\n(?=\S)|\n\n/)) {
    if (/ERROR: AddressSanitizer/.test(block)) out.push(block);
    else if (/^(Direct|Indirect) leak/.test(block.trim()) && allocatedByUs(block)) out.push(block);
  }
  return out;
}

describe('the native engine under AddressSanitizer', () => {
  it('runs streams, cancellations, faults and random parser input with no invalid access and no leak', async () => {
    const module = await buildAsanModule();
    const certs = makeTestCerts(fs.mkdtempSync(path.join(os.tmpdir(), 'servebench-asan-certs-')));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servebench-asan-run-'));
    const script = path.join(dir, 'scenario.mjs');
    fs.writeFileSync(script, SCENARIO);
    const libasan = (await run('g++', ['-print-file-name=libasan.so'])).stdout.trim();
    const logBase = path.join(dir, 'asan');
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [script, ROOT, certs.dir], {
        env: {
          ...process.env,
          LD_PRELOAD: libasan,
          // Full unwinding on malloc, so a leak's stack reaches the frame that allocated it.
          ASAN_OPTIONS: `detect_leaks=1:log_path=${logBase}:halt_on_error=1:fast_unwind_on_malloc=0`,
          NODE_OPTIONS: '',
          SERVEBENCH_NATIVE_PATH: module,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('exit', (code) => resolve({ code, out }));
    });
    const reports = fs.readdirSync(dir).filter((f) => f.startsWith('asan'));
    const text = reports.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    const ours = ourFindings(text);
    expect(ours, ours.join('\n\n')).toEqual([]);
    expect(result.out, result.out).toContain('scenario: ok');
    expect(result.code, result.out).toBe(0);
  }, 240_000);
});

// What the HTTP trace costs the undici transport: closed-loop requests against the mock in its
// zero-latency mode (its own process), with the trace collector on (the default: diagnostics-channel
// callbacks, a wrapping connector, socket byte counters) and off, reps interleaved so load from
// elsewhere on the machine hits both alike. Figure: client wall time per request, and the difference.
// Also the cost of the usage parser on a full OpenAI usage object (it runs on every payload that
// carries usage, i.e. every chunk with --per-chunk-usage).
import diagnosticsChannel from 'node:diagnostics_channel';
import { importDist, median, spread } from './lib.js';

export const description = 'HTTP trace overhead per request (undici, trace on vs off) and usage parsing cost per payload';

async function batch(transport, request, total, concurrency) {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const [credit, req] = request(i);
      const r = await transport.send(credit, req);
      if (r.status !== 'ok') throw new Error(`request failed: ${r.error?.message}`);
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return Number(process.hrtime.bigint() - t0) / total;
}

export async function run(ctx) {
  const spawn = await importDist('mock/spawn.js');
  const undici = await importDist('transport/undici.js');
  const usage = await importDist('endpoints/usage.js');
  if (!spawn || !undici || !usage) throw new Error('dist/ is not built: run `npx tsc -p tsconfig.build.json`');
  const perRep = ctx.quick ? 200 : 2000;
  const reps = ctx.quick ? 2 : 7;
  const concurrency = 8;
  const mock = await spawn.spawnMock(['--ttft-ms', '0', '--itl-ms', '0']);
  const body = Buffer.from(
    JSON.stringify({
      model: 'mock-model',
      stream: true,
      max_tokens: 8,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hello' }],
    }),
  );
  let id = 0;
  const request = () => {
    const x = `bench-${id++}`;
    return [
      {
        index: id,
        phase: 'profiling',
        x_request_id: x,
        credit_issued_ns: process.hrtime.bigint(),
        targeted_start_ns: null,
        turn: { prompt: 'hello', isl: 1, max_tokens: 8 },
      },
      { path: '/v1/chat/completions', headers: { 'content-type': 'application/json', 'x-request-id': x }, body, streaming: true },
    ];
  };
  const on = [];
  const off = [];
  try {
    const tOn = new undici.UndiciTransport({ baseUrl: mock.url, connections: concurrency, requestTimeoutMs: 30_000 });
    const tOff = new undici.UndiciTransport({ baseUrl: mock.url, connections: concurrency, requestTimeoutMs: 30_000, trace: false });
    await batch(tOn, request, 200, concurrency);
    await batch(tOff, request, 200, concurrency);
    for (let r = 0; r < reps; r++) {
      on.push(await batch(tOn, request, perRep, concurrency));
      off.push(await batch(tOff, request, perRep, concurrency));
    }
    await tOn.close();
    await tOff.close();
  } finally {
    await mock.stop();
  }
  const us = (ns) => (ns / 1000).toFixed(1);
  const pct = (x) => `${(100 * x).toFixed(0)} %`;
  const diff = on.map((v, i) => v - off[i]);

  // The collector's own bookkeeping per request, without a network: the five channel events a
  // request publishes, with undici-shaped messages, through begin/end.
  const trace = await importDist('transport/undici-trace.js');
  const tracer = new trace.UndiciTracer();
  const ch = (n) => diagnosticsChannel.channel(n);
  const [create, sendHeaders, bodyChunk, bodySent, headers] = [
    'undici:request:create',
    'undici:client:sendHeaders',
    'undici:request:bodyChunkSent',
    'undici:request:bodySent',
    'undici:request:headers',
  ].map(ch);
  const socket = { bytesWritten: 0, bytesRead: 0 };
  const cycles = ctx.quick ? 20_000 : 300_000;
  const one = (i) => {
    const x = `r-${i}`;
    const state = tracer.begin(x);
    const request = { headers: ['content-type', 'application/json', 'accept', 'text/event-stream', 'x-request-id', x] };
    create.publish({ request });
    sendHeaders.publish({ request, headers: '', socket });
    socket.bytesWritten += 700;
    bodyChunk.publish({ request, chunk: null });
    bodySent.publish({ request });
    headers.publish({ request, response: { statusCode: 200, headers: [], statusText: 'OK' } });
    socket.bytesRead += 2000;
    tracer.end(state, 10);
  };
  for (let i = 0; i < 20_000; i++) one(i);
  const c0 = process.hrtime.bigint();
  for (let i = 0; i < cycles; i++) one(i);
  const collectorNs = Number(process.hrtime.bigint() - c0) / cycles;
  tracer.close();

  const u = {
    prompt_tokens: 1200,
    completion_tokens: 300,
    total_tokens: 1500,
    prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 100, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
  const n = ctx.quick ? 20_000 : 500_000;
  for (let i = 0; i < 10_000; i++) usage.parseUsage(u);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) usage.parseUsage(u);
  const parseNs = Number(process.hrtime.bigint() - t0) / n;

  return {
    tables: [
      {
        title: `undici transport, ${concurrency} in flight, ${perRep} requests per rep, ${reps} reps (median ± spread)`,
        columns: ['trace', 'µs per request', 'spread'],
        rows: [
          ['on', us(median(on)), pct(spread(on))],
          ['off', us(median(off)), pct(spread(off))],
          ['on − off (per rep, median)', us(median(diff)), ''],
        ],
      },
      {
        title: 'per-request costs on the JS thread, no network',
        columns: ['what', 'ns'],
        rows: [
          ['trace collector: begin + 5 channel events + end', collectorNs.toFixed(0)],
          ['usage parser: OpenAI usage with both details objects', parseNs.toFixed(0)],
        ],
      },
    ],
    notes: [
      'µs per request is client wall time / requests with 8 in flight: a throughput figure, so the difference is the added cost per request on the JS thread.',
    ],
  };
}

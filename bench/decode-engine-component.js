// Component harness (not the real command): JS main-thread CPU per SSE event for the native engine
// transport + RecordProcessor, against the native mock (its own threads, in this process), with the payloads
// decoded on the engine's I/O thread (decode) or one string per event through the TS adapter (ts).
// Token counting is by characters, to leave the tokenizer (the same in both) out.
//   node bench/decode-engine-component.js MODE(decode|ts) [concurrency=64] [seconds=3] [osl=128]
import { readFileSync } from 'node:fs';
import { importDist } from './lib.js';

const [mode, c = '64', s = '3', o = '128'] = process.argv.slice(2);
const concurrency = Number(c);
const osl = Number(o);
const { NativeTransport } = await importDist('transport/native.js');
const { RecordProcessor } = await importDist('records/process.js');
const { chatAdapter } = await importDist('endpoints/chat.js');
const { native } = await importDist('native.js');
const mock = new native.MockServer({ host: '127.0.0.1', port: 0 });
const url = `http://127.0.0.1:${mock.port()}`;

function mainCpuS() {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(x[11]) + Number(x[12])) / 100;
}

const transport = new NativeTransport({
  baseUrl: url,
  address: '127.0.0.1',
  connections: concurrency,
  requestTimeoutMs: 60_000,
  threads: 1,
  priority: 'normal',
  ...(mode === 'decode' ? { decode: { spec: chatAdapter.decodeSpec, keepPayloads: false } } : {}),
});
const tokenizer = { name: 'chars', path: '', count: (t) => t.length, encode: () => [], decode: () => '' };
const processor = new RecordProcessor({ adapter: chatAdapter, tokenizer, useServerTokenCount: false });
const body = Buffer.from(
  JSON.stringify({ model: 'mock-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: osl, stream: true }),
);
const request = { path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body, streaming: true };
let measuring = false;
let stopping = false;
let events = 0;
let errors = 0;
let index = 0;
async function worker() {
  while (!stopping) {
    const credit = {
      index: index++,
      phase: 'profiling',
      x_request_id: String(index),
      credit_issued_ns: process.hrtime.bigint(),
      targeted_start_ns: null,
      turn: { prompt: 'hi', isl: 1, max_tokens: osl },
    };
    const raw = await transport.send(credit, request);
    const rec = processor.process(raw);
    if (!measuring) continue;
    if (rec.status !== 'ok') {
      if (errors++ === 0) console.error(JSON.stringify(rec.error));
    }
    events += raw.decoded ? raw.decoded.events : raw.event_data.length;
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const workers = Array.from({ length: concurrency }, worker);
await sleep(1000);
measuring = true;
const cpu0 = mainCpuS();
await sleep(Number(s) * 1000);
const cpu = mainCpuS() - cpu0;
measuring = false;
stopping = true;
await Promise.race([Promise.all(workers), sleep(5000)]);
await transport.close();
mock.close();
console.log(JSON.stringify({ mode, events, errors, main_cpu_s: cpu, ns_per_event: Math.round((cpu * 1e9) / events) }));

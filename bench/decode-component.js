// Component harness (not the real command): JS-thread CPU per SSE event to turn buffered response
// chunks into a ProcessedRecord, TS adapter per payload (frameSse + RecordProcessor) vs the
// native decode (SseDecoder + RecordProcessor), as the undici transport does it. The engine path
// moves the decode to its I/O thread as well, so its JS-thread saving is larger than this.
// Token counting is by characters here, to leave the tokenizer (the same in both) out.
//   node bench/decode-component.js [responses=300] [reps=7]
import { importDist, median } from './lib.js';

const { frameSse, SseDecoder } = await importDist('transport/sse.js');
const { RecordProcessor } = await importDist('records/process.js');
const { chatAdapter } = await importDist('endpoints/chat.js');

const responses = Number(process.argv[2] ?? 300);
const reps = Number(process.argv[3] ?? 7);
const TOKENS = 100;
const WORDS = ' the of and to in is that for it as with was on be by this are from or at an which 中文 😀'.split(' ');

function event(delta, finish = null) {
  return `data: {"id":"chatcmpl-9xQmZt2","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":${delta},"finish_reason":${finish ? `"${finish}"` : 'null'}}]}\n\n`;
}
const bodies = [];
for (let r = 0; r < responses; r++) {
  let s = event('{"role":"assistant","content":""}');
  for (let t = 0; t < TOKENS; t++) s += event(JSON.stringify({ content: ` ${WORDS[(r * 31 + t * 7) % WORDS.length]}` }));
  s += event('{}', 'stop');
  s += `data: {"id":"x","choices":[],"usage":{"prompt_tokens":200,"completion_tokens":${TOKENS},"total_tokens":${200 + TOKENS}}}\n\ndata: [DONE]\n\n`;
  const b = Buffer.from(s);
  // 1-4 events per read, as a streaming server's writes arrive.
  const chunks = [];
  for (let i = 0; i < b.length; i += 600) chunks.push(b.subarray(i, i + 600));
  bodies.push({ chunks, stamps: new BigInt64Array(chunks.map((_, i) => 1000n + BigInt(i))) });
}
const events = responses * (TOKENS + 4);
const tokenizer = { name: 'chars', path: '', count: (t) => t.length, encode: () => [], decode: () => '' };
const credit = {
  index: 0,
  phase: 'profiling',
  x_request_id: 'r',
  credit_issued_ns: 0n,
  targeted_start_ns: null,
  turn: { prompt: 'p', isl: 1, max_tokens: TOKENS },
};
const raw = (over) => ({
  credit,
  start_ns: 0n,
  end_ns: 1n,
  http_status: 200,
  status: 'ok',
  error: null,
  streaming: true,
  event_data: [],
  event_ns: [],
  event_type: [],
  body: null,
  bytes_sent: 1,
  bytes_received: 1,
  ...over,
});
const decoder = new SseDecoder(chatAdapter.decodeSpec);

const paths = {
  'ts adapter': () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer, useServerTokenCount: false });
    for (const b of bodies) {
      const f = frameSse(b.chunks, b.stamps);
      p.process(raw({ event_data: f.data, event_ns: Array.from(f.stamps), event_type: f.types }));
    }
  },
  'native decode': () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer, useServerTokenCount: false });
    for (const b of bodies) {
      const d = decoder.decode(b.chunks, b.stamps, false);
      p.process(raw({ event_data: d.data, event_ns: Array.from(d.stamps), event_type: d.types, decoded: d.decoded }));
    }
  },
};
const cpuNs = (fn) => {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) * 1000;
};
const samples = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
for (const fn of Object.values(paths)) fn(); // warm up
for (let r = 0; r < reps; r++) for (const [k, fn] of Object.entries(paths)) samples[k].push(cpuNs(fn) / events);
const med = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
console.log(
  `component harness: ${responses} responses × ${TOKENS + 4} events, ${reps} interleaved reps, JS-thread CPU (user+sys) per event, median`,
);
for (const [k, v] of Object.entries(med)) console.log(`  ${k.padEnd(14)} ${v.toFixed(0)} ns/event`);
console.log(`  ratio ts/native: ${(med['ts adapter'] / med['native decode']).toFixed(2)}×`);

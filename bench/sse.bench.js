// SSE framing throughput: the native framer (one call per response) against
// a string-based JS framer, on OpenAI-style chat completion streams.
import { duration, importDist, measureInterleaved, median, ratio, rng, si, spread } from './lib.js';
import { jsFrameSse } from './sse-js-framer.js';

export const description = 'SSE framing throughput, native (C++) vs a string-based JS framer';

const ASCII_WORDS = ' the of and to in is that for it as with was on be by this are from or at an which'.split(' ');
const CJK =
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长'.split(
    '',
  );

/** One chat.completion.chunk event, close to what OpenAI and vLLM send (~150 bytes). */
function chunkEvent(delta, finish) {
  const f = finish ? `"${finish}"` : 'null';
  return (
    `data: {"id":"chatcmpl-9xQmZt2","object":"chat.completion.chunk","created":1718000000,` +
    `"model":"gpt-4o-mini","choices":[{"index":0,"delta":${delta},"finish_reason":${f}}]}\n\n`
  );
}

/** The events of one streamed response of `tokens` content tokens. */
function responseEvents(r, tokens, vocab) {
  const ev = [chunkEvent('{"role":"assistant","content":""}')];
  for (let t = 0; t < tokens; t++) {
    const word = vocab[Math.floor(r() * vocab.length)];
    ev.push(chunkEvent(JSON.stringify({ content: vocab === CJK ? word : ` ${word}` })));
  }
  ev.push(chunkEvent('{}', 'stop'));
  ev.push(
    `data: {"id":"chatcmpl-9xQmZt2","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-mini",` +
      `"choices":[],"usage":{"prompt_tokens":200,"completion_tokens":${tokens},"total_tokens":${200 + tokens}}}\n\n`,
  );
  ev.push('data: [DONE]\n\n');
  return ev;
}

/** TCP-like reads holding 1–4 whole events each. */
function chunkByEvents(r, events) {
  const chunks = [];
  for (let i = 0; i < events.length;) {
    const k = 1 + Math.floor(r() * 4);
    chunks.push(Buffer.from(events.slice(i, i + k).join(''), 'utf8'));
    i += k;
  }
  return chunks;
}

/** Fixed-size reads that cut events (and UTF-8 characters) anywhere. */
function chunkBySize(events, size) {
  const body = Buffer.from(events.join(''), 'utf8');
  const chunks = [];
  for (let o = 0; o < body.length; o += size) chunks.push(body.subarray(o, o + size));
  return chunks;
}

function makeResponse(chunks) {
  const stamps = new BigInt64Array(chunks.length);
  let t = 1_000_000_000n;
  for (let i = 0; i < chunks.length; i++) stamps[i] = t += 20_000_000n;
  return { chunks, stamps, bytes: chunks.reduce((n, c) => n + c.length, 0) };
}

function workloads(quick) {
  const r = rng(42);
  const responses = quick ? 50 : 2000;
  const chat = (vocab) => Array.from({ length: responses }, () => makeResponse(chunkByEvents(r, responseEvents(r, 100, vocab))));
  const hugeTokens = quick ? 5_000 : 200_000;
  return [
    { name: `chat, ${responses}×100 tokens, 1–4 events/read`, responses: chat(ASCII_WORDS) },
    { name: `chat CJK, ${responses}×100 tokens, 1–4 events/read`, responses: chat(CJK) },
    {
      name: `one ${hugeTokens / 1000}k-token response, 16 KiB reads`,
      responses: [makeResponse(chunkBySize(responseEvents(r, hugeTokens, ASCII_WORDS), 16 * 1024))],
    },
  ];
}

function frameAll(frame, responses) {
  let events = 0;
  for (const { chunks, stamps } of responses) events += frame(chunks, stamps).data.length;
  return events;
}

/** The framers must agree before their speed means anything. */
function check(name, responses, a, b) {
  for (const { chunks, stamps } of [responses[0], responses[responses.length - 1]]) {
    const x = a(chunks, stamps);
    const y = b(chunks, stamps);
    const same =
      x.data.length === y.data.length &&
      x.data.every((d, i) => d === y.data[i] && x.types[i] === y.types[i] && x.stamps[i] === y.stamps[i]);
    if (!same) throw new Error(`sse bench: framers disagree on workload "${name}"`);
  }
}

export async function run(ctx) {
  const reps = ctx.quick ? 3 : 11;
  const native = (chunks, stamps) => ctx.native.frameSse(chunks, stamps);
  const framers = [['native (addon)', native]];
  const wrapper = await importDist('transport/sse.js');
  if (wrapper) framers.push(['native via TS wrapper', wrapper.frameSse]);
  framers.push(['JS string framer', jsFrameSse]);

  const rows = [];
  for (const w of workloads(ctx.quick)) {
    const bytes = w.responses.reduce((n, x) => n + x.bytes, 0);
    const events = frameAll(native, w.responses);
    check(w.name, w.responses, native, jsFrameSse);
    ctx.log(`  sse: ${w.name} (${si(bytes, 'B')}, ${si(events)} events)`);
    const samples = measureInterleaved(
      framers.map(
        ([, fn]) =>
          () =>
            frameAll(fn, w.responses),
      ),
      { reps, warmup: ctx.quick ? 1 : 3 },
    );
    const figures = framers.map(([label], k) => ({ label, ns: median(samples[k]), spread: spread(samples[k]) }));
    const js = figures[figures.length - 1].ns;
    for (const f of figures) {
      const s = f.ns / 1e9;
      rows.push([
        w.name,
        f.label,
        (bytes / 1e6 / s).toFixed(0),
        si(events / s, '/s'),
        (f.ns / events).toFixed(0),
        duration(f.ns / w.responses.length),
        `${(f.spread * 100).toFixed(0)}%`,
        f.ns === js ? '1×' : ratio(js, f.ns),
      ]);
    }
  }
  return {
    tables: [
      {
        title: `median of ${reps} repetitions (framers interleaved)`,
        columns: ['workload', 'framer', 'MB/s', 'events/s', 'ns/event', 'per response', 'spread', 'speed-up vs JS'],
        rows,
      },
    ],
    notes: [
      'per response: time for one frameSse call (the chat workloads make one call per 100-token response)',
      'spread: (max - min) / median over the repetitions; large values mean a noisy machine',
    ],
  };
}

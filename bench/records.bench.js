// Per-record work on the main thread, before and after the record pipeline (a component harness:
// no server, no transport). Records look like a saturation run's: streaming chat, OSL 128 (one
// token per event, the mock's words). "inline": RecordProcessor.process + recordLine on the main
// thread, as run-once did; "pipeline": RecordProcessor.prepare + RecordPipeline.submit, counts,
// metrics and lines on one worker. Main-thread CPU is read from /proc (Linux), so work the
// workers do is not counted. Also: tokens/s of the counters.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importDist, median, now, root, si } from './lib.js';

export const description =
  'main-thread cost per record of counting + metrics + records.jsonl line, inline vs record workers; token counters';

/** CPU seconds of the main thread so far (utime + stime of its /proc task entry). */
function mainCpuS() {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function run(ctx) {
  const [load, count, proc, pipe, recs, units, chat, cat, text] = await Promise.all(
    [
      'tokenizer/load.js',
      'tokenizer/count.js',
      'records/process.js',
      'run/pipeline/record-pipeline.js',
      'export/records.js',
      'metrics/catalogue.js',
      'endpoints/chat.js',
      'metrics/catalogue.js',
      'mock/text.js',
    ].map(importDist),
  );
  if (!load || !pipe) return { tables: [], notes: ['dist/ is not built: run `npm run build:ts` first'] };
  const tok = await load.loadTokenizer();
  const N = ctx.quick ? 500 : 2000;
  const reps = ctx.quick ? 1 : 5;
  const OSL = 128;

  let seed = 1;
  const word = () => text.VOCAB[(seed = (seed * 1103515245 + 12345) >>> 0) >>> 25];
  const MS = 1_000_000n;
  const raws = () =>
    Array.from({ length: N }, (_, i) => {
      const events = [JSON.stringify({ choices: [{ delta: { role: 'assistant', content: '' } }] })];
      for (let k = 0; k < OSL; k++)
        events.push(JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: word() } }] }));
      events.push('[DONE]');
      const start = 1000n * MS + BigInt(i) * MS;
      return {
        credit: {
          index: i,
          phase: 'profiling',
          x_request_id: `r-${i}`,
          credit_issued_ns: start,
          targeted_start_ns: null,
          turn: { prompt: 'p', isl: 128, max_tokens: OSL },
        },
        start_ns: start,
        end_ns: start + 300n * MS,
        http_status: 200,
        status: 'ok',
        error: null,
        streaming: true,
        event_data: events,
        event_ns: events.map((_, k) => start + BigInt(k) * MS),
        event_type: events.map(() => ''),
        body: null,
        bytes_sent: 300,
        bytes_received: 40_000,
      };
    });
  const processor = () => new proc.RecordProcessor({ adapter: chat.chatAdapter, tokenizer: tok, useServerTokenCount: false });
  const dir = path.join(os.tmpdir(), `sb-bench-records-${process.pid}`);
  (await import('node:fs')).mkdirSync(dir, { recursive: true });

  const variants = {
    prepare_only: async (rs) => {
      const p = processor();
      for (const r of rs) p.prepare(r);
    },
    inline: async (rs) => {
      const p = processor();
      const ws = (await import('node:fs')).createWriteStream(path.join(dir, 'inline.jsonl'));
      for (const r of rs) {
        const rec = p.process(r);
        ws.write(recs.recordLine(rec, 'records', units.displayUnitOf) + '\n');
      }
      await new Promise((res) => ws.end(res));
    },
    pipeline: async (rs) => {
      const p = processor();
      const pl = new pipe.RecordPipeline({
        workers: 1,
        tokenizerPath: tok.path,
        count: (t) => tok.count(t),
        convention: 'aiperf',
        registry: cat.defaultRegistry(),
        file: { path: path.join(dir, 'pipe.jsonl'), level: 'records' },
      });
      // Let the worker load its counter first: a run starts its workers long before records come.
      await new Promise((res) => setTimeout(res, ctx.quick ? 1500 : 3000));
      for (let i = 0; i < rs.length; i++) {
        pl.submit(p.prepare(rs[i]));
        if (i % 64 === 63) await new Promise((res) => setImmediate(res));
      }
      await pl.close();
    },
  };
  const cpu = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let rep = 0; rep < reps; rep++) {
    for (const [k, f] of Object.entries(variants)) {
      const rs = raws();
      const c0 = mainCpuS();
      await f(rs);
      cpu[k].push(((mainCpuS() - c0) / N) * 1e6);
    }
  }
  const us = (k) => median(cpu[k]);
  const rows = [
    ['decode (prepare, both)', us('prepare_only').toFixed(1)],
    ['inline: process + recordLine', us('inline').toFixed(1)],
    ['pipeline: prepare + submit + settle', us('pipeline').toFixed(1)],
    ['counting + metrics + line, inline', (us('inline') - us('prepare_only')).toFixed(1)],
    ['counting + metrics + line, pipeline', (us('pipeline') - us('prepare_only')).toFixed(1)],
  ];

  // Counters: tokens/s on one thread.
  const mock = Array.from({ length: ctx.quick ? 50 : 400 }, () => Array.from({ length: OSL }, word).join(''));
  const tik = await count.createTokenCounter(tok.path);
  const total = mock.reduce((n, t) => n + tok.count(t), 0);
  const rate = (fn) => {
    const xs = [];
    for (let r = 0; r < reps + 2; r++) {
      const t0 = now();
      for (const t of mock) fn(t);
      xs.push(total / (Number(now() - t0) / 1e9));
    }
    return median(xs.slice(2));
  };
  const hfRate = rate((t) => tok.count(t));
  const tkRate = rate((t) => tik.count(t));
  tik.free();

  return {
    tables: [
      {
        title: `Main-thread CPU per record (component harness; ${N} records of OSL ${OSL}, median of ${reps})`,
        columns: ['what', 'µs/record'],
        rows,
      },
      {
        title: 'Token counters, one thread (mock text)',
        columns: ['counter', 'tokens/s'],
        rows: [
          ['@huggingface/tokenizers (JS)', si(hfRate)],
          [`${tik.kind} (tiktoken WASM)`, si(tkRate)],
        ],
      },
    ],
    notes: [`root ${root}`],
  };
}

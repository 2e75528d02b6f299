// The record workers' per-record work, each piece alone (a component harness: no server, no
// transport, no worker thread): recordLine, processBatch without token counting (metrics + line),
// and what the main thread pays for a batch result crossing back (a structured clone's
// deserialization, v8.deserialize here, plus RecordPipeline's settle of the values into records).
// Records look like a saturation run's: streaming chat, OSL 128 (127 ICL values each).
// SB_BENCH_BASE=<dir holding another build's dist/> measures that build too, interleaved, with ratios.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { median, now, root } from './lib.js';

export const description = 'recordLine, processBatch (no counting) and the main-thread cost of a batch result, µs per record';

export async function load(distRoot) {
  // A base build (SB_BENCH_BASE) may predate run/'s wings, where these files sat in run/ itself.
  const at = (rel) => (existsSync(path.join(distRoot, rel)) ? rel : rel.replace('run/pipeline/', 'run/'));
  const imp = (rel) => import(pathToFileURL(path.join(distRoot, at(rel))).href);
  const [recs, batch, proc, chat, cat, text, pipe] = await Promise.all(
    [
      'export/records.js',
      'run/pipeline/record-batch.js',
      'records/process.js',
      'endpoints/chat.js',
      'metrics/catalogue.js',
      'mock/text.js',
      'run/pipeline/record-pipeline.js',
    ].map(imp),
  );
  const cols = existsSync(path.join(distRoot, at('run/pipeline/metric-columns.js'))) ? await imp('run/pipeline/metric-columns.js') : null;
  return { recs, batch, proc, chat, cat, text, pipe, cols };
}

/** WorkItems as RecordPipeline.submit builds them, from chat records of OSL `osl`. */
export function items(m, n, osl) {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const word = () => m.text.VOCAB[Math.floor(rnd() * 128)];
  const processor = new m.proc.RecordProcessor({ adapter: m.chat.chatAdapter, tokenizer: { count: () => 0 }, useServerTokenCount: false });
  const out = [];
  for (let i = 0; i < n; i++) {
    const events = [JSON.stringify({ choices: [{ delta: { role: 'assistant', content: '' } }] })];
    for (let k = 0; k < osl; k++) events.push(JSON.stringify({ choices: [{ index: 0, delta: { content: word() } }] }));
    events.push('[DONE]');
    const start = 10n ** 15n + BigInt(i) * 1_000_003n;
    let t = start;
    // Irregular gaps (ns), as real stamps are.
    const event_ns = events.map(() => (t += BigInt(900_000 + Math.floor(rnd() * 400_000))));
    const raw = {
      credit: {
        index: i,
        phase: 'profiling',
        x_request_id: `req-${i}-${Math.floor(rnd() * 1e9)}`,
        credit_issued_ns: start - 1000n,
        targeted_start_ns: null,
        turn: { prompt: 'p', isl: 16, max_tokens: osl },
      },
      start_ns: start,
      end_ns: t + 10_000n,
      http_status: 200,
      status: 'ok',
      error: null,
      streaming: true,
      event_data: events,
      event_ns,
      event_type: events.map(() => ''),
      body: null,
      bytes_sent: 300,
      bytes_received: 40_000,
    };
    const { record: rec, texts } = processor.prepare(raw);
    out.push({
      input: { ...rec.metric_input, token_ns: [] },
      tokenNs: BigInt64Array.from(rec.metric_input.token_ns),
      texts,
      line: {
        raw: {
          credit: { ...raw.credit, turn: { max_tokens: osl } },
          start_ns: raw.start_ns,
          end_ns: raw.end_ns,
          http_status: 200,
          bytes_sent: 300,
          bytes_received: 40_000,
          streaming: true,
          event_ns: [],
          event_data: [],
          body: null,
        },
        metric_input: { last_content_ns: rec.metric_input.last_content_ns },
        status: rec.status,
        error: rec.error,
        finish_reason: rec.finish_reason,
      },
    });
  }
  return out;
}

/** The records a batch result is settled into on the main thread (slimmed, as the pipeline keeps them). */
function slimRecords(its) {
  return its.map((it) => ({ status: 'ok', metric_input: { ...it.input }, metrics: new Map() }));
}

function variant(m, n) {
  const its = items(m, n, 128);
  const registry = m.cat.defaultRegistry();
  const env = { count: () => 1, registry, level: 'records' };
  const batches = [];
  for (let i = 0; i < its.length; i += 256) batches.push({ id: batches.length + 1, items: its.slice(i, i + 256) });
  const done = batches.map((b) => m.batch.processBatch(b, env));
  // The worker transfers its buffers (no copy); v8.serialize copies them, so this overstates this build's cost.
  const wire = done.map((r) => v8.serialize(r));
  const kept = batches.map((b) => slimRecords(b.items));
  // RecordPipeline's own settle (a pipeline without workers: its queue stays empty, nothing is written).
  const pl = new m.pipe.RecordPipeline({ workers: 0, tokenizerPath: '', count: () => 1, convention: 'aiperf', registry, file: null });
  const settle = (recs, res) => pl.settle({ req: { id: res.id, items: [] }, recs, result: null, text: null, worker: null }, res);
  // A record's metrics as that build reads them: its own Map (older builds), or a view of the batch's columns.
  const metricsOf = (res, j) =>
    !res.metrics
      ? res.results[j].metrics
      : m.cols.RecordMetrics
        ? new m.cols.RecordMetrics(res.metrics, j)
        : m.cols.metricsAt(res.metrics, j);
  const lines = its.map((it, i) => {
    return { ...it.line, metrics: metricsOf(done[Math.floor(i / 256)], i % 256) };
  });
  return {
    recordLine: () => {
      for (const l of lines) m.recs.recordLine(l, 'records', m.cat.displayUnitOf);
    },
    processBatch: () => {
      for (const b of batches) m.batch.processBatch(b, env);
    },
    deserialize: () => {
      for (let k = 0; k < wire.length; k++) v8.deserialize(wire[k]);
    },
    mainThread: () => {
      for (let k = 0; k < wire.length; k++) settle(kept[k], v8.deserialize(wire[k]));
    },
    // What close() adds after the run: builds that made each record's metric Map at close did it
    // here; since records read their metrics from the batch columns (RecordMetrics) it is nothing.
    atClose: () => {
      pl.buildMetrics?.();
    },
    bytes: wire.reduce((s, w) => s + w.length, 0) / n,
  };
}

export async function run(ctx) {
  const N = ctx.quick ? 512 : 2048;
  const reps = ctx.quick ? 3 : 9;
  const builds = { this: path.join(root, 'dist') };
  const base = process.env.SB_BENCH_BASE;
  if (base && existsSync(path.join(base, 'dist'))) builds.base = path.join(base, 'dist');
  const vs = {};
  for (const [k, d] of Object.entries(builds)) vs[k] = variant(await load(d), N);
  const parts = ['recordLine', 'processBatch', 'deserialize', 'mainThread', 'atClose'];
  const t = {};
  for (const k of Object.keys(vs)) for (const p of parts) t[`${k}.${p}`] = [];
  // Interleaved: each repetition runs every build's every part once.
  for (let r = 0; r < reps + 1; r++) {
    for (const p of parts) {
      for (const k of Object.keys(vs)) {
        globalThis.gc?.();
        const t0 = now();
        vs[k][p]();
        if (r > 0) t[`${k}.${p}`].push(Number(now() - t0) / 1e3 / N);
      }
    }
  }
  const cols = ['what', 'this µs/record'];
  if (vs.base) cols.push('base µs/record', 'base / this');
  const rows = parts.map((p) => {
    const row = [p, median(t[`this.${p}`]).toFixed(2)];
    if (vs.base) row.push(median(t[`base.${p}`]).toFixed(2), (median(t[`base.${p}`]) / median(t[`this.${p}`])).toFixed(2));
    return row;
  });
  const bytes = ['result bytes/record (clone)', vs.this.bytes.toFixed(0)];
  if (vs.base) bytes.push(vs.base.bytes.toFixed(0), '');
  rows.push(bytes);
  return {
    tables: [{ title: `Per-record work (component harness; ${N} records, OSL 128, median of ${reps} interleaved)`, columns: cols, rows }],
    notes: [
      'processBatch counts with a constant counter: the tokenizer is not measured here',
      'deserialize: v8.deserialize of each batch result (what a structured clone costs the receiver); mainThread: that + RecordPipeline.settle, in the run; atClose: what close() adds after the run',
    ],
  };
}

// Dataset costs the harness pays: loading (parse, check, sort, count) a dataset file before the
// run, and next() on the send path — a Mooncake trace's prompt is assembled from its hash-id
// blocks on every draw, so that cost is per request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bigDatasetTables } from './dataset-big.js';
import { duration, importDist, median, now, rng } from './lib.js';

export const description =
  'dataset loading (mooncake trace, single_turn, a 680 MB ShareGPT array, 100k synthetic prompts) and next() per request';

function p(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** A Mooncake-like trace: prefix-chained hash ids over a few shared roots, timestamps increasing. */
function traceText(lines, meanTokens, seed) {
  const r = rng(seed);
  const out = [];
  let next = 1000;
  let t = 0;
  for (let i = 0; i < lines; i++) {
    const input = Math.max(1, Math.round(meanTokens * (0.5 + r())));
    const blocks = Math.ceil(input / 512);
    const shared = Math.min(blocks, Math.floor(r() * 4)); // up to 3 blocks from one of 10 roots
    const root = Math.floor(r() * 10) * 3;
    const ids = [];
    for (let b = 0; b < blocks; b++) ids.push(b < shared ? root + b : next++);
    t += Math.round(r() * 20);
    out.push(JSON.stringify({ timestamp: t, input_length: input, output_length: 1 + Math.floor(r() * 300), hash_ids: ids }));
  }
  return out.join('\n') + '\n';
}

export async function run(ctx) {
  const load = await importDist('tokenizer/load.js');
  const moon = await importDist('dataset/mooncake.js');
  const single = await importDist('dataset/single-turn.js');
  const synth = await importDist('tokenizer/synthesize.js');
  const rngMod = await importDist('model/rng.js');
  if (!load || !moon || !single || !synth || !rngMod) return { tables: [], notes: ['dist/ is not built: run `npm run build:ts` first'] };
  const tok = await load.loadTokenizer();
  synth.getTokenPool(tok);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servebench-dataset-bench-'));
  const ctxFor = (file) => ({
    file,
    tokenizer: tok,
    seed: 0,
    sampling: 'sequential',
    osl: { mean: 64, stddev: 0 },
    systemPrompt: null,
    warn: () => {},
  });

  const loadRows = [];
  const nextRows = [];
  try {
    const lines = ctx.quick ? 2000 : 20000;
    for (const mean of [2000, 8000, 32000]) {
      const file = path.join(dir, `trace-${mean}.jsonl`);
      const text = traceText(lines, mean, mean);
      fs.writeFileSync(file, text);
      let t0 = now();
      const src = moon.loadMooncakeTrace(ctxFor(file), fs.readFileSync(file, 'utf8'));
      const loadNs = Number(now() - t0);
      // JSON.stringify of the prompt stands in for building the request body (it flattens the string).
      const samples = [];
      const n = ctx.quick ? 200 : 2000;
      for (let i = 0; i < 50; i++) JSON.stringify(src.next().turns[0].prompt);
      for (let i = 0; i < n; i++) {
        t0 = now();
        JSON.stringify(src.next().turns[0].prompt);
        samples.push(Number(now() - t0));
      }
      loadRows.push([`mooncake_trace, ${lines} lines, mean ISL ${mean}`, `${(text.length / 1e6).toFixed(1)} MB`, duration(loadNs)]);
      nextRows.push([`mooncake_trace, mean ISL ${mean}`, duration(median(samples)), duration(p(samples, 0.99))]);
    }

    // single_turn: the load counts every prompt ahead of the run (prefetch), so next() is a copy.
    const r = rng(7);
    const words = 'the harbor woke before town did gulls argued over fish crates while two men rolled winch back into shed'.split(' ');
    const n = ctx.quick ? 300 : 3000;
    const stLines = Array.from({ length: n }, () =>
      JSON.stringify({ text: Array.from({ length: 400 }, () => words[Math.floor(r() * words.length)]).join(' '), max_tokens: 100 }),
    );
    const stFile = path.join(dir, 'single.jsonl');
    fs.writeFileSync(stFile, stLines.join('\n'));
    let t0 = now();
    const st = single.loadSingleTurn(ctxFor(stFile), fs.readFileSync(stFile, 'utf8'));
    const parseNs = Number(now() - t0);
    t0 = now();
    st.prefetch(n, 60_000);
    const countNs = Number(now() - t0);
    loadRows.push([
      `single_turn, ${n} lines of ~400 tokens: parse + check`,
      `${(fs.statSync(stFile).size / 1e6).toFixed(1)} MB`,
      duration(parseNs),
    ]);
    loadRows.push([`single_turn, ${n} lines: token counting (prefetch)`, '', duration(countNs)]);
    const s2 = [];
    for (let i = 0; i < (ctx.quick ? 200 : 2000); i++) {
      t0 = now();
      st.next();
      s2.push(Number(now() - t0));
    }
    nextRows.push(['single_turn (counted ahead)', duration(median(s2)), duration(p(s2, 0.99))]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  return {
    tables: [
      { title: `Loading a dataset file (${tok.name})`, columns: ['file', 'size', 'time'], rows: loadRows },
      { title: 'next() on the send path (per conversation, prompt flattened)', columns: ['source', 'p50', 'p99'], rows: nextRows },
      ...(await bigDatasetTables(ctx)),
    ],
    notes: [
      'Mooncake prompts are rebuilt on every draw from slices of the corpus (no tokenizer call); single_turn prompts are counted once, before the run.',
    ],
  };
}

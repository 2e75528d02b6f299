#!/usr/bin/env node
// Runs the microbenchmarks of the harness itself: every bench/*.bench.js in
// turn, or the ones named on the command line.
//   node bench/run.js [name...] [--quick] [--json]
// --quick  small workloads and few repetitions (a smoke run, figures meaningless)
// --json   one JSON document on stdout instead of tables
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatTable, loadNative, root } from './lib.js';

// A benchmark never downloads from the Hugging Face Hub (its runs name no Hub model; a tokenizer or
// dataset it needs is made locally): servebench and its peers started from here are offline.
process.env.HF_HUB_OFFLINE ??= '1';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const names = args.filter((a) => !a.startsWith('--'));
for (const f of flags) {
  if (f !== '--quick' && f !== '--json') {
    console.error(`bench: unknown option ${f} (expected --quick, --json)`);
    process.exit(2);
  }
}
const quick = flags.has('--quick');
const json = flags.has('--json');

const dir = path.join(root, 'bench');
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.js'))
  .map((f) => f.slice(0, -'.bench.js'.length))
  .sort();
for (const n of names) {
  if (!available.includes(n)) {
    console.error(`bench: no benchmark named "${n}" (available: ${available.join(', ')})`);
    process.exit(2);
  }
}
const selected = names.length ? names : available;

let loaded;
try {
  loaded = await loadNative();
} catch (err) {
  console.error(`bench: ${err.message}`);
  process.exit(2);
}

// Progress goes to stderr so --json output stays parseable.
const log = (msg) => process.stderr.write(`${msg}\n`);
const env = {
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  addon: loaded.source,
  quick,
  gc_between_reps: typeof globalThis.gc === 'function',
};
if (!json) {
  console.log(`servebench microbenchmarks — node ${env.node}, ${env.cores}× ${env.cpu}, addon from ${env.addon}`);
  if (!env.gc_between_reps) console.log('(run with node --expose-gc for a GC between repetitions)');
  if (quick) console.log('--quick: smoke run, figures are not meaningful');
}

const results = {};
for (const name of selected) {
  const mod = await import(pathToFileURL(path.join(dir, `${name}.bench.js`)).href);
  if (!json) console.log(`\n== ${name}: ${mod.description ?? ''}`);
  const ctx = { native: loaded.native, nativeSource: loaded.source, quick, log };
  const res = await mod.run(ctx);
  results[name] = res;
  if (!json) {
    for (const t of res.tables) console.log(`\n${formatTable(t)}`);
    for (const n of res.notes ?? []) console.log(`  ${n}`);
  }
}
if (json) console.log(JSON.stringify({ env, results }, null, 2));

// Big datasets (issue 32, section 3), measured on the real command: `servebench profile` against
// the mock, with a ShareGPT-shaped JSON array the bench writes (680 MB; 20 MB with --quick).
//   - a sequential --request-count 1000 run: time from spawn to the mock's first request, peak RSS;
//   - a run that must read all of it (--dataset-sampling-strategy random): the same figures;
//   - reading and counting every element in-process (readJsonArray): time and RSS;
//   - 100,000 synthetic prompts of 8,192 tokens (2,000 with --quick): time until all are built, in
//     process through createConversationSource (a run draws them as it sends, so the command line
//     does not show when "all are ready").
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { duration, importDist, root, rng } from './lib.js';

const WORDS = (
  'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all ' +
  'were we when your can said there use an each which she do how their if will up other about out many then them these so some'
).split(' ');

/** Writes a ShareGPT-shaped JSON array of about `bytes` bytes (1-4 exchanges per conversation); returns its entry count. */
function writeShareGpt(file, bytes) {
  const r = rng(32);
  const text = (n) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
  const fd = fs.openSync(file, 'w');
  let size = 0;
  let n = 0;
  let batch = ['[\n'];
  while (size < bytes) {
    const conversations = [];
    for (let t = 1 + Math.floor(r() * 4); t > 0; t--) {
      conversations.push({ from: 'human', value: text(20 + Math.floor(r() * 200)) });
      conversations.push({ from: 'gpt', value: text(50 + Math.floor(r() * 500)) });
    }
    const s = `${n === 0 ? '' : ',\n'}${JSON.stringify({ id: `c${n++}`, conversations }, null, 1)}`;
    batch.push(s);
    size += s.length;
    if (batch.length >= 1000) {
      fs.writeSync(fd, batch.join(''));
      batch = [];
    }
  }
  batch.push('\n]\n');
  fs.writeSync(fd, batch.join(''));
  fs.closeSync(fd);
  return n;
}

/** Peak RSS (VmHWM) of a running process, in bytes; 0 when it has gone. */
function hwm(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs `servebench profile args…`; its wall time, peak RSS (polled), exit code and stderr. */
function profile(args) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [path.join(root, 'bin/servebench.js'), 'profile', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    let peak = 0;
    const poll = setInterval(() => (peak = Math.max(peak, hwm(child.pid))), 20);
    child.on('exit', (code) => {
      clearInterval(poll);
      resolve({ t0, ns: Number(process.hrtime.bigint() - t0), peak, code, stderr });
    });
  });
}

const mb = (b) => `${(b / 1e6).toFixed(0)} MB`;

export async function bigDatasetTables(ctx) {
  const spawnMod = await importDist('mock/spawn.js');
  const arrays = await importDist('dataset/json-array-stream.js');
  const validate = await importDist('config/validate.js');
  const dsIndex = await importDist('dataset/index.js');
  const load = await importDist('tokenizer/load.js');
  if (!spawnMod || !arrays || !validate || !dsIndex || !load) return [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servebench-big-dataset-'));
  const rows = [];
  const bytes = ctx.quick ? 20e6 : 680e6;
  const file = path.join(dir, 'sharegpt.json');
  const log = path.join(dir, 'requests.jsonl');
  const mock = await spawnMod.spawnMock(['--ttft-ms', '1', '--itl-ms', '0', '--record-requests', log]);
  try {
    const entries = writeShareGpt(file, bytes);
    const size = fs.statSync(file).size;
    const firstArrival = () => {
      const first = fs.readFileSync(log, 'utf8').split('\n', 1)[0];
      return first ? BigInt(/"ts_ns":(\d+)/.exec(first)[1]) : null;
    };
    // The same command's fixed cost: an array of just the 1000 conversations it sends.
    const small = path.join(dir, 'sharegpt-1000.json');
    writeShareGpt(small, (bytes * 1000) / entries);
    for (const [label, extra, input] of [
      ['sequential, --request-count 1000', [], file],
      ['--dataset-sampling-strategy random (reads it all), --request-count 1000', ['--dataset-sampling-strategy', 'random'], file],
      ['baseline: an array of only those 1000 conversations, sequential', [], small],
    ]) {
      fs.writeFileSync(log, '');
      const out = path.join(dir, 'out');
      const r = await profile([
        '--url',
        mock.url,
        '--input-file',
        input,
        '--request-count',
        '1000',
        '--artifact-dir',
        out,
        '--ui',
        'none',
        ...extra,
      ]);
      const first = firstArrival();
      const ttfr = first === null ? 'no request' : duration(Number(first - r.t0));
      // The run says how long counting the drawn conversations' tokens took, when it took over a second.
      const counted = /counted the tokens of \d+ \w+ entries in ([\d.]+ s)/.exec(r.stderr)?.[1] ?? '< 1 s';
      const result = r.code === 0 ? `ok; token counting ${counted}` : `exit ${r.code}: ${r.stderr.trim().split('\n').at(-1)}`;
      const what = input === file ? `${mb(size)} array (${entries} conversations)` : `${mb(fs.statSync(small).size)} array`;
      rows.push([`${what}: ${label}`, ttfr, mb(r.peak), duration(r.ns), result]);
    }

    // Reading and counting every element, in process.
    globalThis.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    let n = 0;
    const t0 = process.hrtime.bigint();
    for await (const e of arrays.readJsonArray(file)) {
      if (e.value !== null) n++;
      if ((n & 1023) === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    rows.push([
      `${mb(size)} array: readJsonArray, every element parsed and counted (${n})`,
      '',
      `${mb(peak)} (+${mb(peak - rss0)})`,
      duration(Number(process.hrtime.bigint() - t0)),
      'ok',
    ]);
  } finally {
    await mock.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // Synthetic prompts: all of them built, as a run draws them.
  const count = ctx.quick ? 2000 : 100_000;
  const tok = await load.loadTokenizer();
  globalThis.gc?.();
  const rss0 = process.memoryUsage().rss;
  const t0 = process.hrtime.bigint();
  const cfg = validate.buildRunConfig({ isl: 8192, 'isl-stddev': 0, osl: 64, 'conversation-num': count, 'request-count': count }, {});
  const src = await dsIndex.createConversationSource(cfg, tok);
  let chars = 0;
  for (let i = 0; i < count; i++) chars += src.next().turns[0].prompt.length;
  const ns = Number(process.hrtime.bigint() - t0);
  rows.push([
    `${count} synthetic prompts of 8192 tokens (${tok.name}), all built`,
    '',
    `+${mb(process.memoryUsage().rss - rss0)}`,
    duration(ns),
    chars > 0 ? 'ok' : 'empty',
  ]);

  return [
    {
      title: 'Big datasets: the real command against the mock (time to first request from spawn; peak RSS polled from /proc)',
      columns: ['workload', 'first request', 'peak RSS', 'total', 'result'],
      rows,
    },
  ];
}

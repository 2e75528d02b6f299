#!/usr/bin/env node
// The harness's own benchmark against its peers (npm run bench:harness): one command, one table,
// every figure measured in this run.
//   node bench/harness.js [--quick] [--json] [--e2e-only | --no-e2e] [--e2e-reps N]
//                         [--https-only | --no-https] [--https-reps N] [--tiny]
//   (npm run bench:harness -- --e2e-only: the end-to-end section alone; -- --https-only --quick: the
//   HTTPS section alone in about a minute; --tiny: that section with a few streams, for its smoke test)
// The mock (`servebench mock --fast`, native serving threads, events stamped with their send time)
// runs pinned to the last core and each client to the first (taskset, when there are two cores or
// more), one client at a time:
//   - peak throughput: SSE events/s and requests/s at concurrency 256, 1,024 and 10,000 (mock with
//     zero latency), undici vs native; client CPU-seconds per 1,000 requests and CPU µs per event;
//     RSS per 1,000 in-flight streams (the 10,000-stream runs);
//   - against a single-threaded Python aiohttp client (bench/peers/aiohttp_client.py, the method of
//     vLLM's, SGLang's and EvalScope's clients) at concurrency 1,024 and an ITL of 1 ms; our clients
//     run once doing transport work only and once also JSON-decoding every event, as the peer does;
//   - timestamp fidelity: client stamp − server send stamp, p50/p99/max, at concurrency 64 and 4,096.
//   - end to end (bench/e2e.js, issue 11): the real `servebench profile` command with default
//     settings beside the aiohttp client and a minimal C epoll reader, at concurrency 1,024: marginal
//     user/sys CPU per event, events/s achieved vs offered, TTFT and ITL p50 against the server's
//     stamps, the JS thread's share, RSS per 1,000 streams; medians of --e2e-reps interleaved
//     repetitions (default 3, --quick 1). --no-e2e leaves it out; --e2e-only runs it alone. Also
//     --transport-threads 1 vs 2 with the CPU split by thread, and a 16-core prediction from it.
//   - HTTPS (bench/https.js, issue 17): the same product runs against the fast mock serving TLS,
//     native and undici, beside native in plain HTTP: marginal CPU per event and stamp error at
//     1,024 streams, and the ratios the targets name. --no-https leaves it out; --https-only runs it alone.
// Each configuration is bounded in time (warmup + measured window), so the whole run takes a few
// minutes. 10,000 streams need > 10,000 descriptors in each of client and mock: `npm run
// bench:harness` raises the soft limit to the hard one first; with a lower limit the runs that need
// more are skipped, and the table says so.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runE2E } from './e2e.js';
import { runHttps } from './https.js';
import { CLIENT_CPU, MOCK_CPU, PYTHON, canPin, cores, fdLimit, loadavg, pinned, startMock } from './harness-procs.js';
import { formatTable, root } from './lib.js';

// A benchmark never downloads from the Hugging Face Hub (its runs name no Hub model; a tokenizer or
// dataset it needs is made locally): servebench and its peers started from here are offline.
process.env.HF_HUB_OFFLINE ??= '1';

const argv = process.argv.slice(2);
const args = new Set();
const reps = { '--e2e-reps': null, '--https-reps': null };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a in reps) {
    reps[a] = Number(argv[++i]);
    if (!Number.isInteger(reps[a]) || reps[a] < 1) {
      console.error(`bench:harness: ${a} takes a whole number ≥ 1`);
      process.exit(2);
    }
  } else if (['--quick', '--json', '--e2e-only', '--no-e2e', '--https-only', '--no-https', '--tiny'].includes(a)) args.add(a);
  else {
    console.error(
      `bench:harness: unknown option ${a} (expected --quick, --json, --e2e-only, --no-e2e, --e2e-reps N, --https-only, --no-https, --https-reps N, --tiny)`,
    );
    process.exit(2);
  }
}
const e2eReps = reps['--e2e-reps'];
const QUICK = args.has('--quick');
const JSON_OUT = args.has('--json');
const HTTPS_ONLY = args.has('--https-only') || args.has('--tiny');
// E2E_ONLY: the transport-only sections are left out (the HTTPS-only run leaves them out too).
const E2E_ONLY = args.has('--e2e-only') || HTTPS_ONLY;
const E2E = !args.has('--no-e2e') && !HTTPS_ONLY;
const HTTPS = !args.has('--no-https') && !args.has('--e2e-only');
const log = (m) => process.stderr.write(`${m}\n`);
if (!existsSync(path.join(root, 'dist', 'transport', 'native.js'))) {
  console.error('bench:harness: dist/ is not built; run `npx tsc -p tsconfig.build.json` (or `npm run build`) first');
  process.exit(2);
}

const CLIENT = path.join(root, 'bench', 'harness-client.js');
const PEER = path.join(root, 'bench', 'peers', 'aiohttp_client.py');

const OSL = 64;
const FID_ITL_MS = 50;
const W = QUICK ? 0.5 : 1.5; // warmup seconds (connections open, JIT warms)
const D = QUICK ? 1 : 4; // measured seconds
const BIG_W = QUICK ? 1.5 : 4; // warmup for 10,000 streams (connection setup)

/** Runs one client process; resolves with its JSON report (or {error}). */
function runChild(cmd, argv, timeoutMs) {
  const [c, a] = pinned(CLIENT_CPU, cmd, argv);
  return new Promise((resolve) => {
    const child = spawn(c, a, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => resolve({ error: e.message }));
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line));
      } catch {
        resolve({ error: `exit ${code}: ${(err || out).trim().split('\n').slice(-3).join(' | ')}` });
      }
    });
  });
}

/** Runs a client and notes the mock's CPU share over the client's lifetime (is the mock the bottleneck?). */
async function measured(mock, run) {
  const c0 = mock.cpu();
  const t0 = process.hrtime.bigint();
  const r = await run();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  r.mock_cpu_share = (mock.cpu() - c0) / wall;
  return r;
}

function ours(mock, transport, concurrency, opts = {}) {
  const warmupS = opts.warmupS ?? W;
  const cfg = { url: mock.url, transport, concurrency, warmupS, durationS: D, osl: OSL, fidelity: false, ...opts };
  const durationS = cfg.durationS;
  return measured(mock, () => runChild(process.execPath, ['--expose-gc', CLIENT, JSON.stringify(cfg)], (warmupS + durationS + 40) * 1000));
}

function peer(mock, concurrency, opts = {}) {
  if (PYTHON === null) return Promise.resolve({ error: 'no python3 with aiohttp found (apt-get install python3-aiohttp)' });
  const cfg = { url: mock.url, concurrency, warmupS: W, durationS: D, osl: OSL, ...opts };
  return measured(mock, () => runChild(PYTHON, [PEER, JSON.stringify(cfg)], (W + D + 40) * 1000));
}

// ---- the runs -----------------------------------------------------------------------------------
const results = {
  machine: {
    cores,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    pinned: canPin,
    fd_limit: fdLimit,
    loadavg_start: loadavg(),
  },
  runs: {},
};
log(
  `bench:harness — ${cores} cores (${results.machine.cpu}), node ${process.version}, ${canPin ? `mock on cpu ${MOCK_CPU}, client on cpu ${CLIENT_CPU}` : 'no pinning (taskset missing or one core)'}, fd limit ${fdLimit}`,
);

const THROUGHPUT_C = QUICK ? [256, 1024] : [256, 1024, 10_000];
if (!E2E_ONLY) {
  const mock = await startMock(['--ttft-ms', '0', '--itl-ms', '0']);
  for (const c of THROUGHPUT_C) {
    if (c + 200 > fdLimit) {
      log(`  skip throughput at ${c}: needs ~${c + 200} descriptors per process, the limit is ${fdLimit}`);
      continue;
    }
    for (const t of ['undici', 'native']) {
      log(`  throughput: ${t} at concurrency ${c} …`);
      results.runs[`tput-${t}-${c}`] = await ours(mock, t, c, { warmupS: c >= 10_000 ? BIG_W : W });
    }
  }
  await mock.stop();
}
const MEM_C = QUICK ? 1024 : 10_000;
if (!E2E_ONLY && MEM_C + 200 <= fdLimit) {
  // Long streams that stay open through the window: a token every 200 ms, 1,000 asked for.
  const mock = await startMock(['--ttft-ms', '0', '--itl-ms', '200']);
  for (const t of ['undici', 'native']) {
    log(`  memory: ${t} with ${MEM_C} streams in flight …`);
    results.runs[`mem-${t}`] = await ours(mock, t, MEM_C, { osl: 1000, warmupS: BIG_W, durationS: 2, rssAtS: 1.5 });
  }
  await mock.stop();
}
if (!E2E_ONLY) {
  const mock = await startMock(['--ttft-ms', '0', '--itl-ms', '1']);
  log('  peer comparison at concurrency 1,024, ITL 1 ms: python aiohttp …');
  results.runs['peer-aiohttp'] = await peer(mock, 1024);
  for (const t of ['undici', 'native']) {
    for (const decode of [false, true]) {
      log(`  peer comparison: ${t}${decode ? ' + JSON decode' : ''} …`);
      results.runs[`peer-${t}${decode ? '-decode' : ''}`] = await ours(mock, t, 1024, { decode });
    }
  }
  // The price of prompt stamps: a SCHED_FIFO I/O thread wakes for nearly every segment; at normal
  // priority it wakes later and reads more per call (fewer syscalls per event, later stamps).
  log('  peer comparison: native at normal priority …');
  results.runs['peer-native-normal'] = await ours(mock, 'native', 1024, { priority: 'normal', fidelity: true });
  results.runs['peer-native-fid'] = await ours(mock, 'native', 1024, { fidelity: true });
  await mock.stop();
}
if (!E2E_ONLY) {
  // Fidelity under a steady load that saturates neither side: a token every 50 ms per stream
  // (20 tokens/s, a busy server's pace): 82k events/s at 4,096 streams, each its own TCP segment.
  const mock = await startMock(['--ttft-ms', '0', '--itl-ms', String(FID_ITL_MS)]);
  for (const c of QUICK ? [64] : [64, 4096]) {
    for (const t of ['undici', 'native']) {
      log(`  fidelity: ${t} at concurrency ${c} …`);
      results.runs[`fid-${t}-${c}`] = await ours(mock, t, c, { fidelity: true, warmupS: c > 1000 ? BIG_W : W });
    }
  }
  await mock.stop();
}

// The whole product (`servebench profile`, default settings) against the same peers: bench/e2e.js.
const e2e = E2E ? await runE2E({ quick: QUICK, reps: e2eReps, log }) : null;
if (e2e) results.e2e = e2e.results;
const httpsMode = args.has('--tiny') ? 'tiny' : QUICK ? 'quick' : 'full';
const https = HTTPS ? await runHttps({ mode: httpsMode, reps: reps['--https-reps'], log }) : null;
if (https) results.https = https.results;

results.machine.loadavg_end = loadavg();

// ---- the table ----------------------------------------------------------------------------------
const r = results.runs;
const ok = (x) => x && !x.error && x.requests > 0;
const f = (x, d = 0) =>
  x === null || x === undefined || !Number.isFinite(x)
    ? '—'
    : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const evs = (x) => (ok(x) ? x.events / x.wall_s : NaN);
const rps = (x) => (ok(x) ? x.requests / x.wall_s : NaN);
const usPerEvent = (x) => (ok(x) ? (x.cpu_s / x.events) * 1e6 : NaN);
const cpuPer1k = (x) => (ok(x) ? (x.cpu_s / x.requests) * 1000 : NaN);
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '—');
const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '—');
const why = (x) => (x?.error ? ` (${x.error})` : x && x.errors > 0 ? ` (${x.errors} errors: ${JSON.stringify(x.first_error)})` : '');

const tables = [];
if (!E2E_ONLY)
  tables.push({
    title: `Peak throughput, streaming, mock at zero latency, ${OSL} tokens per response (measured ${D} s each)`,
    columns: [
      'concurrency',
      'undici events/s',
      'native events/s',
      'native ÷ undici',
      'undici req/s',
      'native req/s',
      'undici CPU s/1k req',
      'native CPU s/1k req',
      'undici CPU µs/event',
      'native CPU µs/event',
      'mock CPU (u / n)',
    ],
    rows: THROUGHPUT_C.map((c) => {
      const u = r[`tput-undici-${c}`];
      const n = r[`tput-native-${c}`];
      return [
        f(c),
        f(evs(u)) + why(u),
        f(evs(n)) + why(n),
        ratio(evs(n), evs(u)),
        f(rps(u)),
        f(rps(n)),
        f(cpuPer1k(u), 3),
        f(cpuPer1k(n), 3),
        f(usPerEvent(u), 2),
        f(usPerEvent(n), 2),
        `${pct(u?.mock_cpu_share)} / ${pct(n?.mock_cpu_share)}`,
      ];
    }),
  });
if (!E2E_ONLY)
  tables.push({
    title: `Memory: RSS per 1,000 in-flight streams (${f(MEM_C)} streams open, a token every 200 ms; RSS after a GC, minus RSS before the transport existed)`,
    columns: [
      'transport',
      'streams in flight',
      'RSS before (MiB)',
      'RSS with streams (MiB)',
      'JS heap used (MiB)',
      'MiB per 1,000 streams',
    ],
    rows: ['undici', 'native'].map((t) => {
      const x = r[`mem-${t}`];
      if (!x || x.error || !x.rss_mid) return [t, '—', '—', '—', '—', `—${why(x)}`];
      const n = x.in_flight_at_rss;
      return [
        t,
        f(n),
        f(x.rss_base / 2 ** 20, 1),
        f(x.rss_mid / 2 ** 20, 1),
        f(x.heap_mid / 2 ** 20, 1),
        f((x.rss_mid - x.rss_base) / 2 ** 20 / (n / 1000), 2),
      ];
    }),
  });
const py = r['peer-aiohttp'];
const pyUs = usPerEvent(py);
const pyEvs = evs(py);
if (!E2E_ONLY)
  tables.push({
    title: 'Against the Python aiohttp method (vLLM/SGLang/EvalScope clients), concurrency 1,024, ITL 1 ms',
    columns: ['client', 'events/s', 'events/s ÷ aiohttp', 'CPU µs/event', 'CPU ÷ aiohttp', 'stamp error p50 / p99 (ms)'],
    rows: [
      ['python aiohttp (json.loads per event)' + why(py), f(pyEvs), ok(py) ? '1.00×' : '—', f(pyUs, 2), ok(py) ? '1.00×' : '—', fid(py)],
      ...['undici', 'undici-decode', 'native', 'native-decode', 'native-fid', 'native-normal'].map((k) => {
        const x = r[`peer-${k}`];
        const label = {
          undici: 'undici (transport only)',
          'undici-decode': 'undici + JSON.parse per event',
          native: 'native (transport only)',
          'native-decode': 'native + JSON.parse per event',
          'native-fid': 'native, reading send stamps too',
          'native-normal': 'native at normal priority, reading send stamps',
        }[k];
        return [label + why(x), f(evs(x)), ratio(evs(x), pyEvs), f(usPerEvent(x), 2), ratio(usPerEvent(x), pyUs), fid(x)];
      }),
    ],
  });
function fid(x) {
  return x?.fidelity_ms ? `${f(x.fidelity_ms.p50, 3)} / ${f(x.fidelity_ms.p99, 3)}` : '—';
}
if (!E2E_ONLY)
  tables.push({
    title: `Timestamp fidelity: client stamp − mock send stamp per event (ms), mock ITL ${FID_ITL_MS} ms, same host and clock`,
    columns: ['concurrency', 'transport', 'events', 'p50', 'p99', 'max', 'events/s', 'I/O thread'],
    rows: (QUICK ? [64] : [64, 4096]).flatMap((c) =>
      ['undici', 'native'].map((t) => {
        const x = r[`fid-${t}-${c}`];
        const q = x?.fidelity_ms;
        const io = x?.io_threads;
        const sched = !io
          ? '—'
          : io.realtime
            ? `SCHED_FIFO${io.realtime_demotions ? ` (left ${io.realtime_demotions}×)` : ''}`
            : io.raised
              ? 'raised'
              : 'normal';
        return [f(c), t + why(x), f(q?.count), f(q?.p50, 3), f(q?.p99, 3), f(q?.max, 3), f(evs(x)), sched];
      }),
    ),
  });

const targets = [];
if (E2E_ONLY) {
  // transport-only sections not run
} else if (ok(py)) {
  const n = r['peer-native'];
  const nd = r['peer-native-decode'];
  const u = r['peer-undici'];
  const ud = r['peer-undici-decode'];
  targets.push(`native events/s ≥ 5× aiohttp: ${ratio(evs(n), pyEvs)} (transport only), ${ratio(evs(nd), pyEvs)} (with JSON.parse)`);
  targets.push(
    `native CPU per event ≤ 0.1× aiohttp: ${ratio(usPerEvent(n), pyUs)} (transport only), ${ratio(usPerEvent(nd), pyUs)} (with JSON.parse)`,
  );
  targets.push(
    `undici CPU per event ≤ 0.5× aiohttp: ${ratio(usPerEvent(u), pyUs)} (transport only), ${ratio(usPerEvent(ud), pyUs)} (with JSON.parse)`,
  );
} else {
  targets.push(`Python comparison skipped: ${py?.error ?? 'no result'}`);
}
const big10k = r['tput-native-10000'];
if (big10k)
  targets.push(
    `10,000 concurrent streams from one process (native): ${ok(big10k) && big10k.errors === 0 ? 'held' : `not held${why(big10k)}`}`,
  );
const memN = r['mem-native'];
if (memN?.in_flight_at_rss)
  targets.push(
    `streams held open at once from one process (native): ${f(memN.in_flight_at_rss)}${memN.errors ? ` (${memN.errors} errors)` : ''}`,
  );
const f4k = r['fid-native-4096']?.fidelity_ms;
if (f4k) targets.push(`native p99 stamp error at concurrency 4,096 < 1 ms: ${f(f4k.p99, 3)} ms`);

if (e2e) tables.push(...e2e.tables);
if (https) tables.push(...https.tables);
if (JSON_OUT) {
  process.stdout.write(
    JSON.stringify(
      {
        ...results,
        tables,
        targets,
        e2e_targets: e2e?.targets ?? null,
        e2e_scale: e2e?.scale ?? null,
        https_targets: https?.targets ?? null,
      },
      null,
      2,
    ) + '\n',
  );
} else {
  console.log(
    `servebench harness benchmark — ${cores}× ${results.machine.cpu}, node ${process.version}; ${canPin ? `mock pinned to cpu ${MOCK_CPU}, clients to cpu ${CLIENT_CPU}` : 'not pinned'}; ` +
      `load average ${results.machine.loadavg_start} at the start, ${results.machine.loadavg_end} at the end${QUICK ? '; --quick: smoke run, figures not meaningful' : ''}\n`,
  );
  for (const t of tables) console.log(formatTable(t) + '\n');
  if (targets.length) {
    console.log('Targets (issue 7):');
    for (const t of targets) console.log(`  - ${t}`);
  }
  if (e2e) {
    console.log('Targets, end to end (issue 11):');
    for (const t of e2e.targets) console.log(`  - ${t}`);
  }
  if (e2e?.scale.length) {
    console.log('Scaling across cores, end to end (issue 11, item 5):');
    for (const t of e2e.scale) console.log(`  - ${t}`);
  }
  if (https) {
    console.log('Targets, HTTPS (issue 17):');
    for (const t of https.targets) console.log(`  - ${t}`);
  }
}

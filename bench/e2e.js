// The end-to-end section of the harness benchmark (issue 11): the real `servebench profile` command
// with default settings (client tokenizer, records.jsonl) against the native fast mock, beside a
// single-threaded Python aiohttp client (bench/peers/aiohttp_client.py) and a minimal C epoll
// reader (bench/peers/epoll_reader.c), which this module compiles with cc into a temp dir.
//   node bench/harness.js --e2e-only [--quick] [--json] [--e2e-reps N]   (this section alone)
//   npm run bench:harness                                               (after the others)
// The mock runs pinned to the last core, each client to the first. Every client process runs under
// bench/peers/rusage.c (fork, exec, wait4): user and system CPU of the whole process — all its
// threads, and any child it waited for — at µs resolution, and its peak RSS (ru_maxrss).
//   - Cost: concurrency 1,024, OSL 128, mock TTFT 1 ms and ITL 1 ms (far more than one core can
//     read: each client runs flat out). Marginal CPU per event = (big run − small run) / (events
//     difference), request counts below, so start-up (Node, tokenizer, connections) cancels; the
//     same for the JS thread's busy time (event-loop utilisation × wall, from the `harness` section
//     of profile_export.json).
//   - Keeps up: concurrency 1,024, OSL 128, TTFT 5 ms, ITL 5 ms (≈ 208k events/s offered): events/s
//     achieved vs offered, TTFT p50, ITL p50 against the server's send stamps, and whether the
//     harness report names the client as the bottleneck.
//   - servebench's stamps against the server's: one extra run in the keeps-up setting at
//     --export-level raw (chunk stamps and payloads with "sb_send_ns"), so the default rows stay
//     default.
//   - Memory: peak RSS of `servebench profile` in the small cost run (1,024 streams open) minus that
//     of a run with one stream, per 1,000 streams.
//   - I/O threads (bench/e2e-scale.js): the cost runs again with --transport-threads 1 and 2, and with
//     the client allowed on both CPUs; each run's CPU split by thread (harness.cpu.threads), marginal,
//     and from it a prediction for 16 cores (bench/scale-model.js).
// Events per request are the mock's stream: the role chunk, OSL tokens and [DONE] (OSL + 2), as the
// C reader and the Python client count them. Figures are medians over interleaved repetitions (each
// repetition runs every client once in each setting); marginal figures pair the runs of one
// repetition.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, CLIENT_CPU, PYTHON, canPin, fdLimit, pinned, startMock } from './harness-procs.js';
import { report } from './e2e-report.js';
import { scaleClients, scaleReport } from './e2e-scale.js';
import { median, root } from './lib.js';

export const C = 1024;
const OSL = 128;
const ISL = 16;
const EVENTS_PER_REQUEST = OSL + 2;
export const COST = { ttft: 1, itl: 1 };
export const KEEP = { ttft: 5, itl: 5 };
const TIMEOUT_MS = 240_000;

/** Offered SSE events/s of a closed loop of `c` streams: each request lasts TTFT + (OSL − 1) × ITL. */
export const offered = (c, { ttft, itl }) => (c * EVENTS_PER_REQUEST * 1000) / (ttft + (OSL - 1) * itl);

/** Compiles the C reader and the rusage wrapper into `dir`; returns their paths. */
export function buildTools(dir) {
  const out = {};
  for (const name of ['epoll_reader', 'rusage']) {
    const exe = path.join(dir, name);
    const r = spawnSync('cc', ['-O2', '-o', exe, path.join(root, 'bench', 'peers', `${name}.c`)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cc ${name}.c failed: ${r.error?.message ?? r.stderr.trim()}`);
    out[name] = exe;
  }
  return out;
}

/** Parses the one JSON line a client prints last; null if there is none. */
export function lastJsonLine(text) {
  const line = text.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** CPU seconds (user + system, /proc ticks) of the main thread of `pid` (Node's JS thread), or NaN. */
function mainThreadCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

let seq = 0;
/**
 * Runs a client pinned to `cpus` (taskset's list; default the client core) under the rusage wrapper;
 * resolves with its output, its rusage and its main thread's CPU seconds (polled every 20 ms until it
 * exits: the last sample misses at most the final 20 ms).
 */
function runMeasured(ctx, cmd, argv, cpus = CLIENT_CPU) {
  const ruFile = path.join(ctx.tmp, `rusage-${seq++}.json`);
  const [c, a] = pinned(cpus, cmd, argv);
  return new Promise((resolve) => {
    const child = spawn(ctx.tools.rusage, [ruFile, c, ...a], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out = (out + d).slice(-20_000)));
    child.stderr.on('data', (d) => (err = (err + d).slice(-4_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    let pid = null;
    let mainCpu = NaN;
    const poll = setInterval(() => {
      pid ??= existsSync(`${ruFile}.pid`) ? Number(readFileSync(`${ruFile}.pid`, 'utf8')) || null : null;
      const v = pid === null ? NaN : mainThreadCpu(pid);
      if (Number.isFinite(v)) mainCpu = v;
    }, 20);
    child.on('exit', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      const ru = existsSync(ruFile) ? JSON.parse(readFileSync(ruFile, 'utf8')) : null;
      resolve({ code, out, err, ru, mainCpu });
    });
  });
}

const tail = (s) => s.trim().split('\n').slice(-2).join(' | ');

/** The figures every client row reports, from the rusage wrapper plus the client's own. */
function row(p, own) {
  const user_s = p.ru?.user_s ?? NaN;
  const sys_s = p.ru?.sys_s ?? NaN;
  return {
    user_s,
    sys_s,
    maxrss_mib: p.ru ? p.ru.maxrss_kib / 1024 : NaN,
    main_thread_s: p.mainCpu,
    // CPU over the load itself: a peer's whole process (its start costs next to nothing); servebench
    // overrides it with its harness window, which leaves out its start (tokenizer, dataset).
    run_cpu_s: user_s + sys_s,
    run_wall_s: own.wall_s,
    ...own,
  };
}

const clients = {
  c: { label: 'minimal C epoll reader (recv per readiness)', run: (ctx, mock, n) => cReader(ctx, mock, n, 0) },
  'c-coalesce': { label: 'C epoll reader, reading 100 µs after each wake-up', run: (ctx, mock, n) => cReader(ctx, mock, n, 100) },
  aiohttp: { label: 'Python aiohttp (json.loads per event, no tokenizer)', run: (ctx, mock, n) => aiohttp(ctx, mock, n) },
  sb: { label: 'servebench profile (native, defaults)', run: (ctx, mock, n) => servebench(ctx, mock, n, []) },
  'sb-server-count': {
    label: 'servebench --use-server-token-count',
    run: (ctx, mock, n) => servebench(ctx, mock, n, ['--use-server-token-count']),
  },
  'sb-summary': {
    label: 'servebench --export-level summary --use-server-token-count',
    run: (ctx, mock, n) => servebench(ctx, mock, n, ['--export-level', 'summary', '--use-server-token-count']),
  },
  'sb-undici': { label: 'servebench --transport undici', run: (ctx, mock, n) => servebench(ctx, mock, n, ['--transport', 'undici']) },
  // Only where the product has the flag (another change adds it).
  'sb-coalesce': {
    label: 'servebench --read-coalesce-us 100',
    optional: '--read-coalesce-us',
    run: (ctx, mock, n) => servebench(ctx, mock, n, ['--read-coalesce-us', '100']),
  },
};

async function cReader(ctx, mock, n, coalesceUs) {
  const p = await runMeasured(ctx, ctx.tools.epoll_reader, [
    '--port',
    String(mock.port),
    '--concurrency',
    String(C),
    '--requests',
    String(n),
    '--osl',
    String(OSL),
    '--coalesce-us',
    String(coalesceUs),
  ]);
  const j = lastJsonLine(p.out);
  if (!j || j.error || p.code !== 0) return { error: j?.error ?? `exit ${p.code}: ${tail(p.err || p.out)}` };
  return row(p, {
    requests: j.requests,
    events: j.events,
    errors: j.errors,
    wall_s: j.wall_s,
    ttft_ms_p50: j.ttft_ms_p50,
    itl_ms_p50: j.itl_ms_p50,
    server_itl_ms_p50: j.server_itl_ms_p50,
    stamp_error_ms: j.stamp_error_ms,
  });
}

async function aiohttp(ctx, mock, n) {
  if (PYTHON === null) return { error: 'no python3 with aiohttp found (apt-get install python3-aiohttp)' };
  const cfg = { url: mock.url, concurrency: C, requestCount: n, osl: OSL };
  const p = await runMeasured(ctx, PYTHON, [path.join(root, 'bench', 'peers', 'aiohttp_client.py'), JSON.stringify(cfg)]);
  const j = lastJsonLine(p.out);
  if (!j || j.error || p.code !== 0) return { error: j?.error ?? `exit ${p.code}: ${tail(p.err || p.out)}` };
  return row(p, {
    requests: j.requests,
    events: j.events,
    errors: j.errors,
    wall_s: j.wall_s,
    ttft_ms_p50: j.ttft_ms_p50,
    itl_ms_p50: j.itl_ms_p50,
    server_itl_ms_p50: j.server_itl_ms_p50,
    stamp_error_ms: j.fidelity_ms,
  });
}

/** `servebench profile` with default settings plus `extra`; figures from its profile_export.json. */
export async function servebench(ctx, mock, n, extra, { concurrency = C, raw = false, cpus = CLIENT_CPU } = {}) {
  const dir = mkdtempSync(path.join(ctx.tmp, 'artifacts-'));
  const argv = [
    BIN,
    'profile',
    '--url',
    mock.url,
    '--concurrency',
    String(concurrency),
    '--osl',
    String(OSL),
    '--isl',
    String(ISL),
    '--request-count',
    String(n),
    '--artifact-dir',
    dir,
    ...extra,
  ];
  const p = await runMeasured(ctx, process.execPath, argv, cpus);
  try {
    const file = path.join(dir, 'profile_export.json');
    if (p.code !== 0 || !existsSync(file)) return { error: `exit ${p.code}: ${tail(p.err || p.out)}` };
    const x = JSON.parse(readFileSync(file, 'utf8'));
    const h = x.harness ?? {};
    const warnings = h.warnings ?? [];
    const succeeded = x.counts?.succeeded ?? 0;
    // CPU by kind of thread over the run (harness/threads.ts; Linux only, else NaN).
    const t = h.cpu?.threads;
    const out = row(p, {
      requests: succeeded,
      events: succeeded * EVENTS_PER_REQUEST,
      errors: (x.counts?.errored ?? 0) + (x.counts?.cancelled ?? 0),
      wall_s: x.metrics?.benchmark_duration?.avg ?? NaN,
      ttft_ms_p50: x.metrics?.time_to_first_token?.p50 ?? NaN,
      itl_ms_p50: x.metrics?.inter_token_latency?.p50 ?? NaN,
      elu: h.event_loop_utilization ?? NaN,
      js_busy_s: (h.event_loop_utilization ?? NaN) * (h.cpu?.wall_s ?? NaN),
      warnings,
      bottleneck: warnings.some((w) => /bottleneck/i.test(w)),
      thread_main_s: t?.main_s ?? NaN,
      thread_io_s: t?.io_s ?? NaN,
      thread_other_s: t?.other_s ?? NaN,
      thread_per_event_us: t?.per_event_us ?? null,
      run_cpu_s: (h.cpu?.user_s ?? NaN) + (h.cpu?.system_s ?? NaN),
      run_wall_s: h.cpu?.wall_s ?? NaN,
    });
    if (raw) Object.assign(out, stampsFromRecords(path.join(dir, 'records.jsonl')));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const STAMP = /"sb_send_ns":"(\d+)"/;
/** From a raw records.jsonl: client chunk stamp − server send stamp per event, and ITL p50 by each clock. */
export function stampsFromRecords(file) {
  const err = [];
  const itlC = [];
  const itlS = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line);
    if (r.status !== 'ok' || !Array.isArray(r.payloads)) continue;
    let first = null;
    let last = null;
    r.payloads.forEach((d, i) => {
      const m = STAMP.exec(d);
      if (!m) return;
      const pair = [Number(r.chunk_ns[i]), Number(m[1])];
      err.push(pair[0] - pair[1]);
      first ??= pair;
      last = pair;
    });
    if (first && last !== first) {
      itlC.push((last[0] - first[0]) / (OSL - 1));
      itlS.push((last[1] - first[1]) / (OSL - 1));
    }
  }
  err.sort((a, b) => a - b);
  const q = (p) => (err.length ? err[Math.min(err.length - 1, Math.floor(p * err.length))] / 1e6 : NaN);
  return {
    stamp_error_ms: { count: err.length, p50: q(0.5), p99: q(0.99), max: err.length ? err[err.length - 1] / 1e6 : NaN },
    stamped_itl_ms_p50: median(itlC) / 1e6,
    server_itl_ms_p50: median(itlS) / 1e6,
  };
}

/** Runs a client and notes the mock's CPU share over it (is the mock the bottleneck?). */
export async function withMockShare(mock, fn) {
  const c0 = mock.cpu();
  const t0 = process.hrtime.bigint();
  const r = await fn();
  r.mock_cpu_share = (mock.cpu() - c0) / (Number(process.hrtime.bigint() - t0) / 1e9);
  return r;
}

/**
 * Runs the section; resolves with { results, tables, targets, scale } (tables in bench/lib.js
 * formatTable's shape, targets as "… met|missed" lines, scale: the I/O-thread rows' notes and the
 * 16-core prediction, one line each).
 */
export async function runE2E({ quick = false, reps = null, log = () => {} } = {}) {
  const R = reps ?? (quick ? 1 : 3);
  const SMALL = 1024;
  const BIG = quick ? 2048 : 4096;
  const KEEP_N = quick ? 1024 : 4096;
  const results = { reps: R, concurrency: C, osl: OSL, isl: ISL, small: SMALL, big: BIG, keep_requests: KEEP_N, pinned: canPin, runs: {} };
  if (C + 300 > fdLimit) {
    log(`  e2e: skipped, needs ~${C + 300} descriptors per process, the limit is ${fdLimit}`);
    return { results, tables: [], targets: [`end-to-end section skipped: fd limit ${fdLimit} < ${C + 300}`], scale: [] };
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'servebench-e2e-'));
  try {
    const ctx = { tmp, tools: buildTools(tmp) };
    const help = spawnSync(process.execPath, [BIN, 'profile', '--help'], { encoding: 'utf8' }).stdout ?? '';
    const keys = Object.keys(clients).filter((k) => !clients[k].optional || help.includes(clients[k].optional));
    const labels = Object.fromEntries(keys.map((k) => [k, clients[k].label]));
    results.clients = labels;
    const scale = scaleClients({ quick });
    results.scale_clients = Object.fromEntries(
      Object.entries(scale).map(([k, c]) => [k, { label: c.label, flags: c.extra, cpus: String(c.cpus) }]),
    );
    const cost = await startMock(['--ttft-ms', String(COST.ttft), '--itl-ms', String(COST.itl)]);
    const keep = await startMock(['--ttft-ms', String(KEEP.ttft), '--itl-ms', String(KEEP.itl)]);
    const runs = results.runs;
    const put = (k, r) => (runs[k] ??= []).push(r);
    try {
      for (let rep = 0; rep < R; rep++) {
        for (const k of keys) {
          // --quick: the keeps-up setting for the floor, the peer and servebench's defaults only.
          const keepToo = !quick || ['c', 'aiohttp', 'sb'].includes(k);
          log(
            `  e2e ${rep + 1}/${R}: ${clients[k].label} — ${SMALL} and ${BIG} requests at ITL ${COST.itl} ms${keepToo ? `, ${KEEP_N} at ITL ${KEEP.itl} ms` : ''} …`,
          );
          put(`${k}:small`, await withMockShare(cost, () => clients[k].run(ctx, cost, SMALL)));
          put(`${k}:big`, await withMockShare(cost, () => clients[k].run(ctx, cost, BIG)));
          if (keepToo) put(`${k}:keep`, await withMockShare(keep, () => clients[k].run(ctx, keep, KEEP_N)));
        }
        log(
          `  e2e ${rep + 1}/${R}: servebench at --export-level raw (stamps; and with --kernel-stamps) and with one stream (memory baseline) …`,
        );
        put('sb:raw', await withMockShare(keep, () => servebench(ctx, keep, KEEP_N, ['--export-level', 'raw'], { raw: true })));
        put(
          'sb:rawk',
          await withMockShare(keep, () => servebench(ctx, keep, KEEP_N, ['--export-level', 'raw', '--kernel-stamps'], { raw: true })),
        );
        put('sb:one', await servebench(ctx, cost, 8, [], { concurrency: 1 }));
        // I/O threads (bench/e2e-scale.js): the cost setting; the keeps-up one too unless --quick.
        for (const [k, c] of Object.entries(scale)) {
          log(
            `  e2e ${rep + 1}/${R}: ${c.label} — ${SMALL} and ${BIG} requests at ITL ${COST.itl} ms${quick ? '' : `, ${KEEP_N} at ITL ${KEEP.itl} ms`} …`,
          );
          const run = (mock, n) => withMockShare(mock, () => servebench(ctx, mock, n, c.extra, { cpus: c.cpus }));
          put(`${k}:small`, await run(cost, SMALL));
          put(`${k}:big`, await run(cost, BIG));
          if (!quick) put(`${k}:keep`, await run(keep, KEEP_N));
        }
      }
    } finally {
      await cost.stop();
      await keep.stop();
    }
    const setting = { C, OSL, COST, KEEP, offeredCost: offered(C, COST), offeredKeep: offered(C, KEEP) };
    const main = report(results, keys, labels, setting);
    const sc = scaleReport(results, scale, setting);
    results.scale_prediction = sc.prediction;
    return { results, tables: [...main.tables, ...sc.tables], targets: main.targets, scale: sc.lines };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

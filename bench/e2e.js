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
// Events per request are the mock's stream: the role chunk, OSL tokens and [DONE] (OSL + 2), as the
// C reader and the Python client count them. Figures are medians over interleaved repetitions (each
// repetition runs every client once in each setting); marginal figures pair the runs of one
// repetition.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, CLIENT_CPU, PYTHON, canPin, fdLimit, pinned, startMock } from './harness-procs.js';
import { median, root } from './lib.js';

const C = 1024;
const OSL = 128;
const ISL = 16;
const EVENTS_PER_REQUEST = OSL + 2;
const COST = { ttft: 1, itl: 1 };
const KEEP = { ttft: 5, itl: 5 };
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
 * Runs a client pinned to the client core under the rusage wrapper; resolves with its output, its
 * rusage and its main thread's CPU seconds (polled every 20 ms until it exits: the last sample
 * misses at most the final 20 ms).
 */
function runMeasured(ctx, cmd, argv) {
  const ruFile = path.join(ctx.tmp, `rusage-${seq++}.json`);
  const [c, a] = pinned(CLIENT_CPU, cmd, argv);
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
  return {
    user_s: p.ru?.user_s ?? NaN,
    sys_s: p.ru?.sys_s ?? NaN,
    maxrss_mib: p.ru ? p.ru.maxrss_kib / 1024 : NaN,
    main_thread_s: p.mainCpu,
    ...own,
  };
}

const clients = {
  c: { label: 'minimal C epoll reader (recv per readiness)', run: (ctx, mock, n) => cReader(ctx, mock, n, 0) },
  'c-coalesce': { label: 'C epoll reader, reading 100 µs after each wake-up', run: (ctx, mock, n) => cReader(ctx, mock, n, 100) },
  aiohttp: { label: 'Python aiohttp (json.loads per event, no tokenizer)', run: (ctx, mock, n) => aiohttp(ctx, mock, n) },
  sb: { label: 'servebench profile (native, defaults)', run: (ctx, mock, n) => servebench(ctx, mock, n, []) },
  'sb-server-count': { label: 'servebench --use-server-token-count', run: (ctx, mock, n) => servebench(ctx, mock, n, ['--use-server-token-count']) },
  'sb-summary': {
    label: 'servebench --export-level summary --use-server-token-count',
    run: (ctx, mock, n) => servebench(ctx, mock, n, ['--export-level', 'summary', '--use-server-token-count']),
  },
  'sb-undici': { label: 'servebench --transport undici', run: (ctx, mock, n) => servebench(ctx, mock, n, ['--transport', 'undici']) },
  // Only where the product has the flag (another change adds it).
  'sb-coalesce': { label: 'servebench --read-coalesce-us 100', optional: '--read-coalesce-us', run: (ctx, mock, n) => servebench(ctx, mock, n, ['--read-coalesce-us', '100']) },
};

async function cReader(ctx, mock, n, coalesceUs) {
  const p = await runMeasured(ctx, ctx.tools.epoll_reader, ['--port', String(mock.port), '--concurrency', String(C), '--requests', String(n), '--osl', String(OSL), '--coalesce-us', String(coalesceUs)]);
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
async function servebench(ctx, mock, n, extra, { concurrency = C, raw = false } = {}) {
  const dir = mkdtempSync(path.join(ctx.tmp, 'artifacts-'));
  const argv = [BIN, 'profile', '--url', mock.url, '--concurrency', String(concurrency), '--osl', String(OSL), '--isl', String(ISL), '--request-count', String(n), '--artifact-dir', dir, ...extra];
  const p = await runMeasured(ctx, process.execPath, argv);
  try {
    const file = path.join(dir, 'profile_export.json');
    if (p.code !== 0 || !existsSync(file)) return { error: `exit ${p.code}: ${tail(p.err || p.out)}` };
    const x = JSON.parse(readFileSync(file, 'utf8'));
    const h = x.harness ?? {};
    const warnings = h.warnings ?? [];
    const succeeded = x.counts?.succeeded ?? 0;
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
async function withMockShare(mock, fn) {
  const c0 = mock.cpu();
  const t0 = process.hrtime.bigint();
  const r = await fn();
  r.mock_cpu_share = (mock.cpu() - c0) / (Number(process.hrtime.bigint() - t0) / 1e9);
  return r;
}

/**
 * Runs the section; resolves with { results, tables, targets } (tables in bench/lib.js formatTable's
 * shape, targets as "… met|missed" lines).
 */
export async function runE2E({ quick = false, reps = null, log = () => {} } = {}) {
  const R = reps ?? (quick ? 1 : 3);
  const SMALL = 1024;
  const BIG = quick ? 2048 : 4096;
  const KEEP_N = quick ? 1024 : 4096;
  const results = { reps: R, concurrency: C, osl: OSL, isl: ISL, small: SMALL, big: BIG, keep_requests: KEEP_N, pinned: canPin, runs: {} };
  if (C + 300 > fdLimit) {
    log(`  e2e: skipped, needs ~${C + 300} descriptors per process, the limit is ${fdLimit}`);
    return { results, tables: [], targets: [`end-to-end section skipped: fd limit ${fdLimit} < ${C + 300}`] };
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'servebench-e2e-'));
  try {
    const ctx = { tmp, tools: buildTools(tmp) };
    const help = spawnSync(process.execPath, [BIN, 'profile', '--help'], { encoding: 'utf8' }).stdout ?? '';
    const keys = Object.keys(clients).filter((k) => !clients[k].optional || help.includes(clients[k].optional));
    results.clients = Object.fromEntries(keys.map((k) => [k, clients[k].label]));
    const cost = await startMock(['--ttft-ms', String(COST.ttft), '--itl-ms', String(COST.itl)]);
    const keep = await startMock(['--ttft-ms', String(KEEP.ttft), '--itl-ms', String(KEEP.itl)]);
    const runs = results.runs;
    const put = (k, r) => (runs[k] ??= []).push(r);
    try {
      for (let rep = 0; rep < R; rep++) {
        for (const k of keys) {
          // --quick: the keeps-up setting for the floor, the peer and servebench's defaults only.
          const keepToo = !quick || ['c', 'aiohttp', 'sb'].includes(k);
          log(`  e2e ${rep + 1}/${R}: ${clients[k].label} — ${SMALL} and ${BIG} requests at ITL ${COST.itl} ms${keepToo ? `, ${KEEP_N} at ITL ${KEEP.itl} ms` : ''} …`);
          put(`${k}:small`, await withMockShare(cost, () => clients[k].run(ctx, cost, SMALL)));
          put(`${k}:big`, await withMockShare(cost, () => clients[k].run(ctx, cost, BIG)));
          if (keepToo) put(`${k}:keep`, await withMockShare(keep, () => clients[k].run(ctx, keep, KEEP_N)));
        }
        log(`  e2e ${rep + 1}/${R}: servebench at --export-level raw (stamps) and with one stream (memory baseline) …`);
        put('sb:raw', await withMockShare(keep, () => servebench(ctx, keep, KEEP_N, ['--export-level', 'raw'], { raw: true })));
        put('sb:one', await servebench(ctx, cost, 8, [], { concurrency: 1 }));
      }
    } finally {
      await cost.stop();
      await keep.stop();
    }
    return { results, ...report(results, keys) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---- figures, tables, targets ---------------------------------------------------------------------
const good = (x) => x && !x.error && x.requests > 0;
const med = (xs) => {
  const v = xs.filter(Number.isFinite);
  return v.length ? median(v) : NaN;
};
/** Median over repetitions of fn(run of rep i, …) for the named runs. */
function over(runs, names, fn) {
  const lists = names.map((n) => runs[n] ?? []);
  const n = Math.min(...lists.map((l) => l.length));
  const vals = [];
  for (let i = 0; i < n; i++) {
    const xs = lists.map((l) => l[i]);
    if (xs.every(good)) vals.push(fn(...xs));
  }
  return med(vals);
}
const f = (x, d = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '—');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '—');
const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '—');
const firstError = (runs, names) => names.flatMap((n) => runs[n] ?? []).find((x) => x?.error || x?.errors > 0);
const why = (runs, names) => {
  const e = firstError(runs, names);
  return e ? ` (${e.error ?? `${e.errors} errors`})` : '';
};
const verdict = (ok) => (ok ? 'met' : 'missed');

function report(results, keys) {
  const r = results.runs;
  const marg = (k, field) => over(r, [`${k}:small`, `${k}:big`], (s, b) => ((b[field] - s[field]) / (b.events - s.events)) * 1e6);
  const m = Object.fromEntries(
    keys.map((k) => {
      const user = marg(k, 'user_s');
      const sys = marg(k, 'sys_s');
      return [k, { user, sys, total: user + sys, main: marg(k, 'main_thread_s'), busy: marg(k, 'js_busy_s') }];
    }),
  );
  const evs = (k, mode) => over(r, [`${k}:${mode}`], (x) => x.events / x.wall_s);
  const fig = (k, mode, field) => over(r, [`${k}:${mode}`], (x) => x[field]);
  const offCost = offered(C, COST);
  const offKeep = offered(C, KEEP);
  const tables = [];
  tables.push({
    title:
      `End to end, cost: concurrency ${f(C)}, OSL ${OSL}, mock TTFT ${COST.ttft} ms / ITL ${COST.itl} ms (${f(offCost)} events/s offered, more than one core reads); ` +
      `marginal CPU per event = (${f(results.big)}-request run − ${f(results.small)}-request run) / events, whole client process (wait4 rusage); medians of ${results.reps} interleaved repetitions`,
    columns: ['client', 'user µs/event', 'sys µs/event', 'total µs/event', '÷ aiohttp', '÷ C reader', 'main thread CPU µs/event', 'JS busy µs/event', 'events/s (big run)', 'ITL p50 ms (client / server stamps)', 'peak RSS MiB (big)', 'mock CPU'],
    rows: keys.map((k) => [
      clients[k].label + why(r, [`${k}:small`, `${k}:big`]),
      f(m[k].user, 2),
      f(m[k].sys, 2),
      f(m[k].total, 2),
      ratio(m[k].total, m.aiohttp?.total),
      ratio(m[k].total, m.c?.total),
      f(m[k].main, 2),
      k.startsWith('sb') ? f(m[k].busy, 2) : '—',
      f(evs(k, 'big')),
      `${f(fig(k, 'big', 'itl_ms_p50'), 2)} / ${f(fig(k, 'big', 'server_itl_ms_p50'), 2)}`,
      f(fig(k, 'big', 'maxrss_mib'), 1),
      pct(fig(k, 'big', 'mock_cpu_share')),
    ]),
  });
  // servebench's default rows carry no server stamps; the raw run of the same setting gives them.
  const serverItl = (k) => (k.startsWith('sb') ? fig('sb', 'raw', 'server_itl_ms_p50') : fig(k, 'keep', 'server_itl_ms_p50'));
  tables.push({
    title: `End to end, keeps up: concurrency ${f(C)}, OSL ${OSL}, mock TTFT ${KEEP.ttft} ms / ITL ${KEEP.itl} ms, ${f(results.keep_requests)} requests (${f(offKeep)} events/s offered); medians`,
    columns: ['client', 'events/s', '÷ offered', 'TTFT p50 ms', 'ITL p50 ms', 'server-stamp ITL p50 ms', 'ITL ÷ server', 'JS thread busy', 'harness names client bottleneck', 'mock CPU'],
    rows: keys.filter((k) => r[`${k}:keep`]).map((k) => {
      const itl = fig(k, 'keep', 'itl_ms_p50');
      const named = (r[`${k}:keep`] ?? []).filter(good).map((x) => x.bottleneck);
      return [
        clients[k].label + why(r, [`${k}:keep`]),
        f(evs(k, 'keep')),
        pct(evs(k, 'keep') / offKeep),
        f(fig(k, 'keep', 'ttft_ms_p50'), 2),
        f(itl, 3),
        f(serverItl(k), 3),
        ratio(itl, serverItl(k)),
        pct(fig(k, 'keep', 'elu')),
        named.length && k.startsWith('sb') ? `${named.filter(Boolean).length}/${named.length} runs` : '—',
        pct(fig(k, 'keep', 'mock_cpu_share')),
      ];
    }),
  });
  const rawStamp = (q) => over(r, ['sb:raw'], (x) => x.stamp_error_ms?.[q]);
  tables.push({
    title: `End to end, stamps: client stamp − mock send stamp per event (ms), keeps-up setting; servebench at --export-level raw (its chunk stamps), the peers by their own stamps`,
    columns: ['client', 'events stamped', 'p50', 'p99', 'max', 'ITL p50 by client stamps', 'by server stamps'],
    rows: [
      ['servebench profile (native, --export-level raw)' + why(r, ['sb:raw']), f(over(r, ['sb:raw'], (x) => x.stamp_error_ms?.count)), f(rawStamp('p50'), 3), f(rawStamp('p99'), 3), f(rawStamp('max'), 3), f(fig('sb', 'raw', 'stamped_itl_ms_p50'), 3), f(fig('sb', 'raw', 'server_itl_ms_p50'), 3)],
      ...['c', 'c-coalesce', 'aiohttp'].filter((k) => r[`${k}:keep`]).map((k) => {
        const s = (q) => over(r, [`${k}:keep`], (x) => x.stamp_error_ms?.[q]);
        return [clients[k].label, f(s('count')), f(s('p50'), 3), f(s('p99'), 3), f(s('max'), 3), f(fig(k, 'keep', 'itl_ms_p50'), 3), f(fig(k, 'keep', 'server_itl_ms_p50'), 3)];
      }),
    ],
  });

  const targets = [];
  const ach = evs('sb', 'keep') / offKeep;
  const itl = fig('sb', 'keep', 'itl_ms_p50');
  const ttft = fig('sb', 'keep', 'ttft_ms_p50');
  const named = (r['sb:keep'] ?? []).filter(good).map((x) => x.bottleneck);
  targets.push(`keeps up, events/s ≥ 95% of offered (${f(offKeep)}/s): ${pct(ach)} (${f(evs('sb', 'keep'))}/s) — ${verdict(ach >= 0.95)}`);
  targets.push(`keeps up, ITL p50 within 5% of ${KEEP.itl} ms: ${f(itl, 3)} ms (${f(((itl - KEEP.itl) / KEEP.itl) * 100, 1)}%; server stamps ${f(serverItl('sb'), 3)} ms) — ${verdict(Math.abs(itl - KEEP.itl) <= 0.05 * KEEP.itl)}`);
  targets.push(`keeps up, TTFT p50 < 10 ms: ${f(ttft, 2)} ms — ${verdict(ttft < 10)}`);
  targets.push(`keeps up, harness report does not name the client as the bottleneck: named in ${named.filter(Boolean).length} of ${named.length} runs — ${verdict(named.length > 0 && !named.some(Boolean))}`);
  const sb = m.sb;
  targets.push(
    `cost, marginal CPU ≤ 3 µs/event at c=1024, ITL 1 ms: ${f(sb?.total, 2)} µs (user ${f(sb?.user, 2)}, sys ${f(sb?.sys, 2)}; today 10.7) — ${ratio(sb?.total, m.aiohttp?.total)} aiohttp (${f(m.aiohttp?.total, 2)} µs), ${ratio(sb?.total, m.c?.total)} the C reader (${f(m.c?.total, 2)} µs) — ${verdict(sb?.total <= 3)}`,
  );
  targets.push(
    `cost, JS main thread ≤ 1 µs/event: ${f(sb?.main, 2)} µs of its CPU (/proc of the thread); busy (event-loop utilisation × wall, preemption included) ${f(sb?.busy, 2)} µs — ${verdict(sb?.main <= 1)}`,
  );
  const mem = over(r, ['sb:small', 'sb:one'], (s, one) => (s.maxrss_mib - one.maxrss_mib) / ((C - 1) / 1000));
  const memAll = over(r, ['sb:small'], (s) => s.maxrss_mib / (C / 1000));
  targets.push(
    `memory, RSS per 1,000 open streams ≤ 13.7 MiB (peak RSS of the ${f(results.small)}-request c=${f(C)} run minus a one-stream run, ÷ streams): ${f(mem, 1)} MiB (whole peak ÷ streams: ${f(memAll, 1)}) — ${verdict(mem <= 13.7)}`,
  );
  return { tables, targets };
}


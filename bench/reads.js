#!/usr/bin/env node
// Component harness (not the product end to end): the native engine's I/O cost per SSE event under
// read-coalescing and thread settings. `servebench mock --fast --stamp-events` runs pinned to the
// last core, each client (bench/harness-client.js: the native transport alone) to cpu 0; settings
// run in interleaved repetitions against one mock, and each row reports the median over them.
//   node bench/reads.js '{"settings":[{"readCoalesceUs":0},{"readCoalesceUs":100}],"reps":3,
//                         "concurrency":1024,"itlMs":1,"warmupS":1,"durationS":3,"osl":64}'
// A setting may also carry "threads" (I/O threads) and "env" (extra environment of the client).
// Per row: I/O-thread user and system µs per event, reads and wake-ups (polls) per event, events/s, stamp error
// (client stamp − the mock's send stamp) p50/p99 in µs, the engine's own read-delay p50/p99, the
// mock's CPU share (is it the bottleneck?) and the load average when the row ran.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatTable, root } from './lib.js';

const cfg = JSON.parse(process.argv[2] ?? '{}');
const {
  settings = [{ readCoalesceUs: 0 }, { readCoalesceUs: 100 }],
  reps = 3,
  concurrency = 1024,
  itlMs = 1,
  warmupS = 1,
  durationS = 3,
  osl = 64,
} = cfg;
const BIN = path.join(root, 'bin', 'servebench.js');
const CLIENT = path.join(root, 'bench', 'harness-client.js');
const cores = os.availableParallelism?.() ?? os.cpus().length;
const canPin = cores >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const pinned = (cpu, cmd, argv) => (canPin ? ['taskset', ['-c', String(cpu), cmd, ...argv]] : [cmd, argv]);
const log = (m) => process.stderr.write(`${m}\n`);

function procCpu(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

function startMock() {
  const [cmd, argv] = pinned(cores - 1, process.execPath, [
    BIN,
    'mock',
    '--fast',
    '--stamp-events',
    '--port',
    '0',
    '--exit-with-stdin',
    '--ttft-ms',
    '0',
    '--itl-ms',
    String(itlMs),
  ]);
  const child = spawn(cmd, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], pid: child.pid, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`mock exited (${code})`)));
  });
}

function runClient(url, s) {
  const c = {
    url,
    transport: 'native',
    concurrency,
    warmupS,
    durationS,
    osl,
    fidelity: true,
    threads: s.threads ?? 1,
    readCoalesceUs: s.readCoalesceUs ?? 0,
  };
  const [cmd, argv] = pinned(0, process.execPath, [CLIENT, JSON.stringify(c)]);
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...(s.env ?? {}) } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        resolve({ error: `exit ${code}: ${err.trim().split('\n').slice(-2).join(' | ')}` });
      }
    });
  });
}

const label = (s) =>
  s.label ?? `coalesce ${s.readCoalesceUs ?? 0} µs, ${s.threads ?? 1} thread(s)${s.env ? ' ' + JSON.stringify(s.env) : ''}`;
const median = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor((v.length - 1) / 2)] : NaN;
};

const mock = await startMock();
const rows = settings.map(() => []);
log(
  `bench/reads (component harness): c=${concurrency}, ITL ${itlMs} ms, ${durationS} s per run, ${reps} interleaved reps, ${canPin ? 'client cpu 0, mock cpu ' + (cores - 1) : 'no pinning'}`,
);
for (let rep = 0; rep < reps; rep++) {
  for (let i = 0; i < settings.length; i++) {
    const m0 = procCpu(mock.pid);
    const t0 = Date.now();
    const r = await runClient(mock.url, settings[i]);
    const wall = (Date.now() - t0) / 1000;
    if (r.error || !r.io_window) {
      log(`  ${label(settings[i])}: ${r.error ?? 'no stats'}`);
      continue;
    }
    const w = r.io_window;
    const row = {
      sys_us: (w.system_s / r.events) * 1e6,
      user_us: (w.user_s / r.events) * 1e6,
      reads_per_event: w.reads / r.events,
      polls_per_event: w.polls / r.events,
      events_s: r.events / r.wall_s,
      stamp_p50_us: r.fidelity_ms ? r.fidelity_ms.p50 * 1e3 : NaN,
      stamp_p99_us: r.fidelity_ms ? r.fidelity_ms.p99 * 1e3 : NaN,
      delay_p50_us: w.read_delay_us.p50,
      delay_p99_us: w.read_delay_us.p99,
      mock_cpu: (procCpu(mock.pid) - m0) / wall,
      load: os.loadavg()[0],
      errors: r.errors,
      requests: r.requests,
      js_cpu: (r.thread_cpu_s?.['js-main'] ?? 0) / r.wall_s,
      io_cpu: (w.user_s + w.system_s) / r.wall_s,
    };
    rows[i].push(row);
    log(
      `  rep ${rep} ${label(settings[i])}: ${JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Math.round(v * 100) / 100])))}`,
    );
  }
}
mock.stop();

const cols = [
  'sys_us',
  'user_us',
  'reads_per_event',
  'polls_per_event',
  'events_s',
  'stamp_p50_us',
  'stamp_p99_us',
  'delay_p50_us',
  'delay_p99_us',
  'mock_cpu',
  'load',
];
const fmt = (v) => (!Number.isFinite(v) ? '-' : v >= 1000 ? Math.round(v).toString() : v.toFixed(2));
const table = {
  title: `native engine I/O cost per event — component harness (c=${concurrency}, ITL ${itlMs} ms; medians of ${reps} interleaved reps)`,
  columns: [
    'setting',
    'sys µs/ev',
    'user µs/ev',
    'reads/ev',
    'polls/ev',
    'events/s',
    'stamp p50 µs',
    'stamp p99 µs',
    'read delay p50 µs',
    'read delay p99 µs',
    'mock cpu',
    'load1',
  ],
  rows: settings.map((s, i) => [label(s), ...cols.map((k) => fmt(median(rows[i].map((r) => r[k]))))]),
};
process.stdout.write(formatTable(table) + '\n');
if (cfg.json) process.stdout.write(JSON.stringify({ settings, rows }) + '\n');
process.exit(0);

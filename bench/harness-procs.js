// Processes of the harness benchmark (bench/harness.js, bench/e2e.js): the mock pinned to the last
// core, clients to the first (taskset, when there are two cores or more), CPU of a running process
// from /proc, the Python that has aiohttp.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './lib.js';

export const BIN = path.join(root, 'bin', 'servebench.js');
export const cores = os.availableParallelism?.() ?? os.cpus().length;
export const canPin = cores >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
export const MOCK_CPU = cores - 1;
export const CLIENT_CPU = 0;
export const fdLimit = Number(spawnSync('sh', ['-c', 'ulimit -n']).stdout.toString().trim()) || 1024;
export const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The first python3 that can import aiohttp (Debian's python3-aiohttp lives in /usr/bin/python3). */
export const PYTHON = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import aiohttp']).status === 0) ?? null;

/** [cmd, argv] that runs `cmd argv` pinned to `cpu` where pinning is possible. */
export function pinned(cpu, cmd, argv) {
  return canPin ? ['taskset', ['-c', String(cpu), cmd, ...argv]] : [cmd, argv];
}

/** CPU seconds used so far by process `pid` (user + system, from /proc), or NaN. */
export function procCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Starts the fast mock (`extra`: its latency flags); resolves with its URL, port, CPU probe and a stop function. */
export function startMock(extra) {
  const [cmd, argv] = pinned(MOCK_CPU, process.execPath, [
    BIN,
    'mock',
    '--fast',
    '--stamp-events',
    '--port',
    '0',
    '--exit-with-stdin',
    ...extra,
  ]);
  const child = spawn(cmd, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`mock did not start: ${err}`)), 15_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (https?:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], port: Number(new URL(m[1]).port), stop, cpu: () => procCpu(child.pid) });
      }
    });
    child.once('exit', (code) => reject(new Error(`mock exited (${code}): ${err}`)));
  });
}

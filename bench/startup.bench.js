// Start-up of the CLI, as a user waits for it (issue 31): wall time of `servebench --version` and
// `--help`, the built-in mock from its spawn to its listening line, and `profile` from its launch
// until the server receives its first request (--url, a running mock; the default tokenizer, a local
// package). Each round runs every figure once, interleaved with `node -e 0` (the floor: a bare Node
// start on this host now) and with `aiperf --version` when AIPerf is installed, so a loaded host
// slows all of them alike. Medians over the rounds.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { importDist, median, now, root } from './lib.js';

export const description = 'CLI start-up: --version, --help, mock ready, profile to its first request (wall, vs node -e 0)';

const BIN = path.join(root, 'bin/servebench.js');

/** Wall ns of a process from spawn to exit; throws when it fails. */
function wall(cmd, args) {
  const t0 = now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ns = Number(now() - t0);
  if (r.error || r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.error?.message ?? r.stderr.trim()}`);
  return ns;
}

/** ns from `profile`'s launch (built-in mock) to its "started the built-in mock server" line. */
function profileMockUp(dir) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const args = [BIN, 'profile', '--request-count', '1', '--concurrency', '1', '--ui', 'none', '--artifact-dir', dir];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let up = null;
    readline.createInterface({ input: child.stderr }).on('line', (l) => {
      if (up === null && l.includes('started the built-in mock server')) up = Number(now() - t0);
    });
    child.on('exit', (code) => (code === 0 && up !== null ? resolve(up) : reject(new Error(`profile (built-in mock) exited ${code}`))));
  });
}

/** ns from `profile --url`'s launch to the mock's arrival stamp of its first request (both CLOCK_MONOTONIC). */
async function profileFirstRequest(url, requestsFile, dir) {
  fs.writeFileSync(requestsFile, '');
  const t0 = now();
  const args = [BIN, 'profile', '--url', url, '--model', 'mock-model', '--request-count', '1', '--concurrency', '1'];
  const child = spawn(process.execPath, [...args, '--ui', 'none', '--artifact-dir', dir], { stdio: 'ignore' });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`profile --url exited ${code}`);
  const first = fs
    .readFileSync(requestsFile, 'utf8')
    .split('\n')
    .find((l) => l.includes('"method":"POST"'));
  if (!first) throw new Error('the mock recorded no request');
  return Number(BigInt(/"ts_ns":(\d+)/.exec(first)[1]) - t0);
}

function hasAiperf() {
  const r = spawnSync('aiperf', ['--version'], { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

export async function run(ctx) {
  const spawnMod = await importDist('mock/spawn.js');
  if (!spawnMod) return { tables: [], notes: ['dist/ is not built: run `npm run build:ts` first'] };
  const rounds = ctx.quick ? 3 : 10;
  const aiperf = hasAiperf();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'servebench-startup-'));
  const requestsFile = path.join(tmp, 'requests.jsonl');
  // The running server of the --url figure: the built-in mock, recording each request's arrival.
  const server = await spawnMod.spawnMock(['--record-requests', requestsFile]);
  const samples = { floor: [], aiperf: [], version: [], help: [], mock: [], profileMock: [], firstRequest: [] };
  try {
    for (let i = 0; i < rounds; i++) {
      ctx.log(`  startup: round ${i + 1} of ${rounds}`);
      samples.floor.push(wall(process.execPath, ['-e', '0']));
      if (aiperf) samples.aiperf.push(wall('aiperf', ['--version']));
      samples.version.push(wall(process.execPath, [BIN, '--version']));
      samples.help.push(wall(process.execPath, [BIN, '--help']));
      const t0 = now();
      const mock = await spawnMod.spawnMock([]);
      samples.mock.push(Number(now() - t0));
      await mock.stop();
      samples.firstRequest.push(await profileFirstRequest(server.url, requestsFile, path.join(tmp, `url-${i}`)));
      samples.profileMock.push(await profileMockUp(path.join(tmp, `mock-${i}`)));
    }
  } finally {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const floor = median(samples.floor);
  const ms = (ns) => `${(ns / 1e6).toFixed(0)} ms`;
  const row = (what, xs, target) => [what, ms(median(xs)), ms(Math.min(...xs)), ms(median(xs) - floor), target];
  const rows = [
    row('node -e 0 (the floor)', samples.floor, ''),
    ...(aiperf ? [row('aiperf --version', samples.aiperf, '')] : []),
    row('servebench --version', samples.version, '≤ 150 ms'),
    row('servebench --help', samples.help, '≤ 150 ms'),
    row('mock: spawn to listening', samples.mock, '≤ 300 ms'),
    row('profile --url: launch to first request', samples.firstRequest, '≤ 400 ms'),
    row('profile (built-in mock): launch to mock up', samples.profileMock, ''),
  ];
  return {
    tables: [
      {
        title: `start-up, wall, median of ${rounds} interleaved rounds`,
        columns: ['what', 'median', 'min', 'median − floor', 'target'],
        rows,
      },
    ],
    notes: [
      aiperf
        ? 'aiperf --version: the installed AIPerf'
        : 'AIPerf is not installed here (a Python package): node -e 0 is the only reference',
      `host: ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end; targets are for a quiet host`,
    ],
  };
}

// A full disk under the artifact dir, and a stdout that cannot be written, against the mock as its
// own process. The full disk is a real 64 KiB tmpfs, mounted in a private mount namespace
// (`unshare -rm`, no root needed where user namespaces are allowed), or directly when root; where
// neither is possible the dir is made read-only instead (EACCES): the same path through the code,
// one clear line and exit code 1 either way. stdout goes to /dev/full (ENOSPC) or a closed pipe (EPIPE).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVEBENCH_BIN, spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir, type CliResult } from '../helpers/cli.js';
import { expectRunInvariants } from '../helpers/hostile.js';

const STACK = /\n\s+at .+:\d+:\d+\)?\n/;

/** How this host can give a tiny full filesystem: a private mount namespace, a plain mount (root), or none. */
function tinyFsKind(): 'unshare' | 'mount' | 'readonly' {
  const probe = tmpDir();
  const u = spawnSync('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs ${probe}`]);
  if (u.status === 0) return 'unshare';
  if (process.getuid?.() === 0) {
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
    if (m.status === 0) {
      spawnSync('umount', [probe]);
      return 'mount';
    }
  }
  return 'readonly';
}

/** Runs the CLI with its stdout on an fd (/dev/full), or into a pipe whose reader has exited (`| true`: EPIPE). */
function runWithStdout(args: string[], stdout: number | 'closed-pipe'): Promise<CliResult> {
  return new Promise((resolve) => {
    const quoted = [process.execPath, SERVEBENCH_BIN, ...args].map((a) => `'${a}'`).join(' ');
    // pipefail: the pipeline's status is servebench's, not true's.
    const child =
      stdout === 'closed-pipe'
        ? spawn('bash', ['-c', `set -o pipefail; ${quoted} | true`], { stdio: ['ignore', 'ignore', 'pipe'] })
        : spawn(process.execPath, [SERVEBENCH_BIN, ...args], { stdio: ['ignore', stdout, 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout: '', stderr }));
  });
}

let mock: SpawnedMock;
beforeAll(async () => {
  mock = await spawnMock(['--ttft-ms', '2', '--itl-ms', '1']);
});
afterAll(async () => {
  await mock?.stop();
});

const profileArgs = (transport: string, dir: string, count: number) => [
  'profile',
  '--url',
  mock.url,
  '--transport',
  transport,
  '--request-count',
  String(count),
  '--concurrency',
  '4',
  '--osl',
  '5',
  '--record-workers',
  '1',
  '--artifact-dir',
  dir,
  '--ui',
  'none',
];

describe.each(['native', 'undici'])('a full disk under the artifact dir on %s', (transport) => {
  it('one line naming the file and the error, exit code 1, whole lines only in records.jsonl, the summary on stdout', async () => {
    const kind = tinyFsKind();
    const mnt = tmpDir();
    const out = tmpDir();
    const dir = path.join(mnt, 'run');
    // Enough requests that their records fill 64 KiB long before the run would end.
    const cli = [SERVEBENCH_BIN, ...profileArgs(transport, dir, 3000)].map((a) => `'${a}'`).join(' ');
    let r: CliResult;
    if (kind === 'readonly') {
      fs.mkdirSync(dir);
      fs.chmodSync(dir, 0o555);
      r = await runCli(profileArgs(transport, dir, 3000));
      fs.chmodSync(dir, 0o755);
      fs.cpSync(dir, path.join(out, 'run'), { recursive: true });
    } else {
      // The namespace's mount vanishes with it: the files are copied out before it ends.
      const script = `mount -t tmpfs -o size=64k tmpfs '${mnt}' && '${process.execPath}' ${cli}; rc=$?; cp -r '${dir}' '${out}/'; exit $rc`;
      const [cmd, ...pre] = kind === 'unshare' ? ['unshare', '-rm'] : ['sh'];
      r = await new Promise<CliResult>((resolve) => {
        const child = spawn(cmd, [...pre, ...(kind === 'unshare' ? ['sh'] : []), '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
        child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
        child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
      });
      if (kind === 'mount') spawnSync('umount', [mnt]);
    }
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(STACK);
    const failures = r.stderr.split('\n').filter((l) => /cannot write|internal error|Error\b/.test(l));
    expect(failures, r.stderr).toHaveLength(1);
    const errno = kind === 'readonly' ? 'EACCES: permission denied' : 'ENOSPC: no space left on device';
    expect(failures[0]).toBe(`servebench: cannot write ${path.join(dir, 'records.jsonl')}: ${errno}`);
    // The run stopped at the failure, and its summary (computed in memory) still reached the console.
    expect(r.stdout).toMatch(/Request Latency/);
    const issued = Number(/requests: (\d+) issued/.exec(r.stderr)?.[1]);
    expect(issued).toBeLessThan(3000);
    // What reached the disk is whole lines that analyze reads; no half-written export is left.
    const copy = path.join(out, 'run');
    if (kind !== 'readonly') {
      const text = fs.readFileSync(path.join(copy, 'records.jsonl'), 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const a = await runCli(['analyze', path.join(copy, 'records.jsonl'), '--artifact-dir', path.join(out, 'rebuilt')]);
      expect(a.code, a.stderr).toBe(0);
      expect(readJson(path.join(out, 'rebuilt', 'profile_export.json')).counts.issued).toBe(text.split('\n').length - 1);
    }
    for (const f of ['profile_export.json', 'profile_export.csv', 'histograms.json']) {
      if (fs.existsSync(path.join(copy, f))) expect(() => (f.endsWith('.json') ? readJson(path.join(copy, f)) : null)).not.toThrow();
    }
  });
});

describe.each(['native', 'undici'])('stdout that cannot be written, on %s', (transport) => {
  it('stdout on /dev/full (ENOSPC): one line, exit code 0, every export written', async () => {
    const dir = tmpDir();
    const fd = fs.openSync('/dev/full', 'w');
    const r = await runWithStdout(profileArgs(transport, dir, 8), fd);
    fs.closeSync(fd);
    const { json } = expectRunInvariants(r, dir);
    expect(json.counts.succeeded).toBe(8);
    const bad = r.stderr.split('\n').filter((l) => /cannot write/.test(l));
    expect(bad).toEqual([
      'servebench: cannot write to stdout: ENOSPC: no space left on device (the console output is lost; artifacts are not affected)',
    ]);
  });
});

describe('stdout on a closed pipe', () => {
  it('EPIPE costs the console output only: exit code 0, every export written', async () => {
    const dir = tmpDir();
    const r = await runWithStdout(profileArgs('native', dir, 8), 'closed-pipe');
    const { json } = expectRunInvariants(r, dir);
    expect(json.counts.succeeded).toBe(8);
    const bad = r.stderr.split('\n').filter((l) => /cannot write/.test(l));
    expect(bad).toEqual([
      'servebench: cannot write to stdout: EPIPE: broken pipe (the console output is lost; artifacts are not affected)',
    ]);
  });
});

// Spawns the hostile server (hostile-server.mjs, its own process) and checks the invariants every
// hostile case must keep: exit code, no stack trace, every export written, counts that add up to the
// records, and no secret in any artifact or log.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { CliResult } from './cli.js';

const SERVER = fileURLToPath(new URL('./hostile-server.mjs', import.meta.url));

export interface Hostile {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts `hostile-server.mjs MODE key=value…` and waits until it listens. */
export function spawnHostile(mode: string, params: Record<string, string | number> = {}): Promise<Hostile> {
  const args = [SERVER, mode, ...Object.entries(params).map(([k, v]) => `${k}=${v}`)];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('exit', (code) => reject(new Error(`hostile server (${mode}) exited with ${code}: ${err}`)));
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const m = /listening (\d+)/.exec(out);
      if (!m) return;
      const port = Number(m[1]);
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
  });
}

/** The exports every finished run writes. */
export const EXPORTS = ['profile_export.json', 'profile_export.csv', 'records.jsonl'];

export interface InvariantOptions {
  /** Expected exit code (default 0). */
  code?: number;
  /** Strings that must appear in no artifact, and not on stdout or stderr. */
  secrets?: string[];
  /** Exports that must exist (default EXPORTS). */
  exports?: string[];
}

/** Asserts the invariants of a hostile case and returns the records and the summary. */
export function expectRunInvariants(r: CliResult, dir: string, opts: InvariantOptions = {}): { recs: any[]; json: any } {
  expect(r.code, r.stderr).toBe(opts.code ?? 0);
  expect(r.stderr, 'a stack trace on stderr').not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  for (const f of opts.exports ?? EXPORTS) expect(fs.existsSync(path.join(dir, f)), `${f} written`).toBe(true);
  const lines = fs
    .readFileSync(path.join(dir, 'records.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const recs = lines.map((l) => JSON.parse(l));
  const json = JSON.parse(fs.readFileSync(path.join(dir, 'profile_export.json'), 'utf8'));
  const c = json.counts;
  expect(c.issued, 'issued = succeeded + errored + cancelled').toBe(c.succeeded + c.errored + c.cancelled);
  expect(recs.length, 'one record per issued request').toBe(c.issued);
  for (const s of opts.secrets ?? []) expectNoSecret(s, dir, r);
  return { recs, json };
}

/** Greps every file under dir (recursively), stdout and stderr for the secret. */
export function expectNoSecret(secret: string, dir: string, r?: CliResult): void {
  if (r) {
    expect(r.stdout.includes(secret), 'secret on stdout').toBe(false);
    expect(r.stderr.includes(secret), 'secret on stderr').toBe(false);
  }
  const walk = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  for (const f of walk(dir)) expect(fs.readFileSync(f).includes(secret), `secret in ${path.relative(dir, f)}`).toBe(false);
}

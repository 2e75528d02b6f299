// Issue 12 item 7, connections: an unsolicited 100 Continue, a server that closes idle keep-alive
// connections, a base URL with a query string, and HTTP_PROXY, on both transports.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmpDir } from '../helpers/cli.js';
import { expectRunInvariants, spawnHostile } from '../helpers/hostile.js';
import { spawnProxy } from '../helpers/proxy.js';

const TRANSPORTS = ['native', 'undici'] as const;
const SLOW = 120_000;

async function profile(url: string, transport: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const dir = tmpDir();
  const concurrency = extra.includes('--concurrency') ? [] : ['--concurrency', '2'];
  const r = await runCli(
    [
      'profile',
      '--url',
      url,
      '--transport',
      transport,
      '--request-count',
      '6',
      ...concurrency,
      '--artifact-dir',
      dir,
      '--ui',
      'none',
      ...extra,
    ],
    { env },
  );
  return { r, dir };
}

/** Both transports at once against one hostile server: every request must succeed. */
async function bothSucceed(mode: string, params: Record<string, string>, extra: string[] = []) {
  const h = await spawnHostile(mode, params);
  try {
    const runs = await Promise.all(TRANSPORTS.map((t) => profile(h.url, t, extra)));
    return runs.map(({ r, dir }, i) => {
      expect(fs.readdirSync(dir), `${TRANSPORTS[i]}: ${r.stderr}`).toContain('profile_export.json');
      const { json } = expectRunInvariants(r, dir);
      expect(json.counts, TRANSPORTS[i]).toEqual({ issued: 6, succeeded: 6, errored: 0, cancelled: 0 });
      return json;
    });
  } finally {
    await h.stop();
  }
}

describe('hostile server, connections (issue 12 item 7)', () => {
  it(
    'an unsolicited 100 Continue (and a 103) before the 200 is skipped on both transports',
    async () => {
      // Split reads are covered in test/unit/transport/undici-socket.test.ts.
      await bothSucceed('continue-100', { early: '1' });
    },
    SLOW,
  );

  it(
    'a kept-alive connection closed under a request it never answered: re-sent once, and counted',
    async () => {
      // race=1: every request that arrives on a reused connection is dropped unanswered. One at a
      // time, every second request reuses the connection of the one before: dropped, then re-sent
      // on a new connection, where it is answered (a re-send never reuses a connection).
      const jsons = await bothSucceed('idle-close', { race: '1' }, ['--concurrency', '1']);
      for (const [i, json] of jsons.entries()) expect(json.harness.retries, TRANSPORTS[i]).toBeGreaterThanOrEqual(2);
    },
    SLOW,
  );

  it(
    'a server closing idle keep-alive connections after 50 ms costs no request',
    async () => {
      await bothSucceed('idle-close', { ms: '50' }, ['--request-rate', '20']);
    },
    SLOW,
  );

  it(
    "a base URL's query string is kept on every request, after the joined path",
    async () => {
      const log = path.join(tmpDir(), 'paths.log');
      const h = await spawnHostile('query-echo', { log });
      try {
        for (const t of TRANSPORTS) {
          fs.rmSync(log, { force: true });
          // Without the server-metrics probe (GET <origin>/metrics), so the log holds only the run's requests.
          const { r, dir } = await profile(`${h.url}/prefix/?q=1&k=a%20b`, t, ['--no-server-metrics']);
          expectRunInvariants(r, dir);
          const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
          expect(lines[0], t).toBe('GET /prefix/v1/models?q=1&k=a%20b');
          expect(lines.slice(1), t).toEqual(Array(6).fill('POST /prefix/v1/chat/completions?q=1&k=a%20b'));
        }
      } finally {
        await h.stop();
      }
    },
    SLOW,
  );

  it(
    'HTTP_PROXY is used (undici, credentials kept secret); NO_PROXY bypasses it; native refuses it in one line',
    async () => {
      const secret = 'proxy-pass-7731';
      const proxy = await spawnProxy(`bench:${secret}`);
      const h = await spawnHostile('good');
      try {
        const env = { HTTP_PROXY: `http://bench:${secret}@127.0.0.1:${proxy.port}`, NO_PROXY: '', no_proxy: '' };
        const via = await profile(h.url, 'auto', [], env);
        const { json } = expectRunInvariants(via.r, via.dir, { secrets: [secret] });
        expect(json.counts.succeeded).toBe(6);
        expect(via.r.stderr).toContain('transport: requests go through the proxy in HTTP_PROXY');
        // The preflight and every connection of the run were tunnelled to the server.
        const tunnels = proxy.log();
        expect(tunnels.length).toBeGreaterThanOrEqual(2);
        for (const line of tunnels) expect(line).toBe(`CONNECT 127.0.0.1:${h.port}`);

        const before = tunnels.length;
        const bypass = await profile(h.url, 'auto', [], { ...env, NO_PROXY: '127.0.0.1' });
        expectRunInvariants(bypass.r, bypass.dir, { secrets: [secret] });
        expect(bypass.r.stderr).not.toContain('proxy');
        expect(proxy.log().length).toBe(before);

        const native = await profile(h.url, 'native', [], env);
        expect(native.r.code).toBe(2);
        expect(native.r.stderr.trim().split('\n')).toEqual([
          'servebench: --transport native does not support a proxy (HTTP_PROXY is set); use --transport undici',
        ]);
        expect(native.r.stderr).not.toContain(secret);
      } finally {
        await Promise.all([proxy.stop(), h.stop()]);
      }
    },
    SLOW,
  );
});

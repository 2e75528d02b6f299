// Secrets never reach an artifact or a log (issue 12, item 6): servers that echo the key, the
// credentials and every header, on both transports, at --export-level raw; every file is grepped.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmpDir, type CliResult } from '../helpers/cli.js';
import { expectRunInvariants, spawnHostile } from '../helpers/hostile.js';

const KEY = 'sk-hostile-KEY-0123456789';
const X_AUTH = 'x-auth-SECRET-4567';
const GIVEN_AUTH = 'Bearer hdr-token-SECRET-89';

function profile(url: string, transport: string, dir: string, extra: string[]): Promise<CliResult> {
  return runCli(
    [
      'profile',
      '--url',
      url,
      '--transport',
      transport,
      '--request-count',
      '4',
      '--concurrency',
      '2',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
      ...extra,
    ],
    { env: { OPENAI_API_KEY: '' } },
  );
}

describe.each(['native', 'undici'])('secrets on %s', (transport) => {
  it('a server echoing the key and every header inside SSE events: scrubbed from payloads, config and logs', async () => {
    const h = await spawnHostile('echo-auth-sse', { require: `Bearer ${KEY}` });
    try {
      const dir = tmpDir();
      const r = await profile(h.url, transport, dir, [
        '--api-key',
        KEY,
        '-H',
        `X-Auth: ${X_AUTH}`,
        '-H',
        `Authorization: ${GIVEN_AUTH}`,
        '-H',
        'User-Agent: harmless-agent/1',
        '--export-level',
        'raw',
      ]);
      const { recs, json } = expectRunInvariants(r, dir, { secrets: [KEY, X_AUTH, GIVEN_AUTH, 'hdr-token-SECRET-89'] });
      expect(json.counts.succeeded, 'the key was sent as the bearer token').toBe(4);
      // The overridden -H Authorization: one warning at start, naming no value.
      expect(r.stderr.match(/overrides -H Authorization/g)).toHaveLength(1);
      expect(recs[0].payloads.join('\n')).toContain('<redacted>');
      expect(json.config.headers).toEqual({ 'x-auth': '<redacted>', authorization: '<redacted>', 'user-agent': 'harmless-agent/1' });
      expect(json.config.api_key).toBe('<redacted>');
    } finally {
      await h.stop();
    }
  });

  it('credentials in --url are sent as Basic auth and never printed or saved', async () => {
    const user = 'bench-user';
    const pass = 'url-PASS-word-77';
    const basic = Buffer.from(`${user}:${pass}`).toString('base64');
    const h = await spawnHostile('echo-auth-sse', { require: `Basic ${basic}` });
    try {
      const dir = tmpDir();
      const url = `http://${user}:${pass}@127.0.0.1:${h.port}`;
      const r = await profile(url, transport, dir, ['--export-level', 'raw']);
      const { json } = expectRunInvariants(r, dir, { secrets: [pass, `${user}:${pass}`, basic] });
      expect(json.counts.succeeded, 'the credentials were sent as Basic auth').toBe(4);
      expect(json.config.url).toBe(`http://127.0.0.1:${h.port}`);
      expect(json.config.resolved_url).toBe(`http://127.0.0.1:${h.port}`);
      expect(json.config.url_credentials).toBe('<redacted>');
      expect(JSON.stringify(json)).not.toContain(user);
      expect(r.stderr).not.toContain(user);
    } finally {
      await h.stop();
    }
  });

  it('an error body echoing every header: scrubbed from the error records and the failure line', async () => {
    const h = await spawnHostile('echo-headers-401');
    try {
      const dir = tmpDir();
      const r = await profile(h.url, transport, dir, ['--api-key', KEY, '-H', `X-Auth: ${X_AUTH}`, '--export-level', 'raw']);
      const { recs } = expectRunInvariants(r, dir, { code: 1, secrets: [KEY, X_AUTH] });
      expect(recs.every((x) => x.error?.type === 'http_4xx')).toBe(true);
      expect(r.stderr).toMatch(/every request failed/);
    } finally {
      await h.stop();
    }
  });
});

it('records a record worker lost (rebuilt on the main thread) are scrubbed too', async () => {
  const h = await spawnHostile('echo-auth-sse');
  try {
    const dir = tmpDir();
    const r = await runCli(
      [
        'profile',
        '--url',
        h.url,
        '--request-count',
        '4',
        '--concurrency',
        '2',
        '--artifact-dir',
        dir,
        '--ui',
        'none',
        '--api-key',
        KEY,
        '--export-level',
        'raw',
      ],
      { env: { OPENAI_API_KEY: '', SERVEBENCH_RECORD_WORKER_CRASH: '1' } },
    );
    // Whether a later batch reaches a fresh worker depends on timing: 0 (some succeeded) or 1 (none).
    expect([0, 1]).toContain(r.code);
    const { recs } = expectRunInvariants(r, dir, { code: r.code ?? -1, secrets: [KEY] });
    expect(recs.some((x) => /record worker died/.test(x.error?.message ?? ''))).toBe(true);
  } finally {
    await h.stop();
  }
});

it('a model name echoing the key (GET /v1/models) is scrubbed from the config, the logs and the default artifact dir name', async () => {
  const h = await spawnHostile('echo-headers-everywhere');
  const cwd = tmpDir();
  try {
    const r = await runCli(
      ['profile', '--url', h.url, '--request-count', '2', '--concurrency', '1', '--ui', 'none', '--api-key', KEY, '--export-level', 'raw'],
      { env: { OPENAI_API_KEY: '' }, cwd },
    );
    const [dirName] = fs.readdirSync(path.join(cwd, 'artifacts'));
    expect(dirName).not.toContain(KEY);
    const dir = path.join(cwd, 'artifacts', dirName);
    const { json } = expectRunInvariants(r, dir, { secrets: [KEY] });
    expect(json.config.model).toBe('m-Bearer <redacted>');
  } finally {
    await h.stop();
  }
});

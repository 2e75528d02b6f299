// Bad servers give error records of the right type while the other requests succeed;
// bad input gives one line and exit code 2.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

async function profileAgainstFault(mode: string, every: number, extra: string[] = []) {
  const mock = await spawnMock(['--ttft-ms', '2', '--itl-ms', '1', '--fail-every', String(every), '--fail-mode', mode]);
  try {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--request-count',
      '12',
      '--concurrency',
      '3',
      '--osl',
      '10',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
      ...extra,
    ]);
    return { r, dir, recs: readJsonl(path.join(dir, 'records.jsonl')), json: readJson(path.join(dir, 'profile_export.json')) };
  } finally {
    await mock.stop();
  }
}

describe('bad server responses become error records; the run goes on', () => {
  it.each([
    ['http500', 'http_5xx', 500],
    ['http429', 'http_4xx', 429],
    ['reset', 'connection', 200],
    ['malformed', 'parse_error', 200],
    ['sse-error', 'sse_error', 200],
  ])('%s → %s', async (mode, type, status) => {
    const { r, recs, json } = await profileAgainstFault(mode, 3);
    expect(r.code, r.stderr).toBe(0);
    const errs = recs.filter((x) => x.status === 'error');
    expect(errs).toHaveLength(4); // requests 3, 6, 9, 12
    for (const e of errs) {
      expect(e.error.type).toBe(type);
      expect(e.error.http_status).toBe(status);
      // An error record carries only the error metrics: its prompt length (error_isl).
      expect(Object.keys(e.metrics)).toEqual(['error_isl']);
      expect(e.metrics.error_isl.value).toBe(128);
    }
    expect(json.metrics.total_error_isl.avg).toBe(4 * 128);
    expect(recs.filter((x) => x.status === 'ok')).toHaveLength(8);
    expect(json.counts).toEqual({ issued: 12, succeeded: 8, errored: 4, cancelled: 0 });
    expect(json.metrics.error_request_count.avg).toBe(4);
    expect(json.metrics.time_to_first_token.count).toBe(8);
  });

  it('a server that never answers gives timeout records', async () => {
    const { r, recs, json } = await profileAgainstFault('hang', 4, ['--request-timeout-seconds', '0.5']);
    expect(r.code, r.stderr).toBe(0);
    const errs = recs.filter((x) => x.status === 'error');
    expect(errs.length).toBe(3);
    for (const e of errs) expect(e.error.type).toBe('timeout');
    expect(json.counts.issued).toBe(json.counts.succeeded + json.counts.errored + json.counts.cancelled);
  });

  it('when every request fails, the report is still written and the exit code is non-zero', async () => {
    const { r, recs, json } = await profileAgainstFault('http500', 1);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/every request failed/);
    expect(recs).toHaveLength(12);
    expect(json.counts).toEqual({ issued: 12, succeeded: 0, errored: 12, cancelled: 0 });
  });
});

describe('bad input: one line, exit code 2', () => {
  const oneLine = (s: string) =>
    s
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '');

  it.each([
    [['profile', '--no-such-flag']],
    [['profile', '--concurrency', '0']],
    [['profile', '--concurrency', 'many']],
    [['profile', '--export-level', 'everything']],
    [['profile', '--url', 'ftp://example']],
    [['profile', '--header', 'nocolon']],
    [['profile', '--tokenizer', '/no/such/tokenizer.json', '--request-count', '1']],
    // A boolean given a value other than true/false (yargs alone would read it as false).
    [['profile', '--preconnect=maybe', '--request-count', '1']],
    [['profile', '--no-streaming=1', '--request-count', '1']],
    [['mock', '--fast=yes']],
  ])('%j', async (args) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    const lines = oneLine(r.stderr);
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^servebench: /);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a boolean given a value other than true or false names the flag', async () => {
    const r = await runCli(['profile', '--use-server-token-count=yes', '--request-count', '1']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual(['servebench: --use-server-token-count: expected true or false, got "yes"']);
  });

  it('an unreachable URL at start', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const dir = tmpDir();
    const r = await runCli(['profile', '--url', `http://127.0.0.1:${port}`, '--model', 'm', '--artifact-dir', dir]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+.*ECONNREFUSED/);
    expect(fs.readdirSync(dir)).toHaveLength(0);
  });
});

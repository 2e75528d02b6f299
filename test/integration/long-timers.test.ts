// Durations beyond one Node timer (2^31 − 1 ms, about 24.8 days) on both transports, against the
// mock as its own process: a 3,000,000 s (or 1e300 s) timeout, grace period, cancellation delay and
// duration neither fire at once nor warn; non-finite values are bad input (one line, exit code 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { runCli, tmpDir } from '../helpers/cli.js';
import { expectRunInvariants } from '../helpers/hostile.js';

describe('long durations', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '2']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it.each([
    ['native', '3000000'],
    ['undici', '3000000'],
    ['native', '1e300'],
    ['undici', '1e300'],
  ])('on %s, %s s for the timeout, grace, cancellation delay and duration: every request succeeds, nothing warns', async (transport, s) => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--transport',
      transport,
      '--request-count',
      '6',
      '--concurrency',
      '2',
      '--osl',
      '10',
      '--record-workers',
      '1',
      '--request-timeout-seconds',
      s,
      '--benchmark-grace-period',
      s,
      '--benchmark-duration',
      s,
      // Every request is chosen for cancellation, 3,000,000 s after it is sent: none is cancelled.
      '--request-cancellation-rate',
      '1',
      '--request-cancellation-delay',
      s,
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    const { json, recs } = expectRunInvariants(r, dir);
    expect(json.counts).toEqual({ issued: 6, succeeded: 6, errored: 0, cancelled: 0 });
    expect(recs.every((x) => x.error === null)).toBe(true);
    expect(r.stderr).not.toMatch(/Warning|TypeError/);
  });
});

describe('non-finite durations are bad input: one line naming the flag, exit code 2, nothing sent', () => {
  it.each([
    ['--request-timeout-seconds', 'Infinity'],
    ['--benchmark-duration', '1e309'],
    ['--benchmark-grace-period', 'NaN'],
    ['--benchmark-grace-period', '1e309'],
    ['--warmup-duration', 'Infinity'],
    ['--cooldown-duration', '1e309'],
    ['--concurrency-ramp-duration', 'NaN'],
    ['--profile-run-cooldown-seconds', 'Infinity'],
    ['--network-latency-ping-interval', '1e309'],
  ])('%s %s', async (flag, value) => {
    // Port 9 (discard) is never contacted: the flags are checked before anything starts.
    const r = await runCli(['profile', '--url', 'http://127.0.0.1:9', flag, value, '--artifact-dir', tmpDir(), '--ui', 'none']);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^servebench: ${flag}: `));
  });

  it('a cancellation delay of Infinity', async () => {
    const args = ['--request-cancellation-rate', '0.5', '--request-cancellation-delay', 'Infinity'];
    const r = await runCli(['profile', '--url', 'http://127.0.0.1:9', ...args, '--artifact-dir', tmpDir(), '--ui', 'none']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('servebench: --request-cancellation-delay: expected a number, got Infinity');
  });
});

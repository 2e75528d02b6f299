// Open-loop rates, the concurrency cap, the grace period, deliberate cancellation, a second
// Ctrl-C and conflicting flags: the real CLI against the mock as its own process.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

const ms = (a: number, b: number) => (a - b) / 1e6;

/** Most requests in flight at once, from the records' start/end stamps. */
function peakInFlight(recs: { start_ns: number; end_ns: number }[]): number {
  const ev = recs
    .flatMap(
      (r) =>
        [
          [r.start_ns, 1],
          [r.end_ns, -1],
        ] as [number, number][],
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let n = 0;
  let peak = 0;
  for (const [, d] of ev) peak = Math.max(peak, (n += d));
  return peak;
}

describe('open loop against the mock', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '2']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('--request-rate 50 constant: requests targeted 20 ms apart from the phase start, sent on time', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--request-rate',
      '50',
      '--arrival-pattern',
      'constant',
      '--request-count',
      '30',
      '--osl',
      '5',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/constant rate 50 req\/s/);
    const recs = readJsonl(path.join(dir, 'records.jsonl')).sort((a, b) => a.index - b.index);
    expect(recs).toHaveLength(30);
    const t0 = recs[0].targeted_start_ns;
    recs.forEach((x, i) => {
      // JSON numbers lose a few ns beyond 2^53; compare in µs.
      expect(Math.round(ms(x.targeted_start_ns, t0) * 1000)).toBe(i * 20_000);
      expect(x.start_ns).toBeGreaterThanOrEqual(x.targeted_start_ns - 1000);
      expect(x.metrics.request_dispatch_delay.unit).toBe('ms');
    });
    const j = readJson(path.join(dir, 'profile_export.json'));
    expect(j.load_mode).toBe('rate');
    expect(j.credits.profiling).toEqual({ sent: 30, completed: 30, succeeded: 30, errored: 0, cancelled: 0, in_flight: 0, unsent: 0 });
    // Stated tolerance: the median send lag stays under 2 ms on a shared 2-core host.
    expect(j.metrics.request_dispatch_delay.p50).toBeLessThan(2);
    expect(j.config.load.request_rate).toBe(50);
  });

  it('--request-rate with --concurrency: never more in flight, and the wait for a slot is dispatch delay', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--request-rate',
      '100',
      '--arrival-pattern',
      'constant',
      '--concurrency',
      '2',
      '--request-count',
      '16',
      '--osl',
      '20',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const recs = readJsonl(path.join(dir, 'records.jsonl'));
    expect(recs).toHaveLength(16);
    expect(peakInFlight(recs)).toBeLessThanOrEqual(2);
    const j = readJson(path.join(dir, 'profile_export.json'));
    // Each request takes ~45 ms, two at a time, while one is due every 10 ms: the queue grows.
    expect(j.metrics.request_dispatch_delay.max).toBeGreaterThan(100);
    for (const x of recs) expect(x.start_ns - x.credit_issued_ns).toBeGreaterThanOrEqual(-1000);
  });
});

describe('ending a run', () => {
  let slow: SpawnedMock;
  beforeAll(async () => {
    // 100 tokens 30 ms apart: 3 s a request.
    slow = await spawnMock(['--ttft-ms', '5', '--itl-ms', '30']);
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it('--benchmark-grace-period: requests still in flight when it ends are cancelled and recorded', async () => {
    const dir = tmpDir();
    const t0 = Date.now();
    const r = await runCli([
      'profile',
      '--url',
      slow.url,
      '--benchmark-duration',
      '0.4',
      '--benchmark-grace-period',
      '0.3',
      '--concurrency',
      '3',
      '--osl',
      '100',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    // Every request was cancelled, so none succeeded: exit code 1, the report still written.
    expect(r.code).toBe(1);
    expect(Date.now() - t0).toBeLessThan(15_000);
    const j = readJson(path.join(dir, 'profile_export.json'));
    const recs = readJsonl(path.join(dir, 'records.jsonl'));
    expect(j.counts).toEqual({ issued: 3, succeeded: 0, errored: 0, cancelled: 3 });
    expect(recs.every((x) => x.status === 'cancelled' && x.error.type === 'cancelled')).toBe(true);
    // Cancelled at the end of the grace period: ~0.7 s after the start, not after 3 s.
    for (const x of recs) {
      expect(ms(x.end_ns, x.start_ns)).toBeGreaterThan(600);
      expect(ms(x.end_ns, x.start_ns)).toBeLessThan(2000);
    }
    expect(j.phases.profiling.grace_period_expired).toBe(true);
    expect(j.phases.profiling.stop_reason).toBe('duration');
  });

  it('--request-cancellation-rate: a seeded share of requests is cancelled after the delay', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      slow.url,
      '--request-count',
      '24',
      '--concurrency',
      '24',
      '--osl',
      '10',
      '--request-cancellation-rate',
      '0.5',
      '--request-cancellation-delay',
      '0.1',
      '--random-seed',
      '3',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const recs = readJsonl(path.join(dir, 'records.jsonl'));
    const cancelled = recs.filter((x) => x.status === 'cancelled');
    expect(cancelled.length).toBeGreaterThan(4);
    expect(cancelled.length).toBeLessThan(20);
    for (const x of cancelled) {
      expect(ms(x.end_ns, x.start_ns)).toBeGreaterThan(90);
      expect(ms(x.end_ns, x.start_ns)).toBeLessThan(280); // a whole request takes ~300 ms
    }
    const j = readJson(path.join(dir, 'profile_export.json'));
    expect(j.counts.cancelled).toBe(cancelled.length);
    expect(j.counts.issued).toBe(24);
  });

  it('a second Ctrl-C cancels the requests in flight now; the exports still add up', async () => {
    const dir = tmpDir();
    let pid = 0;
    const run = runCli(
      [
        'profile',
        '--url',
        slow.url,
        '--request-count',
        '1000',
        '--concurrency',
        '4',
        '--osl',
        '100',
        '--artifact-dir',
        dir,
        '--ui',
        'none',
      ],
      {
        onSpawn: (p) => (pid = p),
      },
    );
    // Wait for the requests to be in flight (the first records are written, and their slots sent
    // again: records.jsonl itself is created before the first send), then Ctrl-C twice.
    const started = Date.now();
    const file = path.join(dir, 'records.jsonl');
    while (Date.now() - started < 20_000 && !(fs.existsSync(file) && fs.statSync(file).size > 0))
      await new Promise((res) => setTimeout(res, 50));
    await new Promise((res) => setTimeout(res, 500));
    process.kill(pid, 'SIGINT');
    await new Promise((res) => setTimeout(res, 300));
    process.kill(pid, 'SIGINT');
    const r = await run;
    expect(r.stderr).toMatch(/interrupted again: cancelling/);
    const j = readJson(path.join(dir, 'profile_export.json'));
    const recs = readJsonl(path.join(dir, 'records.jsonl'));
    expect(j.counts.issued).toBe(recs.length);
    expect(j.counts.issued).toBe(j.counts.succeeded + j.counts.errored + j.counts.cancelled);
    expect(j.counts.cancelled).toBe(4);
    expect(j.credits.profiling.in_flight).toBe(0);
    // The first requests (awaited above) succeeded; the cancelled ones are not failures.
    expect(j.counts.succeeded).toBeGreaterThanOrEqual(1);
    expect(r.code).toBe(0);
  });
});

describe('conflicting scheduling flags: one line naming both, exit code 2, nothing sent', () => {
  it.each([
    [['--fixed-schedule', '--request-rate', '5'], /--fixed-schedule: cannot be combined with --request-rate/],
    [['--sweep-size', '3'], /--sweep-size: needs --profile sweep/],
    [['--request-rate', '0'], /--request-rate: must be greater than 0/],
    [['--warmup-duration', '-1'], /--warmup-duration: must be greater than 0/],
    [['--benchmark-grace-period', '-2'], /--benchmark-grace-period: must be at least 0/],
    [['--request-cancellation-rate', '1.5'], /--request-cancellation-rate: must be in \[0, 1\]/],
    [['--concurrency', '1,2', '--request-rate', '3,4'], /--concurrency: .*--request-rate/],
    [['--fixed-schedule'], /--fixed-schedule: the synthetic dataset has no timestamps/],
  ])('%j', async (args, re) => {
    const dir = tmpDir();
    const r = await runCli(['profile', ...args, '--artifact-dir', dir, '--ui', 'none']);
    expect(r.code).toBe(2);
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('servebench: started the built-in mock'));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(re);
    expect(fs.existsSync(path.join(dir, 'records.jsonl'))).toBe(false);
  });
});

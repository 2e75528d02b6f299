// --search max-rate against a mock with a known capacity: 4 slots (--max-concurrent 4), each request
// served for a fixed time S = ttft + (osl − 1)·itl = 20 + 8·10 = 100 ms, so the capacity is μ = 4 / S.
// Under constant arrivals at λ ≤ μ nothing queues (TTFT = ttft); above it, request i waits
// i·(1/μ − 1/λ), so over a D-second run the share of requests whose wait stays within W is
// W·μ / ((λ − μ)·D). The largest rate at which that share is still F is λ* = μ·(1 + W / (F·D)).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

const SLOTS = 4;
const TTFT_MS = 20;
const ITL_MS = 10;
const OSL = 9;
const D = 2;
const F = 0.9;
const OBJECTIVE_MS = 70;
const TOLERANCE_PCT = 10;
const MAX_POINTS = 7;

describe('--search max-rate against a mock with a capacity', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--max-concurrent', String(SLOTS), '--ttft-ms', String(TTFT_MS), '--itl-ms', String(ITL_MS)]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('finds the rate where TTFT crosses the objective for 1 − F of the requests, within the tolerance and the budget', async () => {
    const dir = tmpDir();
    const r = await runCli(
      [
        'profile',
        '--url',
        mock.url,
        '--search',
        'max-rate',
        '--search-start',
        '24',
        '--search-tolerance',
        String(TOLERANCE_PCT),
        '--search-max-points',
        String(MAX_POINTS),
        '--goodput',
        `time_to_first_token:${OBJECTIVE_MS}`,
        '--slo-attainment-fraction',
        String(F),
        '--arrival-pattern',
        'constant',
        '--benchmark-duration',
        String(D),
        '--warmup-request-count',
        '4',
        '--benchmark-grace-period',
        '5',
        '--osl',
        String(OSL),
        '--isl',
        '20',
        '--no-server-metrics',
        '--record-workers',
        '1',
        '--artifact-dir',
        dir,
        '--ui',
        'none',
      ],
      { timeoutMs: 140_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const s = readJson(path.join(dir, 'search_summary.json'));
    const points = s.points as { point: number; load: number; pass: boolean; uncertain: boolean; dir: string; total: number }[];
    // Every point is listed, each a full run in its own folder with its warmup.
    expect(points.length).toBeGreaterThanOrEqual(3);
    expect(points.length).toBeLessThanOrEqual(MAX_POINTS);
    for (const p of points) {
      const j = readJson(path.join(dir, p.dir, 'profile_export.json'));
      expect(j.search_point.load).toBe(p.load);
      expect(j.phases.warmup).not.toBeNull();
      expect(j.config.load.request_rate).toBe(p.load);
      expect(p.total).toBeGreaterThan(0);
    }
    const csv = fs.readFileSync(path.join(dir, 'search_summary.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(points.length + 1);

    const a = s.answer;
    expect(s.ended).toBe('tolerance');
    expect(a.lo).not.toBeNull();
    expect(a.hi).not.toBeNull();
    expect(a.hi / a.lo - 1).toBeLessThanOrEqual(TOLERANCE_PCT / 100 + 1e-9);
    expect(r.stdout).toContain(
      `max rate meeting the SLOs: ${Number(a.value.toPrecision(6))} req/s ± ${Number(a.plusMinus.toPrecision(6))}`,
    );

    // The expected answer, with S and the unqueued TTFT as the client measured them at the slowest
    // passing point (the mock's timers and the socket add a little to the configured 100 and 20 ms).
    const slowest = points.filter((p) => p.pass).sort((x, y) => x.load - y.load)[0];
    const m = readJson(path.join(dir, slowest.dir, 'profile_export.json'));
    const latencyMs: number = m.metrics.request_latency.p50;
    const ttftMs: number = m.metrics.time_to_first_token.p50;
    const mu = SLOTS / (latencyMs / 1000);
    const expected = mu * (1 + (OBJECTIVE_MS - ttftMs) / 1000 / (F * D));
    // Honest margin: the search's own tolerance, plus 10 % for the timing noise of a loaded host (sends
    // that go out late bunch up and queue below the capacity, so a busy host finds a lower answer).
    expect(a.value).toBeGreaterThan(expected * (1 - TOLERANCE_PCT / 100 - 0.1));
    expect(a.value).toBeLessThan(expected * (1 + TOLERANCE_PCT / 100));
  }, 150_000);

  it('--search without --goodput: one line naming the flag, exit code 2', async () => {
    const r = await runCli(['profile', '--url', mock.url, '--search', 'max-rate', '--slo-attainment-fraction', '0.9', '--ui', 'none']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('servebench: --search: needs --goodput (the SLOs a load must meet)');
  });
});

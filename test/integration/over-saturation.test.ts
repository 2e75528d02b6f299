// --stop-on-over-saturation against the mock: past its capacity the run stops itself soon after the
// minimum duration; within it, five runs go to their end.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

const MIN_DURATION_S = 2;
/** The stated detection time: min duration, then both slopes significant for confirm_s (1 s), checked every 0.25 s; 1 s of slack for a loaded host. */
const DETECT_BY_S = MIN_DURATION_S + 1 + 0.25 + 1;

const common = (url: string, dir: string, rate: number, duration: number) => [
  'profile',
  '--url',
  url,
  '--request-rate',
  String(rate),
  '--benchmark-duration',
  String(duration),
  '--benchmark-grace-period',
  '0',
  '--stop-on-over-saturation',
  '--over-saturation-min-duration',
  String(MIN_DURATION_S),
  '--over-saturation-min-samples',
  '20',
  '--osl',
  '9',
  '--isl',
  '20',
  '--no-server-metrics',
  '--record-workers',
  '1',
  '--artifact-dir',
  dir,
  '--ui',
  'none',
];

describe('--stop-on-over-saturation', () => {
  let capped: SpawnedMock;
  let free: SpawnedMock;
  beforeAll(async () => {
    // 2 slots × 100 ms: 20 req/s of capacity.
    [capped, free] = await Promise.all([
      spawnMock(['--max-concurrent', '2', '--ttft-ms', '20', '--itl-ms', '10']),
      spawnMock(['--ttft-ms', '20', '--itl-ms', '10']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([capped?.stop(), free?.stop()]);
  });

  it('3× past the capacity: stops itself within the detection time, and says so in the export', async () => {
    const dir = tmpDir();
    const r = await runCli(common(capped.url, dir, 60, 20), { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/over-saturation at [\d.]+ s: requests in flight rising/);
    const j = readJson(path.join(dir, 'profile_export.json'));
    const o = j.over_saturation;
    expect(o.stopped).toBe(true);
    expect(o.stopped_at_s).toBeGreaterThanOrEqual(MIN_DURATION_S);
    expect(o.stopped_at_s).toBeLessThanOrEqual(DETECT_BY_S);
    expect(o.verdict.concurrency.slope).toBeGreaterThan(0);
    expect(o.verdict.concurrency.p_value).toBeLessThan(o.settings.alpha);
    expect(o.verdict.ttft_s.slope).toBeGreaterThan(0);
    expect(o.verdict.ttft_s.p_value).toBeLessThan(o.settings.alpha);
    expect(j.phases.profiling.stop_reason).toBe('over_saturation');
    expect(j.interrupted).toBe(false);
    // Issuing stopped there, far before the 20 s asked for.
    const issuedS = Number(BigInt(j.phases.profiling.issue_end_ns) - BigInt(j.phases.profiling.start_ns)) / 1e9;
    expect(issuedS).toBeLessThanOrEqual(DETECT_BY_S + 0.5);
    // Every issued request is accounted for.
    expect(j.counts.issued).toBe(j.counts.succeeded + j.counts.errored + j.counts.cancelled);
  });

  it('within the capacity: no false stop over 5 runs (run side by side)', async () => {
    const runs = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => {
        const dir = tmpDir();
        const r = await runCli(common(free.url, dir, 20, 3), { timeoutMs: 90_000 });
        return { r, j: r.code === 0 ? readJson(path.join(dir, 'profile_export.json')) : null };
      }),
    );
    for (const { r, j } of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(j.over_saturation.stopped).toBe(false);
      expect(j.over_saturation.checks).toBeGreaterThan(4);
      expect(j.phases.profiling.stop_reason).toBe('duration');
    }
  }, 150_000);
});

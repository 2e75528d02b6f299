// --stop-on-over-saturation against a mock past its capacity: the run stops itself soon after the
// minimum duration (over-saturation-no-false-stop.test.ts: within the capacity, it does not).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';
import { DETECT_BY_S, MIN_DURATION_S, overSaturationArgs } from '../helpers/over-saturation.js';

describe('--stop-on-over-saturation', () => {
  let capped: SpawnedMock;
  beforeAll(async () => {
    // 2 slots × 100 ms: 20 req/s of capacity.
    capped = await spawnMock(['--max-concurrent', '2', '--ttft-ms', '20', '--itl-ms', '10']);
  });
  afterAll(async () => {
    await capped?.stop();
  });

  it('3× past the capacity: stops itself within the detection time, and says so in the export', async () => {
    const dir = tmpDir();
    const r = await runCli(overSaturationArgs(capped.url, dir, 60, 20), { timeoutMs: 60_000 });
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
});

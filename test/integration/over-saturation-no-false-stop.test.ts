// --stop-on-over-saturation against a mock within its capacity (no queue, 20 req/s of 100 ms requests):
// five real runs, side by side, each to its end with no false stop.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';
import { overSaturationArgs } from '../helpers/over-saturation.js';

describe('--stop-on-over-saturation, not saturated', () => {
  let free: SpawnedMock;
  beforeAll(async () => {
    free = await spawnMock(['--ttft-ms', '20', '--itl-ms', '10']);
  });
  afterAll(async () => {
    await free?.stop();
  });

  it('within the capacity: no false stop over 5 runs (run side by side)', async () => {
    const runs = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => {
        const dir = tmpDir();
        const r = await runCli(overSaturationArgs(free.url, dir, 20, 3), { timeoutMs: 90_000 });
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

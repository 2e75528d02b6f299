// Generation delay end to end: a dataset whose iterator blocks (the test hook) shows in the
// exported generation_delay, a plain run does not.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

const DELAY_MS = 40;

describe('generation_delay', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '1', '--itl-ms', '1']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('a slow dataset is the bottleneck it is: every conversation shows its delay', async () => {
    const slowDir = tmpDir();
    const fastDir = tmpDir();
    const args = [
      'profile',
      '--url',
      mock.url,
      '--model',
      'mock-model',
      '--request-count',
      '6',
      '--concurrency',
      '2',
      '--osl',
      '2',
      '--isl',
      '16',
      '--ui',
      'none',
    ];
    const slow = await runCli([...args, '--artifact-dir', slowDir], { env: { SERVEBENCH_TEST_DATASET_DELAY_MS: String(DELAY_MS) } });
    const fast = await runCli([...args, '--artifact-dir', fastDir], { env: { SERVEBENCH_TEST_DATASET_DELAY_MS: '' } });
    expect(slow.code, slow.stderr).toBe(0);
    expect(fast.code, fast.stderr).toBe(0);
    const metric = (dir: string) => readJson(path.join(dir, 'profile_export.json')).metrics.generation_delay;
    const s = metric(slowDir);
    const f = metric(fastDir);
    expect(s.unit).toBe('ms');
    expect(s.count).toBe(6); // single-turn: one conversation per request
    expect(s.min).toBeGreaterThanOrEqual(DELAY_MS);
    expect(f.p50).toBeLessThan(DELAY_MS / 2);
    expect(slow.stdout).toMatch(/Generation Delay \(ms\)/);
  });
});

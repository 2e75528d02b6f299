// --stages against the fast mock as its own process: every stage's achieved send rate is within
// 3 % of its target's mean, the run ends with the last stage, and a concurrency target holds its
// slots to the target.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

describe('profile --stages', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--fast', '--ttft-ms', '1', '--itl-ms', '1']);
  });
  afterAll(async () => {
    await mock?.stop();
  });
  const base = () => ['profile', '--url', mock.url, '--model', 'mock-model', '--osl', '2', '--isl', '16', '--ui', 'none'];

  it('a rate target: each stage achieves its rate within 3 %, reported in the export and the console', async () => {
    const dir = tmpDir();
    // 0→80 over 1.5 s (60 due), 80 for 1.5 s (120), 80→0 over 1.5 s (60).
    const r = await runCli([...base(), '--stages', '1.5s:80,1.5s:80,1.5s:0', '--arrival-pattern', 'constant', '--artifact-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Stages \(request rate target\)/);
    const stages = readJson(path.join(dir, 'profile_export.json')).stages;
    expect(stages.map((s: { expected_requests: number }) => s.expected_requests)).toEqual([60, 120, 60]);
    for (const s of stages) {
      expect(Math.abs(s.achieved_ratio - 1), JSON.stringify(s)).toBeLessThanOrEqual(0.03);
      expect(s.achieved_rate).toBeCloseTo(s.sent / (s.end_s - s.start_s), 9);
    }
    const records = readJsonl(path.join(dir, 'records.jsonl'));
    expect(records).toHaveLength(240);
    expect(stages.reduce((a: number, s: { sent: number }) => a + s.sent, 0)).toBe(240);
  });

  it('a concurrency target: never more in flight than the target, and the slots follow it', async () => {
    const dir = tmpDir();
    // Requests of ~100 ms, so the client's own turnaround between a slot's requests is small beside them.
    const slow = await spawnMock(['--ttft-ms', '100', '--itl-ms', '1']);
    const r = await runCli([
      ...base().map((a) => (a === mock.url ? slow.url : a)),
      '--stages',
      '1s:4,1s:4,1s:0',
      '--stages-target',
      'concurrency',
      '--artifact-dir',
      dir,
    ]);
    await slow.stop();
    expect(r.code, r.stderr).toBe(0);
    const stages = readJson(path.join(dir, 'profile_export.json')).stages;
    expect(stages).toHaveLength(3);
    // The flat stage keeps close to 4 in flight, never above; the ramps sit between.
    expect(stages[1].mean_in_flight).toBeLessThanOrEqual(4);
    expect(stages[1].mean_in_flight).toBeGreaterThan(2);
    expect(stages[0].mean_in_flight).toBeLessThan(stages[1].mean_in_flight);
    expect(stages[2].mean_in_flight).toBeLessThan(stages[1].mean_in_flight);
    expect(stages[1].achieved_rate).toBeGreaterThan(0);
  });
});

// Sweeps through the CLI: a list of concurrencies, and GuideLLM's sweep.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

describe('sweeps against the mock', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '2']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('--concurrency 1,2,4: three points, three subfolders of exports, one summary row each', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--concurrency',
      '1,2,4',
      '--request-count',
      '8',
      '--osl',
      '5',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const subdirs = fs
      .readdirSync(dir)
      .filter((f) => fs.statSync(path.join(dir, f)).isDirectory())
      .sort();
    expect(subdirs).toEqual(['point-01-concurrency1', 'point-02-concurrency2', 'point-03-concurrency4']);
    for (const [i, d] of subdirs.entries()) {
      const j = readJson(path.join(dir, d, 'profile_export.json'));
      expect(j.config.concurrency).toBe([1, 2, 4][i]);
      expect(j.counts.issued).toBe(8);
      expect(j.sweep_point.index).toBe(i);
      expect(fs.existsSync(path.join(dir, d, 'records.jsonl'))).toBe(true);
    }
    const s = readJson(path.join(dir, 'sweep_summary.json'));
    expect(s.points).toHaveLength(3);
    expect(s.stopped).toBeNull();
    expect(s.points.map((p: { concurrency: number }) => p.concurrency)).toEqual([1, 2, 4]);
    for (const p of s.points) {
      expect(p.achieved_request_rate).toBeGreaterThan(0);
      expect(p.ttft_p50_ms).toBeGreaterThan(4);
      expect(p.ttft_p99_ms).toBeGreaterThanOrEqual(p.ttft_p50_ms);
      // (ITL can be 0 on a busy host, when two chunks arrive in one read.)
      expect(p.itl_p50_ms).toBeGreaterThanOrEqual(0);
      expect(p.itl_p99_ms).toBeGreaterThanOrEqual(p.itl_p50_ms);
      expect(p.output_token_throughput).toBeGreaterThan(0);
      expect(p.goodput).toBeNull();
    }
    const csv = fs.readFileSync(path.join(dir, 'sweep_summary.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(4);
    expect(csv[0]).toMatch(/^point,strategy,concurrency,target_request_rate,achieved_request_rate,ttft_p50_ms/);
    expect(r.stdout).toContain('Sweep');
  });

  it('--sweep-stop-on-slo: the first point whose good-request fraction is below the bar ends the sweep', async () => {
    const dir = tmpDir();
    // A TTFT SLO of 1 ms that a 5 ms mock never meets: point 1 has a good fraction of 0.
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--concurrency',
      '1,2,4',
      '--request-count',
      '6',
      '--osl',
      '5',
      '--goodput',
      'time_to_first_token:1',
      '--sweep-stop-on-slo',
      '--slo-attainment-fraction',
      '0.9',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/point 1 met its SLOs for 0\.0 % of requests/);
    const s = readJson(path.join(dir, 'sweep_summary.json'));
    expect(s.stopped).toBe('slo');
    expect(s.points).toHaveLength(1);
    expect(s.points[0].good_request_fraction).toBe(0);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('point-'))).toEqual(['point-01-concurrency1']);
  });

  it('--profile sweep --sweep-size 3: synchronous, throughput, then the throughput rate', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--profile',
      'sweep',
      '--sweep-size',
      '3',
      '--concurrency',
      '8',
      '--request-count',
      '16',
      '--osl',
      '5',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = readJson(path.join(dir, 'sweep_summary.json'));
    expect(s.points.map((p: { strategy: string }) => p.strategy)).toEqual(['synchronous', 'throughput', 'rate']);
    const [sync, thr, rate] = s.points;
    expect(sync.concurrency).toBe(1);
    expect(thr.concurrency).toBe(8);
    // linspace(sync, max, N − 1)[1:] with N = 3 is the throughput run's measured rate.
    expect(rate.target_request_rate).toBeCloseTo(thr.achieved_request_rate, 6);
    expect(thr.achieved_request_rate).toBeGreaterThan(sync.achieved_request_rate);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('point-'))).toHaveLength(3);
    const j = readJson(path.join(dir, s.points[2].dir, 'profile_export.json'));
    expect(j.load_mode).toBe('rate');
    expect(j.config.load.concurrency_cap).toBe(8);
  });
});

// `analyze` rebuilds the reports from records.jsonl alone: the same numbers as the run wrote.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

describe('servebench analyze', () => {
  let mock: SpawnedMock;
  let dir: string;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '10', '--itl-ms', '2', '--fail-every', '7', '--fail-mode', 'http500']);
    dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--request-count',
      '40',
      '--warmup-request-count',
      '3',
      '--concurrency',
      '4',
      '--osl',
      '16',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('recomputes every metric and the counts exactly', async () => {
    const out = path.join(dir, 'rebuilt');
    const r = await runCli(['analyze', path.join(dir, 'records.jsonl'), '--artifact-dir', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Time to First Token (ms)');
    const a = readJson(path.join(dir, 'profile_export.json'));
    const b = readJson(path.join(out, 'profile_export.json'));
    expect(b.counts).toEqual(a.counts);
    expect(a.counts.errored).toBeGreaterThan(0);
    expect(Object.keys(b.metrics).sort()).toEqual(Object.keys(a.metrics).sort());
    for (const [tag, entry] of Object.entries<Record<string, number>>(a.metrics)) {
      for (const field of ['avg', 'min', 'max', 'p50', 'p99', 'count']) {
        if (typeof entry[field] !== 'number') continue;
        const x = entry[field];
        const y = b.metrics[tag][field];
        expect(Math.abs(x - y), `${tag}.${field}: ${x} vs ${y}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(x)));
      }
    }
    expect(fs.existsSync(path.join(out, 'histograms.json'))).toBe(true);
  });

  it('bad input: a missing file or a broken line is one line and exit code 2', async () => {
    const missing = await runCli(['analyze', path.join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const broken = path.join(dir, 'broken.jsonl');
    const lines = fs.readFileSync(path.join(dir, 'records.jsonl'), 'utf8').split('\n');
    fs.writeFileSync(broken, [lines[0], '{"phase": "profiling", oops', lines[1]].join('\n'));
    const r = await runCli(['analyze', broken, '--artifact-dir', path.join(dir, 'x')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.jsonl:2: not JSON/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

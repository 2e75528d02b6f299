// `servebench profile` whose record worker dies (the SERVEBENCH_RECORD_WORKER_CRASH test hook): the
// run goes on, the lost records are _OTHER error records, and every count adds up.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

describe('profile with a record worker that crashes on its first batch', () => {
  let mock: SpawnedMock;
  let dir: string;
  let result: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '2', '--itl-ms', '1']);
    dir = tmpDir();
    result = await runCli(
      [
        'profile',
        '--url',
        mock.url,
        '--model',
        'mock-model',
        '--osl',
        '16',
        '--isl',
        '16',
        '--concurrency',
        '4',
        '--request-count',
        '60',
        '--warmup-request-count',
        '4',
        '--record-workers',
        '1',
        '--artifact-dir',
        dir,
        '--ui',
        'none',
      ],
      { env: { SERVEBENCH_RECORD_WORKER_CRASH: '1' }, timeoutMs: 120_000 },
    );
  }, 150_000);
  afterAll(async () => {
    await mock?.stop();
  });

  it('finishes the run with every request in records.jsonl', () => {
    expect(result.code, result.stderr).toBe(0);
    const recs = readJsonl(path.join(dir, 'records.jsonl'));
    expect(recs).toHaveLength(64);
    expect(new Set(recs.map((r) => r.x_request_id)).size).toBe(64);
  });

  it('makes the lost records _OTHER error records that say why, and processes the rest', () => {
    const recs = readJsonl(path.join(dir, 'records.jsonl'));
    const lost = recs.filter((r) => r.error?.type === '_OTHER');
    expect(lost.length).toBeGreaterThan(0);
    for (const r of lost) {
      expect(r.status).toBe('error');
      expect(r.error.message).toContain('record worker died');
    }
    const ok = recs.filter((r) => r.status === 'ok');
    expect(ok.length).toBeGreaterThan(0);
    for (const r of ok) expect(r.metrics.output_sequence_length.value).toBe(16);
  });

  it('keeps the credit counts, the records and the summary in agreement', () => {
    const j = readJson(path.join(dir, 'profile_export.json'));
    const recs = readJsonl(path.join(dir, 'records.jsonl'));
    for (const phase of ['warmup', 'profiling'] as const) {
      const c = j.credits[phase];
      const mine = recs.filter((r) => r.phase === phase);
      expect(c.sent).toBe(c.succeeded + c.errored + c.cancelled);
      expect(c.sent).toBe(mine.length);
      expect(c.succeeded).toBe(mine.filter((r) => r.status === 'ok').length);
      expect(c.errored).toBe(mine.filter((r) => r.status === 'error').length);
    }
    const profErrors = recs.filter((r) => r.phase === 'profiling' && r.status === 'error').length;
    expect(j.metrics.request_count.avg + (j.metrics.error_request_count?.avg ?? 0)).toBe(60);
    expect(j.metrics.error_request_count?.avg ?? 0).toBe(profErrors);
  });
});

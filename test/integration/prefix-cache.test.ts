// The theoretical prefix-cache hit rate of a hand-built mooncake trace through the CLI and the mock.
// Its rate does not depend on the order the entries are sent in: four requests with blocks
// [0,1,2,3] (the first misses 4, the others hit 4 each) and [10,11], [10,12] (one hit): 13 of 20.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

const TRACE = fileURLToPath(new URL('../fixtures/server-metrics/prefix-trace.jsonl', import.meta.url));

describe('theoretical prefix-cache hit rate', () => {
  it('is 100 · hit blocks / total blocks of the trace, beside the mock (which reports no prefix cache)', async () => {
    const dir = tmpDir();
    const r = await runCli(
      [
        'profile',
        '--ui',
        'none',
        '--artifact-dir',
        dir,
        '--input-file',
        TRACE,
        '--custom-dataset-type',
        'mooncake_trace',
        '--request-count',
        '6',
      ],
      { timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const json = readJson(path.join(dir, 'profile_export.json'));
    expect(json.metrics.theoretical_prefix_cache_hit_rate.avg).toBe(65);
    expect(r.stdout).toMatch(/Theoretical Prefix-Cache Hit Rate \(%\)\s*│\s*65\.00/);
    expect(json.server_metrics.cross_check.prefix_cache).toBeNull();
  });
});

// Issue 11: a run keeps no records for its summary, so its heap stays flat while requests finish.
// The real command against the fast mock (its own process), a full GC every 200 ms inside the
// client (test/fixtures/heap-sampler.mjs); the heap's growth over the middle of the run, per
// request finished in it, must stay far below what a kept record cost (about 1.2 KB at these
// lengths; measured here, the streaming summary holds about 70 bytes).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { spawnMock, type SpawnedMock } from '../helpers/mock.js';

const SAMPLER = fileURLToPath(new URL('../fixtures/heap-sampler.mjs', import.meta.url));

let mock: SpawnedMock;
beforeAll(async () => {
  mock = await spawnMock(['--fast', '--ttft-ms', '1', '--itl-ms', '1']);
});
afterAll(async () => {
  await mock?.stop();
});

describe('memory over a run', () => {
  it('holds under 400 bytes of heap per finished request (no record is kept for the summary)', async () => {
    const dir = tmpDir();
    const samples = path.join(dir, 'heap.json');
    const r = await runCli(
      [
        'profile',
        '--url',
        mock.url,
        '--concurrency',
        '32',
        '--osl',
        '32',
        '--isl',
        '32',
        '--benchmark-duration',
        '6',
        '--artifact-dir',
        dir,
        '--ui',
        'none',
      ],
      { env: { NODE_OPTIONS: `--import ${SAMPLER}`, HEAP_SAMPLES: samples }, timeoutMs: 90_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const heap = (readJson(samples) as { t_ns: string; heap: number }[]).map((s) => ({ t: BigInt(s.t_ns), heap: s.heap }));
    const json = readJson(path.join(dir, 'profile_export.json'));
    const start = BigInt(json.run.start_ns);
    const ends = readJsonl(path.join(dir, 'records.jsonl')).map((l) => BigInt(l.end_ns));
    // The middle of the profiling window: past the start-up, before the drain.
    const inRun = heap.filter((s) => s.t > start);
    expect(inRun.length).toBeGreaterThan(15);
    const a = inRun[Math.floor(inRun.length * 0.3)];
    const b = inRun[Math.floor(inRun.length * 0.85)];
    const finished = ends.filter((e) => e > a.t && e <= b.t).length;
    expect(finished).toBeGreaterThan(1000);
    const perRequest = (b.heap - a.heap) / finished;
    expect(perRequest, `heap ${a.heap} → ${b.heap} over ${finished} requests`).toBeLessThan(400);
  });
});

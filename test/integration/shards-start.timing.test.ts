// --start-at (issue 18): three shard processes told to start profiling at one instant 3 s ahead
// send their first profiling requests within 50 ms of one another, as the mock (one process, one
// clock) received them. Each shard's export carries its anchor, start and clock estimate.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';
import { leadFor, startupSeconds } from '../helpers/startup.js';

const SHARDS = 3;

describe('--start-at', () => {
  let mock: SpawnedMock;
  let dir: string;
  let log: string;
  let logFrom = 0;
  beforeAll(async () => {
    dir = tmpDir('servebench-start-at-');
    log = path.join(dir, 'requests.jsonl');
    mock = await spawnMock(['--ttft-ms', '2', '--itl-ms', '1', '--record-requests', log]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('starts every shard’s profiling phase at the same instant: first requests within 50 ms', async () => {
    const dataset = path.join(dir, 'prompts.jsonl');
    fs.writeFileSync(dataset, Array.from({ length: 30 }, (_, i) => JSON.stringify({ text: `prompt number ${i}` })).join('\n') + '\n');
    // 3 s ahead, as issue 18 asks; more on a host so busy that one process takes longer to start.
    const launched = Date.now();
    const probe = await runCli(
      [
        'profile',
        '--url',
        mock.url,
        '--request-count',
        '3',
        '--osl',
        '4',
        '--input-file',
        dataset,
        '--artifact-dir',
        path.join(dir, 'probe'),
      ],
      { timeoutMs: 90_000 },
    );
    expect(probe.code, probe.stderr).toBe(0);
    const lead = leadFor(SHARDS, startupSeconds(path.join(dir, 'probe'), launched), 3);
    // The mock keeps appending to its log: what the shards sent starts here.
    logFrom = fs.statSync(log).size;
    const startAtMs = Math.ceil(Date.now() / 1000) * 1000 + lead * 1000;
    const iso = new Date(startAtMs).toISOString();
    const runs = await Promise.all(
      Array.from({ length: SHARDS }, (_, i) =>
        runCli(
          [
            'profile',
            ...['--url', mock.url, '--concurrency', '3', '--request-count', '30', '--osl', '4', '--input-file', dataset],
            ...['--shard-index', String(i), '--shard-count', String(SHARDS), '--start-at', iso],
            ...['--artifact-dir', path.join(dir, `s${i}`), '--ui', 'none', '--no-server-metrics', '--record-workers', '1'],
          ],
          { timeoutMs: 90_000 },
        ),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    // The mock's log holds every prompt once (prompt i came from shard i mod 3).
    const text = fs.readFileSync(log).subarray(logFrom).toString('utf8');
    const sent = text.split('\n').filter((l) => l.includes('"POST"'));
    expect(sent.map((l) => Number(/prompt number (\d+)/.exec(l)![1])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
    // Each shard's first profiling request as it sent it (records.jsonl's start_ns), on the wall
    // clock through the shard's anchor: one host, one wall clock. (The mock's arrival stamps add the
    // mock's own event-loop delays on a busy host, which are the server's, not the shards'.)
    const firstSend = Array.from({ length: SHARDS }, (_, i) => {
      const p = readJson(path.join(dir, `s${i}`, 'profile_export.json'));
      const a = p.run.wall_anchor;
      const starts = fs
        .readFileSync(path.join(dir, `s${i}`, 'records.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"profiling"'))
        .map((l) => BigInt(/"start_ns":(\d+)/.exec(l)![1]));
      const min = starts.reduce((x, y) => (y < x ? y : x));
      return Number(BigInt(a.unix_ns) + (min - BigInt(a.monotonic_ns))) / 1e6;
    });
    const spreadMs = Math.max(...firstSend) - Math.min(...firstSend);
    for (let i = 0; i < SHARDS; i++) {
      const s = readJson(path.join(dir, `s${i}`, 'profile_export.json')).shard;
      expect(s, `shard ${i} export`).toMatchObject({ index: i, count: SHARDS, start_at: iso, late: false });
      expect(s.late_ms).toBeGreaterThanOrEqual(0);
      expect(['chrony', 'http_date']).toContain(s.clock.source);
      expect(typeof s.clock.offset_ms).toBe('number');
    }
    expect(spreadMs, `first profiling requests ${spreadMs.toFixed(1)} ms apart`).toBeLessThan(50);
  }, 300_000);
});

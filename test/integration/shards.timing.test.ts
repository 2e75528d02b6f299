// Sharded runs (issue 18): three shard processes on this machine against one mock (its own
// process), merged by `servebench merge`, checked against the shards' own records and against
// one process running the same load. And the merge's bad input.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { defaultRegistry } from '../../src/metrics/catalogue.js';
import { summarize } from '../../src/metrics/accumulate.js';
import { displayFactor } from '../../src/metrics/core/units.js';
import { readRecordsFile } from '../../src/records/read.js';
import type { ProcessedRecord } from '../../src/model/processed-record.js';
import { readJson, readJsonl, runCli, tmpDir, type CliResult } from '../helpers/cli.js';
import { remeasured } from '../helpers/remeasure.js';
import { leadFor, startupSeconds } from '../helpers/startup.js';

const SHARDS = 3;
// The runs' time limit: in beforeAll, and in a test whose retry takes them again.
const MEASURE_MS = 180_000;
const PERCENTILES = ['p0.1', 'p1', 'p5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'p99.9', 'min', 'max', 'count'];

describe('servebench profile --shard-index/--shard-count + servebench merge', () => {
  let mock: SpawnedMock;
  let log: string;
  let dataset: string;
  const load = () => [
    '--url',
    mock.url,
    '--concurrency',
    '12',
    '--request-count',
    '600',
    '--osl',
    '8',
    '--input-file',
    dataset,
    '--ui',
    'none',
  ];
  const shardDir = (dir: string, i: number) => path.join(dir, `shard-${i}`);

  // The single run and the shards, in a new folder each time; a failed test takes them again before
  // its retry.
  const measured = remeasured(async () => {
    const dir = tmpDir('servebench-shards-');
    // The same load from one process first (the throughput to match); its startup sizes the common
    // start, far enough ahead for three processes to start at once on this (busy) host, so that the
    // shards run side by side (the union window is then the window of one run).
    const launched = Date.now();
    const single = await runCli(['profile', ...load(), '--artifact-dir', path.join(dir, 'single')], { timeoutMs: 120_000 });
    expect(single.code, single.stderr).toBe(0);
    const lead = leadFor(SHARDS, startupSeconds(path.join(dir, 'single'), launched), 5);
    // The mock keeps appending to its log: what the shards sent starts here.
    const logFrom = fs.statSync(log).size;
    const startAt = String(Math.ceil(Date.now() / 1000) + lead);
    const shardRuns: CliResult[] = await Promise.all(
      Array.from({ length: SHARDS }, (_, i) =>
        runCli(
          [
            'profile',
            ...load(),
            '--shard-index',
            String(i),
            '--shard-count',
            String(SHARDS),
            '--start-at',
            startAt,
            '--artifact-dir',
            shardDir(dir, i),
          ],
          {
            timeoutMs: 120_000,
          },
        ),
      ),
    );
    return { dir, shardRuns, logFrom };
  });

  beforeAll(async () => {
    const work = tmpDir('servebench-shards-');
    log = path.join(work, 'requests.jsonl');
    dataset = path.join(work, 'prompts.jsonl');
    fs.writeFileSync(dataset, Array.from({ length: 600 }, (_, i) => JSON.stringify({ text: `prompt number ${i}` })).join('\n') + '\n');
    // The server, not the clients, sets the pace (75 ms a request, 160 req/s at 12 in flight): three
    // client processes on a 2-core host must offer the load one does, not race for its CPU.
    mock = await spawnMock(['--ttft-ms', '40', '--itl-ms', '5', '--record-requests', log]);
    await measured.prime();
  }, MEASURE_MS);
  afterAll(async () => {
    await mock?.stop();
  });

  it('merges into counts equal to the sum, with every percentile that of the shards’ records taken together', async () => {
    const { dir, shardRuns, logFrom } = await measured.get();
    for (const r of shardRuns) expect(r.code, r.stderr).toBe(0);
    for (const r of shardRuns) expect(r.stderr).not.toMatch(/started profiling .* after --start-at/);
    const out = path.join(dir, 'merged');
    const m = await runCli(['merge', ...Array.from({ length: SHARDS }, (_, i) => shardDir(dir, i)), '-o', out], { timeoutMs: 60_000 });
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toContain('Time to First Token (ms)');
    const merged = readJson(path.join(out, 'profile_export.json'));
    const shards = Array.from({ length: SHARDS }, (_, i) => readJson(path.join(shardDir(dir, i), 'profile_export.json')));
    for (const k of ['issued', 'succeeded', 'errored', 'cancelled'] as const) {
      expect(merged.counts[k]).toBe(shards.reduce((a, s) => a + s.counts[k], 0));
    }
    expect(merged.counts.issued).toBe(600);
    expect(merged.counts.issued).toBe(merged.counts.succeeded + merged.counts.errored + merged.counts.cancelled);
    expect(readJsonl(path.join(out, 'records.jsonl'))).toHaveLength(600);
    expect(merged.merge).toMatchObject({ shard_count: 3, shards_merged: [0, 1, 2], partial: false });
    expect(fs.existsSync(path.join(out, 'report.html'))).toBe(true);

    // One histogram of every shard's record values (the shards' own records.jsonl, concatenated).
    const registry = defaultRegistry();
    const all: ProcessedRecord[] = [];
    for (let i = 0; i < SHARDS; i++) all.push(...(await readRecordsFile(path.join(shardDir(dir, i), 'records.jsonl'), registry)));
    const together = summarize(all, { significantDigits: merged.histogram_significant_digits });
    let compared = 0;
    for (const d of together.metrics) {
      if (d.kind !== 'distribution') continue;
      const entry = merged.metrics[d.tag];
      expect(entry, d.tag).toBeDefined();
      const f = displayFactor(d.unit, d.display);
      for (const p of PERCENTILES) {
        const want = (d.stats as Record<string, number>)[p];
        if (p === 'count') expect(entry.count ?? d.stats.count, `${d.tag}.count`).toBe(d.stats.count);
        // The same HDR bucket: equal up to the float rounding of the unit conversion (a bucket is 0.1 % wide).
        else
          expect(Math.abs(entry[p] - want * f), `${d.tag}.${p}: ${entry[p]} vs ${want * f}`).toBeLessThanOrEqual(
            1e-12 * Math.abs(want * f),
          );
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(5);

    // Every prompt of the 600 was sent exactly once, by one shard or another (the mock's log).
    const prompts = fs
      .readFileSync(log)
      .subarray(logFrom)
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l))
      .filter((r) => r.method === 'POST')
      .map((r) => Number(/prompt number (\d+)/.exec(r.body.messages[0].content)![1]));
    expect(prompts).toHaveLength(600);
    expect([...prompts].sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, i) => i));

    // The same load from one process, run before the shards and again after them (interleaved, as
    // the host's load drifts): the merged request throughput within 10 % of their mean.
    const after = await runCli(['profile', ...load(), '--artifact-dir', path.join(dir, 'single-after')], { timeoutMs: 120_000 });
    expect(after.code, after.stderr).toBe(0);
    const rate = (d: string) => readJson(path.join(dir, d, 'profile_export.json')).metrics.request_throughput.avg as number;
    const one = (rate('single') + rate('single-after')) / 2;
    const many = merged.metrics.request_throughput.avg;
    expect(Math.abs(many / one - 1), `merged ${many} req/s vs one process ${rate('single')}, ${rate('single-after')} req/s`).toBeLessThan(
      0.1,
    );
  }, 400_000);

  it(
    'a missing shard fails the merge in one line naming it, unless --allow-partial, which records the shards merged',
    async () => {
      const { dir } = await measured.get();
      const out = path.join(dir, 'partial');
      const r = await runCli(['merge', shardDir(dir, 0), shardDir(dir, 2), '-o', out]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/shard 1 of 3 is missing/)]);
      const gone = await runCli(['merge', shardDir(dir, 0), path.join(dir, 'nope'), shardDir(dir, 2), '-o', out]);
      expect(gone.code).toBe(2);
      expect(gone.stderr).toMatch(/nope: no profile_export\.json/);
      const p = await runCli(['merge', shardDir(dir, 0), shardDir(dir, 2), '-o', out, '--allow-partial']);
      expect(p.code, p.stderr).toBe(0);
      const j = readJson(path.join(out, 'profile_export.json'));
      expect(j.merge).toMatchObject({ partial: true, shards_merged: [0, 2], missing: [1] });
      expect(j.counts.issued).toBe(400);
    },
    MEASURE_MS + 60_000,
  );

  it(
    'shards of different configs or servebench versions do not merge: one line, exit code 2',
    async () => {
      const { dir } = await measured.get();
      const other = path.join(dir, 'other-version');
      fs.cpSync(shardDir(dir, 1), other, { recursive: true });
      const pj = path.join(other, 'profile_export.json');
      fs.writeFileSync(pj, fs.readFileSync(pj, 'utf8').replace(/"servebench_version": "[^"]*"/, '"servebench_version": "0.0.1-other"'));
      const v = await runCli(['merge', shardDir(dir, 0), other, shardDir(dir, 2), '-o', path.join(dir, 'x')]);
      expect(v.code).toBe(2);
      expect(v.stderr.trim().split('\n')).toEqual([expect.stringMatching(/servebench 0\.0\.1-other/)]);
      const cfg = path.join(dir, 'other-config');
      fs.cpSync(shardDir(dir, 1), cfg, { recursive: true });
      const cj = path.join(cfg, 'profile_export.json');
      fs.writeFileSync(cj, fs.readFileSync(cj, 'utf8').replace(/"concurrency": 12/, '"concurrency": 13'));
      const c = await runCli(['merge', shardDir(dir, 0), cfg, shardDir(dir, 2), '-o', path.join(dir, 'y')]);
      expect(c.code).toBe(2);
      expect(c.stderr.trim().split('\n')).toEqual([expect.stringMatching(/different configs \(concurrency differs\)/)]);
    },
    MEASURE_MS + 60_000,
  );

  it('bad shard flags: one line naming the flag, exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--shard-index', '3', '--shard-count', '3'], /--shard-index: must be below --shard-count 3/],
      [['--shard-index', '0', '--shard-count', '0'], /--shard-count: must be at least 1/],
      [['--start-at', String(Math.floor(Date.now() / 1000) - 3600)], /--start-at: .* in the past/],
    ];
    for (const [flags, msg] of cases) {
      const r = await runCli(['profile', '--url', mock.url, ...flags, '--ui', 'none']);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(msg)]);
    }
  }, 60_000);
});

// GuideLLM's measurement window end to end: a run with a warmup and a cooldown under
// --convention guidellm against a mock process. Requests in flight when the measured part ends
// stream on into the cooldown: their tokens after measure_end leave the token rate, and one whose
// first token comes after it leaves ITL (the rules themselves: test/unit/metrics/families/guidellm-window.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

const OSL = 20;

describe('--convention guidellm with a warmup and a cooldown (mock process)', () => {
  let mock: SpawnedMock;
  let dir: string;
  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '30', '--itl-ms', '20']);
    dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--model',
      'mock-model',
      '--ui',
      'none',
      '--osl',
      String(OSL),
      '--concurrency',
      '4',
      '--warmup-request-count',
      '2',
      '--benchmark-duration',
      '1.5',
      '--cooldown-duration',
      '1',
      '--convention',
      'guidellm',
      '--artifact-dir',
      dir,
    ]);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('ITL counts only the profiling requests whose first token → completion overlaps the window', () => {
    const text = fs.readFileSync(path.join(dir, 'profile_export.json'), 'utf8');
    const end = Number(/"measurement_window":\s*\{\s*"start_ns":\s*\d+,\s*"end_ns":\s*(\d+)/.exec(text)![1]);
    const recs = readJsonl(path.join(dir, 'records.jsonl')).filter((r) => r.phase === 'profiling' && r.status === 'ok');
    const j = readJson(path.join(dir, 'profile_export.json'));
    // Token-weighted (OSL − 1 per request), over the requests whose first token is not after the window.
    const firstToken = (r: any) => Number(r.start_ns) + r.metrics.time_to_first_token.value * 1e6;
    const inside = recs.filter((r) => firstToken(r) <= end);
    expect(j.metrics.inter_token_latency.count).toBe(inside.reduce((n, r) => n + r.metrics.output_sequence_length.value - 1, 0));
    // TTFT: every profiling request starts inside the window, so each one counts.
    expect(j.metrics.time_to_first_token.count).toBe(recs.length);
  });

  it('the output token rate counts the tokens inside the window, over its length', () => {
    const j = readJson(path.join(dir, 'profile_export.json'));
    const w = j.measurement_window;
    const seconds = (w.end_ns - w.start_ns) / 1e9;
    const tokens = j.metrics.output_token_throughput.avg * seconds;
    // A whole number of tokens (to the rounding of the stamps in JSON) ...
    expect(Math.abs(tokens - Math.round(tokens))).toBeLessThan(0.05);
    // ... fewer than the run's total: the requests in flight at measure_end stream past it.
    expect(Math.round(tokens)).toBeLessThan(j.metrics.total_osl.avg);
    expect(Math.round(tokens)).toBeGreaterThan(0);
  });
});

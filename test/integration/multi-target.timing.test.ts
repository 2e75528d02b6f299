// Several targets in one run: two mock processes with different ITLs behind --url A --url B
// --url-weights 3,1, and two models round robin. The per-URL breakdown shows each mock's ITL, the
// requests split by the weights, and `analyze` rebuilds the breakdown from records.jsonl.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { spawnMock, type SpawnedMock } from '../helpers/mock.js';
import { remeasured } from '../helpers/remeasure.js';

const ITL_A = 8;
const ITL_B = 16;
// The run's time limit: in beforeAll, and in a test whose retry takes it again.
const MEASURE_MS = 90_000;

describe.each(['native', 'undici'])('--url A --url B on the %s transport', { timeout: MEASURE_MS }, (transport) => {
  let a: SpawnedMock;
  let b: SpawnedMock;
  // The run; a failed test takes it again before its retry.
  const measured = remeasured(async () => {
    const dir = tmpDir();
    const result = await runCli(
      [
        'profile',
        ...['--url', a.url, '--url', b.url, '--url-weights', '3,1'],
        ...['--model', 'base,lora-1', '--transport', transport],
        ...['--concurrency', '8', '--request-count', '60', '--isl', '20', '--osl', '12', '--export-level', 'records'],
        // The mock's own token counts: the ITL divisor is its token count, so the ITL is its --itl-ms.
        '--use-server-token-count',
        ...['--artifact-dir', dir, '--ui', 'none', '--no-server-metrics'],
      ],
      { timeoutMs: 60_000 },
    );
    return { dir, result };
  });

  beforeAll(async () => {
    [a, b] = await Promise.all([
      spawnMock(['--ttft-ms', '5', '--itl-ms', String(ITL_A)]),
      spawnMock(['--ttft-ms', '5', '--itl-ms', String(ITL_B)]),
    ]);
    await measured.prime();
  }, MEASURE_MS);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('splits the requests by the weights and names url and model in each record', async () => {
    const { dir, result } = await measured.get();
    expect(result.code, result.stderr).toBe(0);
    const records = readJsonl(path.join(dir, 'records.jsonl')).filter((r) => r.phase === 'profiling');
    expect(records).toHaveLength(60);
    const toA = records.filter((r) => r.url === a.url).length;
    const toB = records.filter((r) => r.url === b.url).length;
    expect(toA + toB).toBe(60);
    // 3:1 → 75 % ± 2 %.
    expect(Math.abs(toA / 60 - 0.75)).toBeLessThanOrEqual(0.02);
    expect(records.filter((r) => r.model === 'base').length).toBe(30);
    expect(records.filter((r) => r.model === 'lora-1').length).toBe(30);
  });

  it('breaks the metrics down per URL (each ITL within 5 %) and per model', async () => {
    const { dir, result } = await measured.get();
    const exp = readJson(path.join(dir, 'profile_export.json'));
    const byUrl = exp.breakdown.url;
    expect(Object.keys(byUrl).sort()).toEqual([a.url, b.url].sort());
    expect(byUrl[a.url].counts.issued + byUrl[b.url].counts.issued).toBe(exp.counts.issued);
    // Medians: on a loaded machine a few requests whose chunks the JS thread read late (undici) skew the mean.
    const itlA = byUrl[a.url].metrics.inter_token_latency.p50;
    const itlB = byUrl[b.url].metrics.inter_token_latency.p50;
    expect(Math.abs(itlA / ITL_A - 1), `ITL of A ${itlA} ms`).toBeLessThan(0.05);
    expect(Math.abs(itlB / ITL_B - 1), `ITL of B ${itlB} ms`).toBeLessThan(0.05);
    expect(Object.keys(exp.breakdown.model).sort()).toEqual(['base', 'lora-1']);
    expect(result.stdout).toContain('Breakdown per URL');
    expect(result.stdout).toContain('Breakdown per model');
  });

  it('analyze rebuilds the same breakdown from records.jsonl', async () => {
    const { dir } = await measured.get();
    const out = path.join(dir, 'again');
    const r = await runCli(['analyze', path.join(dir, 'records.jsonl'), '--artifact-dir', out]);
    expect(r.code, r.stderr).toBe(0);
    const exp = readJson(path.join(dir, 'profile_export.json'));
    const again = readJson(path.join(out, 'profile_export.json'));
    expect(again.breakdown.url[a.url].counts).toEqual(exp.breakdown.url[a.url].counts);
    expect(again.breakdown.url[b.url].metrics.inter_token_latency.avg).toBeCloseTo(
      exp.breakdown.url[b.url].metrics.inter_token_latency.avg,
      3,
    );
    expect(r.stdout).toContain('Breakdown per URL');
  });
});

// The parse errors themselves are unit-tested (test/unit/config/target-flags.test.ts); here: one line, exit 2.
describe('bad target flags', () => {
  it('weights that do not parse are one line naming the flag, exit 2', async () => {
    const r = await runCli([
      'profile',
      ...['--url', 'http://127.0.0.1:9', '--url', 'http://127.0.0.1:10', '--url-weights', '3,x', '--ui', 'none'],
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--url-weights');
  });
});

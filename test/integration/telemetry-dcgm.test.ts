// `profile --gpu-telemetry dcgm=URL` against the mock's fake DCGM exporter (GET /metrics):
// two GPUs whose power follows the mock's token throughput. Needs the built CLI.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DCGM_IDLE_W } from '../../src/mock/dcgm.js';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

let mock: SpawnedMock;
beforeAll(async () => {
  mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '2']);
});
afterAll(async () => {
  await mock?.stop();
});

describe('profile --gpu-telemetry dcgm (the mock fake exporter)', () => {
  it('scrapes power and the energy counter per GPU, skips and counts malformed lines', async () => {
    const dir = tmpDir();
    const r = await runCli(
      [
        'profile',
        '--url',
        mock.url,
        '--ui',
        'none',
        '--artifact-dir',
        dir,
        '--concurrency',
        '8',
        '--osl',
        '64',
        '--benchmark-duration',
        '3',
        '--gpu-telemetry',
        `dcgm=${mock.url}/metrics?malformed=3`,
      ],
      { timeoutMs: 90_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const json = readJson(path.join(dir, 'profile_export.json'));
    const t = json.gpu_telemetry;
    const host = new URL(mock.url).host;
    expect(t.gpus.map((g: any) => [g.key, g.source, g.vendor, g.name, g.energy_source])).toEqual([
      [`dcgm:${host}:0`, 'dcgm', 'nvidia', 'servebench mock GPU', 'counter'],
      [`dcgm:${host}:1`, 'dcgm', 'nvidia', 'servebench mock GPU', 'counter'],
    ]);
    const stats = t.dcgm[0];
    expect(stats.scrapes).toBeGreaterThan(5); // every 333 ms for ~3 s + grace
    expect(stats.malformed_lines).toBe(3 * stats.scrapes);
    expect(r.stderr).toContain(`DCGM exporter ${mock.url}/metrics?malformed=3: ${stats.malformed_lines} malformed lines skipped`);

    const m = (k: string) => json.metrics[k]?.avg as number;
    const windowS = Number(BigInt(t.window.end_ns) - BigInt(t.window.start_ns)) / 1e9;
    // Under load the fake draws more than idle on both GPUs.
    expect(m('nvidia_total_gpu_power')).toBeGreaterThan(2 * FAKE_DCGM_IDLE_W + 5);
    expect(m('nvidia_total_gpu_power')).toBeLessThan(2 * 700);
    expect(m('nvidia_average_gpu_power')).toBeCloseTo(m('nvidia_total_gpu_energy') / windowS, 6);

    // The energy is the counter's increase over the window: between the increase from the last
    // sample inside the window to the first inside it, and the increase between the samples that
    // enclose it (within the grace).
    const series = readJsonl(path.join(dir, 'gpu_telemetry.jsonl')).filter((s) => s.gpu === `dcgm:${host}:0`);
    const start = BigInt(t.window.start_ns);
    const end = BigInt(t.window.end_ns);
    const inside = series.filter((s) => BigInt(s.t_ns) >= start && BigInt(s.t_ns) <= end);
    const before = series.filter((s) => BigInt(s.t_ns) <= start).at(-1)!;
    const after = series.find((s) => BigInt(s.t_ns) > end && BigInt(s.t_ns) <= end + BigInt(t.gpus[0].grace_ns))!;
    const e0 = t.gpus[0].energy_j;
    expect(e0).toBeGreaterThanOrEqual(inside.at(-1).energy_j - inside[0].energy_j - 1e-6);
    expect(e0).toBeLessThanOrEqual(after.energy_j - before.energy_j + 1e-6);
    expect(m('nvidia_total_gpu_energy')).toBeCloseTo(t.gpus[0].energy_j + t.gpus[1].energy_j, 6);
    expect(m('nvidia_energy_per_output_token')).toBeCloseTo((m('nvidia_total_gpu_energy') * 1000) / m('total_osl'), 6);
    expect(r.stdout).toMatch(/GPU Power Efficiency \(NVIDIA\)/);
  });

  it('an unreachable exporter: one warning, and the run goes on without energy metrics', async () => {
    const dir = tmpDir();
    const r = await runCli(
      [
        'profile',
        '--url',
        mock.url,
        '--ui',
        'none',
        '--artifact-dir',
        dir,
        '--request-count',
        '10',
        '--gpu-telemetry',
        'dcgm=http://127.0.0.1:9/metrics',
      ],
      { timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => /DCGM|GPU telemetry/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/DCGM exporter http:\/\/127\.0\.0\.1:9\/metrics unreachable \(.+\); continuing without it/);
    const json = readJson(path.join(dir, 'profile_export.json'));
    expect(Object.keys(json.metrics).some((k) => k.startsWith('nvidia_'))).toBe(false);
    expect(json.counts.succeeded).toBe(10);
    expect(fs.existsSync(path.join(dir, 'gpu_telemetry.jsonl'))).toBe(false);
  });
});

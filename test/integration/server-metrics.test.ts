// Issue 14 against the mock as its own process (concurrency 8): the scraped server metrics agree
// with what the client measured, and time slices recompute from records.jsonl.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DCGM_IDLE_W } from '../../src/mock/dcgm.js';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

const TTFT_MS = 30;
let mock: SpawnedMock;
beforeAll(async () => {
  mock = await spawnMock(['--ttft-ms', String(TTFT_MS), '--itl-ms', '2']);
});
afterAll(async () => {
  await mock?.stop();
});

const base = (dir: string) => ['profile', '--url', mock.url, '--ui', 'none', '--artifact-dir', dir, '--concurrency', '8', '--osl', '64'];

/** HdrHistogram-style nearest rank: the value of rank max(1, ceil(p/100 n)). */
function nearestRank(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(1, Math.ceil((p / 100) * s.length)) - 1];
}

describe('server metrics from the mock (vLLM names)', () => {
  it('agree with the client; time slices recompute from records.jsonl', async () => {
    const dir = tmpDir();
    const r = await runCli(
      [
        ...base(dir),
        '--benchmark-duration',
        '4',
        '--slice-duration',
        '1',
        '--server-metrics-interval-ms',
        '100',
        '--gpu-telemetry',
        `dcgm=${mock.url}/metrics`,
      ],
      {
        timeoutMs: 60_000,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/server metrics: http:\/\/127\.0\.0\.1:\d+\/metrics \(vllm\) every 100 ms/);
    expect(r.stdout).toContain('Server Metrics');
    expect(r.stdout).toContain('Client vs Server');
    const json = readJson(path.join(dir, 'profile_export.json'));
    const sm = json.server_metrics;
    const eff = json.metrics.effective_concurrency.avg;
    const running = sm.concepts.requests_running.gauge.avg;
    expect(Math.abs(running - eff) / eff).toBeLessThan(0.05);
    // Every token the client counted was counted by the server (± one in-flight request's worth).
    const tokens = json.metrics.total_output_tokens.avg;
    expect(Math.abs(sm.concepts.generation_tokens.counter.increase - tokens)).toBeLessThanOrEqual(64);
    expect(sm.cross_check.generation_tokens.client).toBe(tokens);
    // The server's TTFT p50 is the configured one, within its bucket's resolution.
    const p50 = sm.concepts.ttft.histogram.p50;
    expect(Math.abs(p50.value * 1e3 - TTFT_MS)).toBeLessThanOrEqual((p50.bucket[1] - p50.bucket[0]) * 1e3);
    expect(sm.cross_check.ttft.client_p50_ms).toBeGreaterThanOrEqual(TTFT_MS);
    expect(r.stderr).not.toMatch(/warning: the server/);

    // server_metrics.jsonl: one line per scrape, stamped on the run's clock, bracketing the window.
    const ep = sm.endpoints[0];
    expect(ep.vendor).toBe('vllm');
    expect(ep.discovered).toBe(true);
    const lines = readJsonl(path.join(dir, 'server_metrics.jsonl'));
    expect(lines.length).toBe(ep.scrapes + ep.failed_scrapes);
    const t = lines.map((l: any) => Number(l.t_ns));
    expect(t).toEqual([...t].sort((a, b) => a - b));
    expect(t[0]).toBeLessThan(json.phases.profiling.start_ns);
    expect(t[t.length - 1]).toBeGreaterThan(json.phases.profiling.end_ns);
    expect(ep.achieved_interval_ms).toBeGreaterThan(90);
    expect(ep.achieved_interval_ms).toBeLessThan(200);

    // timeslices.json, recomputed from records.jsonl: counts exactly, percentiles within HDR resolution.
    const recs = readJsonl(path.join(dir, 'records.jsonl')).filter((x: any) => x.phase === 'profiling');
    const ts = readJson(path.join(dir, 'timeslices.json'));
    expect(ts.slice_duration_s).toBe(1);
    expect(ts.slices.length).toBeGreaterThanOrEqual(4);
    let total = 0;
    for (const s of ts.slices) {
      const inSlice = recs.filter(
        (x: any) => x.end_ns >= s.start_ns && (x.end_ns < s.end_ns || (s.index === ts.slices.length - 1 && x.end_ns <= s.end_ns)),
      );
      expect(s.request_count).toBe(inSlice.length);
      total += s.request_count;
      expect(s.output_token_throughput).toBeCloseTo(
        inSlice.reduce((a: number, x: any) => a + x.metrics.output_token_count.value, 0) / s.duration_s,
        6,
      );
      if (inSlice.length > 0) {
        const ttft = inSlice.map((x: any) => x.metrics.time_to_first_token.value);
        for (const p of [50, 90, 99] as const) {
          const exact = nearestRank(ttft, p);
          expect(Math.abs(s.time_to_first_token_ms[`p${p}`] - exact)).toBeLessThanOrEqual(exact * 2e-3);
        }
      }
      expect(s.server.requests_running_avg).toBeGreaterThanOrEqual(0);
      expect(s.effective_concurrency).toBeLessThanOrEqual(8 + 1e-9);
      // The mock's fake DCGM exporter: two GPUs, each at least idle power.
      expect(s.gpu_power_w).toBeGreaterThanOrEqual(2 * FAKE_DCGM_IDLE_W);
    }
    expect(total).toBe(recs.length);
    const csv = fs.readFileSync(path.join(dir, 'timeslices.csv'), 'utf8').trim().split('\n');
    expect(csv.length).toBe(ts.slices.length + 1);
    expect(csv[0]).toContain('server_requests_running_avg');
  });
});

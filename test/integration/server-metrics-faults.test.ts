// Issue 14: misbehaving Prometheus endpoints (a 404, malformed lines, a scrape that times out, a
// counter reset) never stop the run; each is one line, and the counter's increase survives the reset.
// And discovery of TensorRT-LLM's /prometheus/metrics (the mock's --metrics-format trtllm).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { spawnHostile } from '../helpers/hostile.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

let mock: SpawnedMock;
beforeAll(async () => {
  mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '1']);
});
afterAll(async () => {
  await mock?.stop();
});

describe('server metrics endpoints that misbehave', () => {
  it('goes on past a 404, malformed lines, a scrape that times out and a counter reset', async () => {
    const hang = await spawnHostile('metrics-hang');
    const reset = await spawnHostile('metrics-reset', { resetAfter: 20, hangAfter: 2 });
    try {
      const dir = tmpDir();
      const urls = [`${mock.url}/nope`, `${mock.url}/metrics?malformed=2`, `${hang.url}/metrics`];
      const r = await runCli(
        [
          'profile',
          '--url',
          reset.url,
          '--model',
          'm',
          '--ui',
          'none',
          '--artifact-dir',
          dir,
          '--concurrency',
          '8',
          '--benchmark-duration',
          '3',
          '--server-metrics',
          urls.join(','),
          '--server-metrics-interval-ms',
          '200',
        ],
        { timeoutMs: 60_000 },
      );
      expect(r.code, r.stderr).toBe(0);
      const json = readJson(path.join(dir, 'profile_export.json'));
      expect(json.counts.succeeded).toBe(json.counts.issued);
      // One line each for the endpoints that never worked.
      expect(r.stderr.split('\n').filter((l) => l.includes(`${mock.url}/nope`))).toEqual([
        `servebench: server metrics: ${mock.url}/nope unusable (HTTP 404); continuing without it`,
      ]);
      expect(r.stderr.split('\n').filter((l) => l.includes(`${hang.url}/metrics`))).toEqual([
        `servebench: server metrics: ${hang.url}/metrics unusable (no answer within 1000 ms); continuing without it`,
      ]);
      const eps = json.server_metrics.endpoints;
      const malformed = eps.find((e: any) => e.url === `${mock.url}/metrics?malformed=2`);
      expect(malformed.malformed_lines).toBe(2 * malformed.scrapes);
      const rs = eps.find((e: any) => e.url === `${reset.url}/metrics`);
      expect(rs.discovered).toBe(true);
      expect(rs.failed_scrapes).toBe(1);
      expect(rs.last_error).toBe('no answer within 1000 ms');
      expect(r.stderr).toContain(
        `server metrics ${reset.url}/metrics: 1 of ${rs.scrapes + 1} scrapes failed (last: no answer within 1000 ms)`,
      );
      const gen = rs.concepts.find((c: any) => c.concept === 'generation_tokens').counter;
      expect(gen.resets).toBe(1);
      // 100 per server-side scrape (the one that timed out included): the increase is 100 × the scrapes it spans.
      const all = readJsonl(path.join(dir, 'server_metrics.jsonl')).filter((l: any) => l.endpoint === `${reset.url}/metrics`);
      const ok = all.filter((l: any) => l.ok).map((l: any) => Number(l.t_ns));
      const fromT = [...ok].reverse().find((x: number) => x <= json.phases.profiling.start_ns) ?? ok[0];
      const toT = ok.find((x: number) => x >= json.phases.profiling.end_ns) ?? ok[ok.length - 1];
      const spanned = all.filter((l: any) => Number(l.t_ns) > fromT && Number(l.t_ns) <= toT).length;
      expect(gen.increase).toBe(100 * spanned);
    } finally {
      await hang.stop();
      await reset.stop();
    }
  });

  it("finds TensorRT-LLM's /prometheus/metrics (servebench mock --metrics-format trtllm)", async () => {
    const trt = await spawnMock(['--ttft-ms', '5', '--itl-ms', '1', '--metrics-format', 'trtllm']);
    try {
      const dir = tmpDir();
      const r = await runCli(
        ['profile', '--url', trt.url, '--ui', 'none', '--artifact-dir', dir, '--request-count', '16', '--concurrency', '4'],
        {
          timeoutMs: 60_000,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      const sm = readJson(path.join(dir, 'profile_export.json')).server_metrics;
      const eps = sm.endpoints.map((e: any) => [e.url, e.vendor, e.discovered]);
      // /metrics still serves the fake DCGM exporter: kept, as an unknown server, its metrics summarized by type.
      expect(eps).toEqual([
        [`${trt.url}/metrics`, null, true],
        [`${trt.url}/prometheus/metrics`, 'trtllm', true],
      ]);
      expect(sm.endpoints[0].by_type.gauges.length).toBeGreaterThan(0);
      expect(sm.concepts.ttft.metric).toBe('trtllm_time_to_first_token_seconds');
      expect(sm.concepts.ttft.histogram.count).toBe(16);
      expect(sm.concepts.requests_finished.counter.increase).toBe(16);
    } finally {
      await trt.stop();
    }
  });
});

// DCGM scraping against an in-process exporter, and the mock's fake exporter model.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_DCGM_IDLE_W, FAKE_DCGM_W_PER_TPS, FakeDcgm } from '../../../src/mock/dcgm.js';
import type { GenerationPlan } from '../../../src/mock/request.js';
import { resolveMockOptions } from '../../../src/mock/options.js';
import { DcgmScraper } from '../../../src/telemetry/dcgm.js';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

/** Serves `body(n)` for the n-th scrape (from 0). */
async function exporter(body: (n: number) => string, status = 200): Promise<string> {
  let n = 0;
  server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(body(n++));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
}

const line = (name: string, gpu: string, v: string, extra = '') => `${name}{gpu="${gpu}",UUID="GPU-${gpu}",modelName="H100"${extra}} ${v}`;

describe('DcgmScraper', () => {
  it('scrapes power and the energy counter per GPU, skipping and counting malformed lines', async () => {
    const url = await exporter((n) =>
      [
        '# TYPE DCGM_FI_DEV_POWER_USAGE gauge',
        line('DCGM_FI_DEV_POWER_USAGE', '0', String(100 + n)),
        line('DCGM_FI_DEV_POWER_USAGE', '1', '200'),
        line('DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', '0', String(5_000_000 + 1000 * n)), // mJ
        line('DCGM_FI_DEV_FB_USED', '0', '1024'), // MiB
        line('DCGM_FI_DEV_POWER_USAGE', '0', '999', ',GPU_I_ID="3"'), // a MIG instance row: not a GPU
        'DCGM_FI_DEV_POWER_USAGE{gpu="0" 12',
        'not a metric',
        line('DCGM_FI_DEV_GPU_TEMP', '1', 'NaN'),
      ].join('\n'),
    );
    const s = new DcgmScraper(url, 20);
    expect(await s.start()).toBeNull();
    await new Promise((r) => setTimeout(r, 150));
    await s.stop();
    const host = new URL(url).host;
    expect(s.gpus().map((g) => [g.key, g.name, g.uuid, g.has_energy])).toEqual([
      [`dcgm:${host}:0`, 'H100', 'GPU-0', true],
      [`dcgm:${host}:1`, 'H100', 'GPU-1', false],
    ]);
    const g0 = s.seriesMap().get(`dcgm:${host}:0`)!;
    expect(g0.length).toBe(s.stats.scrapes);
    expect(s.stats.scrapes).toBeGreaterThan(2);
    expect(s.stats.malformed_lines).toBe(2 * s.stats.scrapes);
    expect([...g0.column('power_w')]).toEqual(Array.from({ length: g0.length }, (_x, n) => 100 + n));
    expect(g0.column('energy_j')[1] - g0.column('energy_j')[0]).toBe(1); // 1000 mJ per scrape
    expect(g0.column('mem_used_bytes')[0]).toBe(1024 * 1024 * 1024);
    const g1 = s.seriesMap().get(`dcgm:${host}:1`)!;
    expect(g1.column('energy_j')[0]).toBeNaN();
    expect(g1.column('temp_c')[0]).toBeNaN();
  });

  it('reports an unreachable exporter in one line and stays off', async () => {
    const s = new DcgmScraper('http://127.0.0.1:9/metrics', 20);
    const why = await s.start();
    expect(why).toMatch(/^DCGM exporter http:\/\/127\.0\.0\.1:9\/metrics unreachable \(.+\); continuing without it$/);
    expect(why!.split('\n')).toHaveLength(1);
    await s.stop();
    expect(s.gpus()).toEqual([]);
  });

  it('reports an exporter without power or energy, or an HTTP error', async () => {
    const url = await exporter(() => 'DCGM_FI_DEV_GPU_TEMP{gpu="0"} 40\n');
    expect(await new DcgmScraper(url, 20).start()).toMatch(/reports no DCGM_FI_DEV_POWER_USAGE/);
    await new Promise<void>((r) => server!.close(() => r()));
    const url500 = await exporter(() => 'oops', 500);
    expect(await new DcgmScraper(url500, 20).start()).toMatch(/unreachable \(HTTP 500\)/);
  });
});

describe('the mock fake DCGM exporter', () => {
  const opts = resolveMockOptions({ ttftMs: 0, itlMs: 10, tokensPerChunk: 1 });
  const plan = (tokens: number) => ({ contentTokens: tokens, reasoningTokens: 0 }) as GenerationPlan;

  it('idles without load and draws power in proportion to token throughput', async () => {
    const d = new FakeDcgm();
    const now = () => performance.now();
    expect(d.powerW(now())).toBe(FAKE_DCGM_IDLE_W);
    // 20 streams of 101 tokens over 1 s each: ~2000 tokens/s once they are all running.
    for (let i = 0; i < 20; i++) d.onGeneration(plan(101), opts);
    await new Promise((r) => setTimeout(r, 500));
    const t = now();
    const tps = d.tokensPerSecond(t);
    expect(tps).toBeGreaterThan(700); // half the trailing window is filled
    expect(tps).toBeLessThan(1300);
    expect(d.powerW(t)).toBeCloseTo(FAKE_DCGM_IDLE_W + (FAKE_DCGM_W_PER_TPS * tps) / 2, 9);
  });
});

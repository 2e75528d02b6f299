// The mock's /metrics tells what it did, under each server's names.
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../../src/mock/server.js';
import { endpointVendor, readConcepts } from '../../../src/server-metrics/concepts.js';
import { SeriesTable } from '../../../src/server-metrics/series.js';

let server: MockServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function generate(url: string, n: number, tokens: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, () =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', stream: true, max_completion_tokens: tokens, messages: [{ role: 'user', content: 'hi' }] }),
      }).then((r) => r.text()),
    ),
  );
}

describe('mock server metrics', () => {
  for (const [format, path] of [
    ['vllm', '/metrics'],
    ['sglang', '/metrics'],
    ['trtllm', '/prometheus/metrics'],
    ['llamacpp', '/metrics'],
  ] as const) {
    it(`${format}: served on ${path} under its names, counting what it did`, async () => {
      server = await startMockServer({ port: 0, log: false, ttftMs: 15, itlMs: 1, metricsFormat: format });
      const t = new SeriesTable();
      t.addText(0n, await (await fetch(server.url + path)).text());
      await generate(server.url, 5, 10);
      t.addText(1_000_000_000n, await (await fetch(server.url + path)).text());
      expect(endpointVendor(t)).toBe(format);
      const c = new Map(readConcepts(t, { start_ns: 0n, end_ns: 1_000_000_000n }).map((x) => [x.concept, x]));
      if (format !== 'trtllm') {
        expect(c.get('generation_tokens')!.counter!.increase).toBe(50);
        expect(c.get('prompt_tokens')!.counter!.increase).toBeGreaterThan(0);
      }
      if (format !== 'llamacpp') {
        const ttft = c.get('ttft')!.histogram!;
        expect(ttft.count).toBe(5);
        // Observed from the end of the body to the first token's write: never under the configured 15 ms
        // less the mock clock's 0.5 ms wake-up slack (src/mock/clock.ts serves a job that close to due).
        expect(ttft.mean!).toBeGreaterThanOrEqual(0.0145);
        expect(ttft.mean!).toBeLessThan(0.2);
        expect(ttft.p50!.bucket[1]).toBeGreaterThanOrEqual(0.015);
      }
      if (format !== 'trtllm') expect(t.scrapes[1].values![t.idsOf(c.get('requests_running')!.metric)[0]]).toBe(0);
    });
  }

  it('rejects an unknown --metrics-format', async () => {
    await expect(startMockServer({ port: 0, log: false, metricsFormat: 'nope' as never })).rejects.toThrow(
      /--metrics-format must be one of/,
    );
  });
});

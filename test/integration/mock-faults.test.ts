// Each --fail-mode, as a client sees it, against the spawned mock.
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { countTokens, getJson, postJson, postSse, spawnMock, streamedContent, type SpawnedMock } from '../helpers/mock.js';

const messages = [{ role: 'user', content: 'Fail me.' }];
const chatUrl = (m: SpawnedMock) => `${m.url}/v1/chat/completions`;

async function withMock(args: string[], fn: (m: SpawnedMock) => Promise<void>): Promise<void> {
  const mock = await spawnMock(['--ttft-ms', '5', '--itl-ms', '5', ...args]);
  try {
    await fn(mock);
  } finally {
    await mock.stop();
  }
}

describe('mock fault injection', () => {
  it('http500 on every 2nd generation request (health checks do not count)', async () => {
    await withMock(['--fail-every', '2', '--fail-mode', 'http500'], async (m) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        await getJson(`${m.url}/health`);
        const r = await postJson(chatUrl(m), { messages, max_tokens: 2 });
        statuses.push(r.status);
        if (r.status === 500) expect(r.json.error).toMatchObject({ type: 'server_error', code: 500 });
      }
      expect(statuses).toEqual([200, 500, 200, 500]);
    });
  });

  it('http429 with a JSON error and retry-after', async () => {
    await withMock(['--fail-every', '1', '--fail-mode', 'http429'], async (m) => {
      const r = await postSse(chatUrl(m), { messages, max_tokens: 2, stream: true });
      expect(r.status).toBe(429);
      expect(r.headers['retry-after']).toBe('1');
    });
  });

  it('reset: the client gets a few chunks, then a connection error mid-stream', async () => {
    await withMock(['--fail-every', '1', '--fail-mode', 'reset', '--itl-ms', '20'], async (m) => {
      const r = await postSse(chatUrl(m), { messages, max_tokens: 50, stream: true });
      expect(r.status).toBe(200);
      expect(r.error).not.toBeNull();
      expect(`${(r.error as NodeJS.ErrnoException).code} ${r.error!.message}`).toMatch(/ECONNRESET|UND_ERR_SOCKET|closed|reset/i);
      expect(countTokens(streamedContent(r.events))).toBe(3);
      expect(r.events.some((e) => e.data === '[DONE]')).toBe(false);
      // Non-streaming: the connection dies instead of the body.
      await expect(postJson(chatUrl(m), { messages, max_tokens: 5 })).rejects.toThrow();
    });
  });

  it('malformed: one event with invalid JSON, then the stream ends normally', async () => {
    await withMock(['--fail-every', '1', '--fail-mode', 'malformed'], async (m) => {
      const r = await postSse(chatUrl(m), { messages, max_tokens: 10, stream: true });
      expect(r.error).toBeNull();
      const bad = r.events.filter((e) => e.data !== '[DONE]' && e.json === undefined);
      expect(bad.map((e) => e.data)).toEqual(['{"choices": [ {bad']);
      expect(r.events.at(-1)!.data).toBe('[DONE]');
      expect(countTokens(streamedContent(r.events))).toBe(10);
      const n = await postJson(chatUrl(m), { messages, max_tokens: 10 });
      expect([n.status, n.json]).toEqual([200, undefined]);
    });
  });

  it('sse-error: an error object inside the stream, then the stream ends', async () => {
    await withMock(['--fail-every', '1', '--fail-mode', 'sse-error'], async (m) => {
      const r = await postSse(chatUrl(m), { messages, max_tokens: 10, stream: true });
      expect(r.status).toBe(200);
      const errs = r.events.filter((e) => e.json?.error);
      expect(errs).toHaveLength(1);
      expect(errs[0].json.error).toMatchObject({ type: 'server_error', code: 500 });
      expect(countTokens(streamedContent(r.events))).toBeLessThan(10);
      expect(r.events.indexOf(errs[0])).toBe(r.events.length - 2);
    });
  });

  it('hang: no response until the client gives up; other endpoints still answer', async () => {
    await withMock(['--fail-every', '1', '--fail-mode', 'hang'], async (m) => {
      const t0 = Date.now();
      await expect(
        request(chatUrl(m), {
          method: 'POST',
          body: JSON.stringify({ messages, max_tokens: 2 }),
          headersTimeout: 500,
        }),
      ).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
      expect((await getJson(`${m.url}/health`)).status).toBe(200);
    });
  });

  it('--fail-rate is seeded: same pattern across processes, some of each', async () => {
    const patterns: string[] = [];
    for (let run = 0; run < 2; run++) {
      await withMock(['--fail-rate', '0.5', '--seed', '11', '--ttft-ms', '0', '--itl-ms', '0'], async (m) => {
        let p = '';
        for (let i = 0; i < 30; i++) p += (await postJson(chatUrl(m), { messages, max_tokens: 1 })).status === 500 ? 'x' : '.';
        patterns.push(p);
      });
    }
    expect(patterns[0]).toBe(patterns[1]);
    expect(patterns[0]).toMatch(/x/);
    expect(patterns[0]).toMatch(/\./);
  });
});

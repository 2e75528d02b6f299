// startMockServer in-process: lifecycle behaviour that the spawned tests cannot see directly.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { InvalidFileError, MockStartError } from '../../../src/errors.js';
import { startMockServer } from '../../../src/mock/server.js';

const body = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 5, stream: true });

describe('startMockServer', () => {
  it('close() returns promptly with hung and streaming requests open, and ends them', async () => {
    const server = await startMockServer({ port: 0, failEvery: 2, failMode: 'hang', itlMs: 1000, ttftMs: 0 });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const streaming = request(`${server.url}/v1/chat/completions`, { method: 'POST', body }).then(async (r) => r.body.text());
    const hung = request(`${server.url}/v1/chat/completions`, { method: 'POST', body });
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await server.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    await expect(hung).rejects.toThrow();
    await expect(streaming).rejects.toThrow();
    // close() is idempotent.
    await server.close();
  });

  it('a taken port is a MockStartError naming it', async () => {
    const a = await startMockServer({ port: 0 });
    try {
      await expect(startMockServer({ port: a.port })).rejects.toThrow(MockStartError);
      await expect(startMockServer({ port: a.port })).rejects.toThrow(new RegExp(`${a.port}.*EADDRINUSE`));
    } finally {
      await a.close();
    }
  });

  it('an unusable --record-requests path fails at start', async () => {
    const bad = join(tmpdir(), 'no-such-dir-sb', 'x', 'req.jsonl');
    await expect(startMockServer({ port: 0, recordRequests: bad })).rejects.toThrow(InvalidFileError);
  });
});

// A batch the native engine refuses (here a NaN timeout, which the TS side normally never passes)
// ends each of its requests as one error record: no uncaught TypeError, no request left unsettled.
import { describe, expect, it } from 'vitest';
import { NativeTransport } from '../../../src/transport/native.js';
import { credit, request, scriptedServer, sseResponse } from './engine-helpers.js';

describe('native engine: a refused batch', () => {
  it('every request of the batch is an _OTHER error record naming why; the transport still works', async () => {
    const server = await scriptedServer((sock) => sock.write(sseResponse(['{"a":1}'])));
    const t = new NativeTransport({ baseUrl: server.url, address: '127.0.0.1', connections: 2, requestTimeoutMs: NaN, threads: 1 });
    try {
      const recs = await Promise.all([t.send(credit(), request()), t.send(credit(), request())]);
      for (const r of recs) {
        expect(r.status).toBe('error');
        expect(r.error?.type).toBe('_OTHER');
        expect(r.error?.message).toMatch(/^the native engine refused the request: engine\.submit: timeoutMs must be in/);
      }
      expect(server.requests()).toHaveLength(0);
    } finally {
      await t.close();
      await server.close();
    }
  });

  it('a timeout of 1e300 ms is cut to the engine bound, not refused', async () => {
    const server = await scriptedServer((sock) => sock.write(sseResponse(['{"a":1}'])));
    const t = new NativeTransport({ baseUrl: server.url, address: '127.0.0.1', connections: 2, requestTimeoutMs: 1e300, threads: 1 });
    try {
      const r = await t.send(credit(), request());
      expect(r.error).toBeNull();
      expect(r.status).toBe('ok');
    } finally {
      await t.close();
      await server.close();
    }
  });
});

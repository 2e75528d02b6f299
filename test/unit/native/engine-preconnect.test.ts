// --preconnect at the engine: connections opened before any request join the idle pool, their
// first requests go out on them as on kept-alive ones, the cap holds, and failures are not waited on.
import { afterEach, describe, expect, it } from 'vitest';
import { NativeTransport } from '../../../src/transport/native.js';
import { credit, request, scriptedServer, sseResponse, type ScriptedServer } from './engine-helpers.js';

let server: ScriptedServer | null = null;
let transport: NativeTransport | null = null;

afterEach(async () => {
  await transport?.close();
  transport = null;
  await server?.close();
  server = null;
});

const GOOD = sseResponse(['{"a":1}', '{"b":2}']);

function open(url: string, connections: number, threads = 1): NativeTransport {
  transport = new NativeTransport({ baseUrl: url, address: '127.0.0.1', connections, requestTimeoutMs: 5000, threads });
  return transport;
}

describe('native engine: preconnect', () => {
  it('opens the connections before any request; the first requests reuse them', async () => {
    server = await scriptedServer((sock) => setTimeout(() => sock.write(GOOD), 5));
    const t = open(server.url, 8, 2);
    const pre = await t.preconnect(4, 5000);
    expect(pre).toMatchObject({ asked: 4, opened: 4 });
    expect(pre.ms).toBeLessThan(5000);
    expect(t.stats()).toMatchObject({
      connections_opened: 4,
      connections_live: 4,
      connections_warming: 0,
      connections_preconnected: 4,
      requests_started: 0,
    });
    const rs = await Promise.all(Array.from({ length: 4 }, () => t.send(credit(), request())));
    for (const r of rs) {
      expect(r.status).toBe('ok');
      // Pooled: no connect phase in the request's own trace.
      expect(r.trace).toMatchObject({ connection_reused: true, connect_start_ns: null, connect_end_ns: null });
    }
    expect(server.connections()).toBe(4);
    expect(t.stats().connections_opened).toBe(4);
  });

  it('stays within the connection cap', async () => {
    server = await scriptedServer((sock) => sock.write(GOOD));
    const t = open(server.url, 2);
    expect(await t.preconnect(5, 5000)).toMatchObject({ asked: 5, opened: 2 });
    expect(t.stats()).toMatchObject({ connections_opened: 2, connections_warming: 0 });
    expect((await t.send(credit(), request())).status).toBe('ok');
    expect(t.stats().connections_opened).toBe(2);
  });

  it('does not wait on connections that fail; requests then fail on their own', async () => {
    const s = await scriptedServer(() => {});
    const url = s.url;
    await s.close();
    const t = open(url, 4);
    const pre = await t.preconnect(3, 5000);
    expect(pre).toMatchObject({ asked: 3, opened: 0 });
    expect(pre.ms).toBeLessThan(2000);
    expect(t.stats()).toMatchObject({ connections_warming: 0, connections_live: 0 });
    const r = await t.send(credit(), request());
    expect(r.error?.type).toBe('connection');
  });

  it('closes cleanly with preconnects still under way', async () => {
    server = await scriptedServer((sock) => sock.write(GOOD));
    const t = open(server.url, 64, 2);
    const pending = t.preconnect(64, 5000);
    await t.close();
    const pre = await pending;
    expect(pre.opened).toBeLessThanOrEqual(64);
    expect(t.stats()).toMatchObject({ connections_live: 0, connections_warming: 0 });
  });
});

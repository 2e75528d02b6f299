// Several I/O threads: each holds its share of the connection cap, so a request must go to a thread
// with a free connection. Requests go to the thread with the fewest in flight: in a closed loop,
// the request that replaces one finished on thread B goes to B, not to the next thread in turn
// (whose only connection may still be busy).
import type net from 'node:net';
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

const tagged = (t: string) => request(true, JSON.stringify({ t, stream: true }));
const GOOD = sseResponse(['{"a":1}']);

async function until(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

describe('native engine: requests across I/O threads', () => {
  it('sends a new request to the thread whose connection just freed, while the other stays busy', async () => {
    const held = new Map<string, net.Socket>();
    server = await scriptedServer((sock, req) => held.set(JSON.parse(req.body).t as string, sock));
    transport = new NativeTransport({ baseUrl: server.url, address: '127.0.0.1', connections: 2, requestTimeoutMs: 20_000, threads: 2 });
    const a = transport.send(credit(), tagged('a'));
    const b = transport.send(credit(), tagged('b'));
    expect(await until(() => held.has('a') && held.has('b'))).toBe(true);
    held.get('b')!.write(GOOD);
    expect((await b).status).toBe('ok');
    // "a" still holds its thread's one connection; "c" must not queue behind it.
    const c = transport.send(credit(), tagged('c'));
    expect(await until(() => held.has('c'))).toBe(true);
    expect(server.connections()).toBe(2);
    held.get('c')!.write(GOOD);
    expect((await c).status).toBe('ok');
    held.get('a')!.write(GOOD);
    expect((await a).status).toBe('ok');
  });
});

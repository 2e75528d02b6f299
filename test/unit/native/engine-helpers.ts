// Helpers for the native engine tests: a scripted TCP server that reads HTTP/1.1 requests and
// answers each with whatever the test says (well-formed or not), and credit/request builders.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Credit } from '../../../src/model/credit.js';
import type { RenderedRequest } from '../../../src/endpoints/request.js';

export interface ScriptedRequest {
  /** 0-based index of the request on its connection. */
  onConn: number;
  /** 0-based index of the request on the server. */
  index: number;
  head: string;
  body: string;
}

export type Reply = (socket: net.Socket, req: ScriptedRequest) => void;

export interface ScriptedServer {
  url: string;
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  requests(): ScriptedRequest[];
  close(): Promise<void>;
}

/** A server that calls `reply` for each complete request (head + Content-Length body). */
export async function scriptedServer(reply: Reply): Promise<ScriptedServer> {
  const sockets = new Set<net.Socket>();
  const seen: ScriptedRequest[] = [];
  let conns = 0;
  const server = net.createServer((socket) => {
    conns++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    let onConn = 0;
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        const m = /content-length:\s*(\d+)/i.exec(head);
        const len = m ? Number(m[1]) : 0;
        if (buf.length < end + 4 + len) return;
        const body = buf.subarray(end + 4, end + 4 + len).toString('utf8');
        buf = buf.subarray(end + 4 + len);
        const req = { onConn: onConn++, index: seen.length, head, body };
        seen.push(req);
        reply(socket, req);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => conns,
    requests: () => seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A chunked SSE response carrying these event payloads, then [DONE]. */
export function sseResponse(payloads: string[], extraHead = ''): string {
  const chunks = [...payloads, '[DONE]'].map((p) => `data: ${p}\n\n`);
  return (
    `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n${extraHead}\r\n` +
    chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('') +
    '0\r\n\r\n'
  );
}

let nextIndex = 0;
export function credit(targeted: bigint | null = null): Credit {
  const i = nextIndex++;
  return {
    index: i,
    phase: 'profiling',
    x_request_id: `req-${i}`,
    credit_issued_ns: process.hrtime.bigint(),
    targeted_start_ns: targeted,
    turn: { prompt: 'hello', isl: 1, max_tokens: 4 },
  };
}

export function request(
  streaming = true,
  body = '{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":4,"stream":true}',
): RenderedRequest {
  return {
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', accept: streaming ? 'text/event-stream' : 'application/json', 'x-request-id': 'r' },
    body: Buffer.from(body),
    streaming,
  };
}

// The undici transport's connection watcher: an interim 100 Continue is dropped before undici's
// parser, wherever the reads split it, and nothing else is touched.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConnector, Pool } from 'undici';
import { ConnectionBook } from '../../../src/transport/undici-socket.js';

const BODY = 'hello';
const FINAL = `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`;
/** The response to send for the next request, and where to split it into two writes. */
let next = { bytes: '', cut: 0 };
let server: net.Server;
let pool: Pool;

beforeAll(async () => {
  server = net.createServer((s) => {
    s.setNoDelay(true);
    s.on('data', (d) => {
      if (!d.includes('\r\n\r\n')) return;
      const { bytes, cut } = next;
      s.write(bytes.slice(0, cut));
      setTimeout(() => s.write(bytes.slice(cut)), 3);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1, connect: new ConnectionBook().connector(buildConnector({})) });
});
afterAll(async () => {
  await pool.close();
  server.close();
});

async function get(bytes: string, cut: number): Promise<{ status: number; body: string }> {
  next = { bytes, cut };
  const res = await pool.request({ path: '/', method: 'GET' });
  return { status: res.statusCode, body: await res.body.text() };
}

describe('ConnectionBook: interim 100 Continue', () => {
  it('a 100 head before the 200 is skipped at every split point, on one kept-alive connection', async () => {
    const bytes = 'HTTP/1.1 100 Continue\r\n\r\n' + FINAL;
    for (let cut = 0; cut <= 40; cut++) expect(await get(bytes, cut), `cut ${cut}`).toEqual({ status: 200, body: BODY });
  });

  it('two 100 heads, HTTP/1.0 and a reason phrase, LF-only line ends', async () => {
    expect(await get('HTTP/1.0 100 Continue\r\nx: y\r\n\r\nHTTP/1.1 100\n\n' + FINAL, 30)).toEqual({ status: 200, body: BODY });
  });

  it('a response that only starts like one is passed on whole', async () => {
    expect(await get(FINAL.replace('200 OK', '201 Created'), 5)).toEqual({ status: 201, body: BODY });
    expect(await get(FINAL, 11)).toEqual({ status: 200, body: BODY });
  });
});

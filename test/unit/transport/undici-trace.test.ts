// The undici transport's HTTP trace against the in-process mock: fresh vs reused connections, the
// phases tiling the request, and byte counts that include the HTTP framing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { tracePhases } from '../../../src/metrics/families/http-trace.js';
import { startMockServer, type MockServer } from '../../../src/mock/server.js';
import { RecordProcessor } from '../../../src/records/process.js';
import type { Credit } from '../../../src/model/credit.js';
import type { RawRecord } from '../../../src/model/raw-record.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import { UndiciTransport } from '../../../src/transport/undici.js';
import type { RenderedRequest } from '../../../src/endpoints/request.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, ttftMs: 5, itlMs: 1, log: false });
});
afterAll(async () => {
  await mock.close();
});

function request(i: number): [Credit, RenderedRequest] {
  const credit: Credit = {
    index: i,
    phase: 'profiling',
    x_request_id: `trace-${i}-${Math.random()}`,
    credit_issued_ns: process.hrtime.bigint(),
    targeted_start_ns: null,
    turn: { prompt: 'hello there', isl: 2, max_tokens: 8 },
  };
  const body = Buffer.from(
    JSON.stringify({ model: 'm', stream: true, max_tokens: 8, messages: [{ role: 'user', content: 'hello there' }] }),
  );
  return [
    credit,
    {
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', 'x-request-id': credit.x_request_id },
      body,
      streaming: true,
    },
  ];
}

describe('undici transport HTTP trace', () => {
  it('the first request opens a connection, later ones reuse it; phases sum to the request time', async () => {
    const t = new UndiciTransport({ baseUrl: mock.url, connections: 1, requestTimeoutMs: 10_000 });
    const recs: RawRecord[] = [];
    for (let i = 0; i < 3; i++) recs.push(await t.send(...request(i)));
    await t.close();
    const tk = await loadTokenizer();
    const processor = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    recs.forEach((raw, i) => {
      expect(raw.status).toBe('ok');
      const tr = raw.trace!;
      expect(tr.connection_reused).toBe(i > 0);
      if (i === 0) {
        expect(tr.connect_start_ns).not.toBeNull();
        expect(tr.connect_end_ns! >= tr.connect_start_ns!).toBe(true);
        // An IP literal needs no name resolution.
        expect(tr.dns_end_ns).toBeNull();
      }
      expect(tr.send_start_ns! <= tr.send_end_ns!).toBe(true);
      expect(tr.send_end_ns! <= tr.first_byte_ns!).toBe(true);
      // Headers + body were written: more than the body, and HTTP/1.1 headers are small.
      expect(tr.bytes_sent!).toBeGreaterThan(raw.bytes_sent);
      expect(tr.bytes_sent!).toBeLessThan(raw.bytes_sent + 1024);
      // Read bytes include the status line, headers and chunked framing on top of the body.
      expect(tr.bytes_received!).toBeGreaterThan(raw.bytes_received);
      expect(tr.chunks_sent).toBe(2);
      expect(tr.chunks_received).toBeGreaterThan(0);
      const rec = processor.process(raw);
      const p = tracePhases(rec.metric_input)!;
      expect(p.blocked + p.dns + p.connecting + p.sending + p.waiting + p.receiving).toBe(p.total);
      expect(p.total).toBe(Number(raw.end_ns - raw.start_ns));
      if (i > 0) expect(p.connecting).toBe(0);
    });
  });

  it('a transport with tracing off records none; two transports do not see each other', async () => {
    const off = new UndiciTransport({ baseUrl: mock.url, connections: 1, requestTimeoutMs: 10_000, trace: false });
    const on = new UndiciTransport({ baseUrl: mock.url, connections: 1, requestTimeoutMs: 10_000 });
    const [a, b] = await Promise.all([off.send(...request(10)), on.send(...request(11))]);
    await Promise.all([off.close(), on.close()]);
    expect(a.trace ?? null).toBeNull();
    expect(b.trace?.send_start_ns).not.toBeNull();
  });
});

// TTFT and ITL over https match plain http within 5 % (medians, runs interleaved), on both
// transports, against the fast mock with fixed latencies serving each (its own processes).
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NativeTransport } from '../../src/transport/native.js';
import { UndiciTransport } from '../../src/transport/undici.js';
import { engineTls } from '../../src/transport/tls.js';
import type { TlsSettings } from '../../src/transport/tls.js';
import type { RawRecord } from '../../src/model/raw-record.js';
import { tmpDir } from '../helpers/cli.js';
import { spawnMock, type SpawnedMock } from '../helpers/mock.js';
import { makeTestCerts } from '../helpers/tls-certs.js';

const TTFT_MS = 40;
const ITL_MS = 10;
const SEND = { path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, streaming: true };
const BODY = Buffer.from(
  JSON.stringify({ model: 'mock-model', stream: true, max_tokens: 12, messages: [{ role: 'user', content: 'hi' }] }),
);

let plain: SpawnedMock;
let tls: SpawnedMock;
let settings: TlsSettings;

beforeAll(async () => {
  const certs = makeTestCerts(path.join(tmpDir('servebench-tls-'), 'certs'));
  settings = { insecure: false, ca_cert: certs.ca, client_cert: null, client_key: null, warning: null };
  const fast = ['--fast', '--ttft-ms', String(TTFT_MS), '--itl-ms', String(ITL_MS)];
  [plain, tls] = await Promise.all([spawnMock(fast), spawnMock([...fast, '--tls-cert', certs.serverCert, '--tls-key', certs.serverKey])]);
}, 60_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), tls?.stop()]);
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

function open(name: string, url: string) {
  const https = url.startsWith('https:');
  return name === 'native'
    ? new NativeTransport({
        baseUrl: url,
        address: '127.0.0.1',
        connections: 2,
        requestTimeoutMs: 10_000,
        threads: 1,
        tls: https ? engineTls(new URL(url), settings) : undefined,
      })
    : new UndiciTransport({ baseUrl: url, connections: 2, requestTimeoutMs: 10_000, tls: settings });
}

/** TTFT and ITL samples (ms) of `n` requests, two at a time, after one warm-up pair (the handshakes). */
async function sample(t: NativeTransport | UndiciTransport, n: number, ttft: number[], itl: number[]) {
  const one = (i: number) => t.send({ credit_id: i, targeted_start_ns: null } as never, { ...SEND, body: BODY });
  const take = (r: RawRecord) => {
    expect(r.error).toBeNull();
    ttft.push(Number(r.event_ns[0] - r.start_ns) / 1e6);
    for (let k = 2; k < r.event_ns.length - 1; k++) itl.push(Number(r.event_ns[k] - r.event_ns[k - 1]) / 1e6);
  };
  for (let i = 0; i < n; i += 2) (await Promise.all([one(i), one(i + 1)])).forEach(take);
}

it.each(['native', 'undici'])(
  '%s: https TTFT and ITL within 5 percent of plain http',
  async (name) => {
    const ts = { plain: open(name, plain.url), tls: open(name, tls.url) };
    const got = { plain: { ttft: [] as number[], itl: [] as number[] }, tls: { ttft: [] as number[], itl: [] as number[] } };
    try {
      await sample(ts.plain, 2, [], []);
      await sample(ts.tls, 2, [], []);
      for (let rep = 0; rep < 4; rep++) {
        for (const k of ['plain', 'tls'] as const) await sample(ts[k], 4, got[k].ttft, got[k].itl);
      }
    } finally {
      await Promise.all([ts.plain.close(), ts.tls.close()]);
    }
    const ttft = median(got.tls.ttft) / median(got.plain.ttft);
    const itl = median(got.tls.itl) / median(got.plain.itl);
    expect(median(got.plain.ttft)).toBeGreaterThanOrEqual(TTFT_MS * 0.95);
    expect(Math.abs(ttft - 1), `TTFT https/http = ${ttft}`).toBeLessThanOrEqual(0.05);
    expect(Math.abs(itl - 1), `ITL https/http = ${itl}`).toBeLessThanOrEqual(0.05);
  },
  60_000,
);

// HTTPS on both transports against the fast mock serving TLS (its own process): verification with
// --ca-cert, the default refusing an unknown CA (exit 2 at preflight), hostname mismatch, --insecure
// with its warning, mTLS required and satisfied, TLS failures as `connection` records with subtype
// `tls`, session resumption and the TLS trace phase; no key contents in any artifact or log.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NativeTransport } from '../../src/transport/native.js';
import { UndiciTransport } from '../../src/transport/undici.js';
import { engineTls } from '../../src/transport/tls.js';
import type { TlsSettings } from '../../src/transport/tls.js';
import { runCli, tmpDir } from '../helpers/cli.js';
import { expectRunInvariants } from '../helpers/hostile.js';
import { spawnMock, type SpawnedMock } from '../helpers/mock.js';
import { makeTestCerts, type TestCerts } from '../helpers/tls-certs.js';

const TRANSPORTS = ['native', 'undici'] as const;
const API_KEY = 'sk-tls-test-secret-0123456789';

let certs: TestCerts;
let mock: SpawnedMock;
let mtls: SpawnedMock;
let other: SpawnedMock;

beforeAll(async () => {
  certs = makeTestCerts(path.join(tmpDir('servebench-tls-'), 'certs'));
  const fast = ['--fast', '--ttft-ms', '5', '--itl-ms', '1'];
  [mock, mtls, other] = await Promise.all([
    spawnMock([...fast, '--tls-cert', certs.serverCert, '--tls-key', certs.serverKey]),
    spawnMock([...fast, '--tls-cert', certs.serverCert, '--tls-key', certs.serverKey, '--tls-client-ca', certs.ca]),
    spawnMock([...fast, '--tls-cert', certs.otherCert, '--tls-key', certs.otherKey]),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([mock?.stop(), mtls?.stop(), other?.stop()]);
});

function profile(url: string, transport: string, dir: string, extra: string[]) {
  return runCli([
    'profile',
    '--url',
    url,
    '--model',
    'mock-model',
    '--transport',
    transport,
    '--request-count',
    '6',
    '--concurrency',
    '2',
    '--isl',
    '16',
    '--osl',
    '8',
    '--artifact-dir',
    dir,
    '--ui',
    'none',
    ...extra,
  ]);
}

describe.each(TRANSPORTS)('https on %s', (transport) => {
  it('verifies with --ca-cert, over kept-alive connections, and traces the handshake', async () => {
    expect(mock.url.startsWith('https://')).toBe(true);
    const dir = tmpDir();
    // Connections opened on demand, so the first requests carry their handshake.
    const r = await profile(mock.url, transport, dir, ['--ca-cert', certs.ca, '--no-preconnect']);
    const { recs, json } = expectRunInvariants(r, dir);
    expect(json.counts).toEqual({ issued: 6, succeeded: 6, errored: 0, cancelled: 0 });
    expect(json.transport).toBe(transport);
    const fresh = recs.filter((x) => x.metrics.http_req_connection_reused?.value === 0);
    expect(fresh.length).toBeGreaterThanOrEqual(1);
    expect(fresh.length).toBeLessThanOrEqual(2);
    for (const x of recs) {
      const v = (t: string) => x.metrics[t].value as number;
      const phases = ['blocked', 'dns_lookup', 'connecting', 'tls_handshaking', 'sending', 'waiting', 'receiving'];
      expect(phases.map((p) => v(`http_req_${p}`)).reduce((a, b) => a + b, 0)).toBeCloseTo(v('http_req_total'), 6);
      if (v('http_req_connection_reused') === 1) expect(v('http_req_tls_handshaking')).toBe(0);
    }
    for (const x of fresh) expect(x.metrics.http_req_tls_handshaking.value).toBeGreaterThan(0);
  });

  it('by default the native engine handshakes before the load (--preconnect), undici on demand', async () => {
    const dir = tmpDir();
    const r = await profile(mock.url, transport, dir, ['--ca-cert', certs.ca]);
    const { recs, json } = expectRunInvariants(r, dir);
    expect(json.counts.succeeded).toBe(6);
    const fresh = recs.filter((x) => x.metrics.http_req_connection_reused?.value === 0);
    if (transport === 'native') {
      // Both of the closed loop's connections were up before the first request, outside every phase.
      expect(json.harness.preconnect).toMatchObject({ asked: 2, opened: 2 });
      expect(fresh).toHaveLength(0);
      for (const x of recs) expect(x.metrics.http_req_tls_handshaking.value).toBe(0);
    } else {
      expect(json.harness.preconnect).toBeUndefined();
      expect(fresh.length).toBeGreaterThanOrEqual(1);
    }
  });

  it('--insecure passes, with the warning on stderr and in the export', async () => {
    const dir = tmpDir();
    const r = await profile(other.url, transport, dir, ['-k']);
    const { json } = expectRunInvariants(r, dir);
    expect(json.counts.succeeded).toBe(6);
    expect(r.stderr).toMatch(/warning: --insecure: TLS certificates are not verified/);
    expect(json.config.tls.insecure).toBe(true);
    expect(json.config.tls.warning).toMatch(/not verified/);
  });

  it('mTLS: served with a client certificate; no key contents anywhere', async () => {
    const dir = tmpDir();
    const args = ['--ca-cert', certs.ca, '--client-cert', certs.clientCert, '--client-key', certs.clientKey, '--api-key', API_KEY];
    const r = await profile(mtls.url, transport, dir, [...args, '--export-level', 'raw']);
    const key = fs.readFileSync(certs.clientKey, 'utf8');
    const body = key.split('\n').filter((l) => l !== '' && !l.startsWith('-----'));
    const { json } = expectRunInvariants(r, dir, { secrets: [API_KEY, ...body.slice(0, 3)] });
    expect(json.counts.succeeded).toBe(6);
  });
});

// The preflight (undici for either transport) stops a run that nothing could connect for.
describe('preflight', () => {
  it('refuses an unknown CA by default: one line, exit 2', async () => {
    const r = await profile(mock.url, 'native', tmpDir(), []);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/TLS certificate verification failed: unknown CA/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a certificate for another name', async () => {
    const r = await profile(other.url.replace('127.0.0.1', 'localhost'), 'native', tmpDir(), ['--ca-cert', certs.ca]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/TLS certificate verification failed: hostname mismatch/);
  });
});

const SEND = { path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, streaming: true };
const BODY = Buffer.from(JSON.stringify({ model: 'mock-model', stream: true, max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] }));
const NONE: TlsSettings = { insecure: false, ca_cert: null, client_cert: null, client_key: null, warning: null };

function transport(name: string, url: string, tls: TlsSettings, connections: number | null = 1) {
  return name === 'native'
    ? new NativeTransport({
        baseUrl: url,
        address: '127.0.0.1',
        connections,
        requestTimeoutMs: 5000,
        threads: 1,
        tls: engineTls(new URL(url), tls),
      })
    : new UndiciTransport({ baseUrl: url, connections, requestTimeoutMs: 5000, tls });
}

async function sendOne(t: NativeTransport | UndiciTransport, id = 0) {
  return t.send({ credit_id: id, targeted_start_ns: null } as never, { ...SEND, body: BODY });
}

describe('TLS failures as records', () => {
  it.each(TRANSPORTS)(
    '%s: unknown CA, hostname mismatch and a missing client certificate are connection errors, subtype tls',
    async (name) => {
      const cases: [string, TlsSettings, RegExp][] = [
        [mock.url, NONE, /^unknown CA$/],
        [other.url.replace('127.0.0.1', 'localhost'), { ...NONE, ca_cert: certs.ca }, /^hostname mismatch$/],
        [mtls.url, { ...NONE, ca_cert: certs.ca }, /./],
      ];
      for (const [url, tls, reason] of cases) {
        const t = transport(name, url, tls);
        try {
          const rec = await sendOne(t);
          expect(rec.error, url).toMatchObject({ type: 'connection' });
          // A server refusing the missing certificate may reset before its alert is read: then no TLS reason.
          if (url !== mtls.url || rec.error?.subtype === 'tls')
            expect(rec.error).toMatchObject({ subtype: 'tls', reason: expect.stringMatching(reason) });
        } finally {
          await t.close();
        }
      }
    },
  );

  it('native: a second connection resumes the TLS session of the first', async () => {
    const t = transport('native', mock.url, { ...NONE, ca_cert: certs.ca }, null) as NativeTransport;
    try {
      expect((await sendOne(t)).error).toBeNull();
      // Two at once: one reuses the kept-alive connection, the other opens one, with the cached session.
      const recs = await Promise.all([sendOne(t, 1), sendOne(t, 2)]);
      for (const r of recs) expect(r.error).toBeNull();
      expect(t.stats().tls_handshakes).toBe(2);
      expect(t.stats().tls_resumed).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('native: resumes against a server that requires client certificates too (mTLS)', async () => {
    const tls = { ...NONE, ca_cert: certs.ca, client_cert: certs.clientCert, client_key: certs.clientKey };
    const t = transport('native', mtls.url, tls, null) as NativeTransport;
    try {
      expect((await sendOne(t)).error).toBeNull();
      // A verifying server that names no session context refuses every resumed session (internal_error).
      const recs = await Promise.all([sendOne(t, 1), sendOne(t, 2), sendOne(t, 3)]);
      for (const r of recs) expect(r.error).toBeNull();
      expect(t.stats().tls_resumed).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
    }
  });
});

import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeOnce, RttProber } from '../../../src/transport/rtt-probe.js';

let server: net.Server;
let port: number;
let accepted = 0;
beforeAll(async () => {
  server = net.createServer((s) => {
    accepted++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const p = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

describe('TCP handshake probes', () => {
  it('times a handshake to a listening port (loopback: well under 100 ms)', async () => {
    const before = accepted;
    const r = await probeOnce('127.0.0.1', port, 2000);
    expect(r.ok).toBe(true);
    expect(r.rtt_ns).toBeGreaterThan(0);
    expect(r.rtt_ns!).toBeLessThan(100e6);
    await new Promise((res) => setTimeout(res, 20));
    expect(accepted).toBe(before + 1);
  });

  it('resolves a host name before timing', async () => {
    const r = await probeOnce('localhost', port, 2000);
    // localhost may resolve to ::1 where nothing listens; either way the result is well formed.
    expect(r.ok ? r.rtt_ns! > 0 : typeof r.error === 'string').toBe(true);
  });

  it('a refused or unresolvable target is a failed probe, never a throw', async () => {
    const refused = await probeOnce('127.0.0.1', await closedPort(), 2000);
    expect(refused).toMatchObject({ ok: false, rtt_ns: null });
    expect(refused.error).toMatch(/ECONNREFUSED/);
    const unknown = await probeOnce('no-such-host.invalid', 80, 2000);
    expect(unknown.ok).toBe(false);
    expect(unknown.error).toMatch(/lookup failed/);
  });

  it('probes on an interval into a JSONL file and summarises the successes', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-rtt-')), 'network_latency.jsonl');
    const p = new RttProber({ host: '127.0.0.1', port, intervalMs: 30, file });
    p.start();
    await new Promise((r) => setTimeout(r, 200));
    const sum = await p.stop();
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(sum.probes);
    expect(sum.probes).toBeGreaterThanOrEqual(3);
    expect(sum.failed).toBe(0);
    expect(lines.every((l) => l.ok === true && l.rtt_ms > 0 && l.target === `127.0.0.1:${port}` && l.error === null)).toBe(true);
    const mean = lines.reduce((a, l) => a + l.rtt_ms, 0) / lines.length;
    expect(sum.mean_ns! / 1e6).toBeCloseTo(mean, 6);
  });

  it('failed probes are recorded as failed, with no mean', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-rtt-')), 'network_latency.jsonl');
    const p = new RttProber({ host: '127.0.0.1', port: await closedPort(), intervalMs: 30, file });
    p.start();
    await new Promise((r) => setTimeout(r, 120));
    const sum = await p.stop();
    expect(sum.ok).toBe(0);
    expect(sum.failed).toBeGreaterThan(0);
    expect(sum.mean_ns).toBeNull();
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.every((l) => l.ok === false && l.rtt_ms === null && typeof l.error === 'string')).toBe(true);
  });
});

import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NETWORK_LATENCY_JSONL, NetworkCalibration } from '../../../src/transport/network-calibration.js';
import { resetWarnings, setWarningSink } from '../../../src/warnings.js';

let warnings: string[] = [];
let logs: string[] = [];
let restore: () => void;
beforeEach(() => {
  warnings = [];
  logs = [];
  resetWarnings();
  restore = setWarningSink((l) => warnings.push(l));
});
afterEach(() => restore());

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cal-'));

describe('network calibration', () => {
  it('off: no RTT, nothing written', async () => {
    const d = dir();
    const c = new NetworkCalibration({ mode: 'off', mean_ms: null, ping_interval_s: 1 }, 'http://127.0.0.1:1', d);
    c.onProfilingStart();
    expect(await c.finish((m) => logs.push(m))).toEqual({ rtt_ns: null, info: null });
    expect(fs.existsSync(path.join(d, NETWORK_LATENCY_JSONL))).toBe(false);
  });

  it('a given mean is used as is and logged', async () => {
    const c = new NetworkCalibration({ mode: 'fixed', mean_ms: 5, ping_interval_s: 1 }, 'http://127.0.0.1:1', dir());
    const r = await c.finish((m) => logs.push(m));
    expect(r.rtt_ns).toBe(5e6);
    expect(logs.join('\n')).toContain('5 ms');
  });

  it('probes that all fail: recorded as failed, no adjustment, one warning', async () => {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as net.AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
    const d = dir();
    const c = new NetworkCalibration({ mode: 'automatic', mean_ms: null, ping_interval_s: 0.03 }, `http://127.0.0.1:${port}/v1`, d);
    c.onProfilingStart();
    await new Promise((r) => setTimeout(r, 100));
    const r = await c.finish((m) => logs.push(m));
    expect(r.rtt_ns).toBeNull();
    expect(r.info).toMatchObject({ mode: 'automatic', ok: 0, mean_ms: null });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/failed; no network adjustment made/);
    const lines = fs
      .readFileSync(path.join(d, NETWORK_LATENCY_JSONL), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.ok === false)).toBe(true);
  });
});

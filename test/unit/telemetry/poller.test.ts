// The native power poller against the fake NVML / AMD SMI libraries (test/fixtures).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { native, type NativePowerPoller } from '../../../src/native.js';
import { NativeGpuPoller } from '../../../src/telemetry/poller.js';
import { buildFakeGpuLibs, clearFakeGpuEnv, type FakeGpuLibs } from '../../fixtures/fake-gpu.js';

let libs: FakeGpuLibs;
const open: NativePowerPoller[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function poller(opts: { nvml?: string[]; amdsmi?: string[]; interval_ms?: number }): NativePowerPoller {
  const p = new native.PowerPoller({ nvml: opts.nvml ?? [], amdsmi: opts.amdsmi ?? [], interval_ns: (opts.interval_ms ?? 10) * 1e6 });
  open.push(p);
  return p;
}

beforeAll(() => {
  libs = buildFakeGpuLibs();
});

afterEach(() => {
  for (const p of open.splice(0)) p.stop();
  clearFakeGpuEnv();
});

describe('PowerPoller (native) with the fake NVML', () => {
  it('samples every GPU at the interval with consistent power and energy', async () => {
    process.env.SB_FAKE_NVML_POWER = '300,150';
    const p = poller({ nvml: [libs.nvml], interval_ms: 10 });
    expect(p.libraries().nvidia).toEqual({ state: 'ok', path: libs.nvml, message: '' });
    expect(p.libraries().amd.state).toBe('off');
    expect(p.devices().map((d) => [d.vendor, d.index, d.has_energy])).toEqual([
      ['nvidia', 0, true],
      ['nvidia', 1, true],
    ]);
    const t0 = process.hrtime.bigint();
    p.start();
    await sleep(300);
    const b = p.drain();
    const t1 = process.hrtime.bigint();
    const gpu0 = [...b.device.keys()].filter((i) => b.device[i] === 0);
    const gpu1 = [...b.device.keys()].filter((i) => b.device[i] === 1);
    // ~30 ticks in 300 ms at 10 ms; a loaded shared machine may lose a few.
    expect(gpu0.length).toBeGreaterThan(10);
    expect(gpu0.length).toBeLessThanOrEqual(32);
    expect(gpu1.length).toBe(gpu0.length);
    for (const i of gpu0) {
      expect(b.t_ns[i] >= t0 && b.t_ns[i] <= t1).toBe(true);
      expect(b.power_mw[i]).toBe(300_000);
      expect(b.gpu_util_pct[i]).toBe(50);
      expect(b.mem_util_pct[i]).toBe(20);
      expect(b.mem_used_bytes[i]).toBe(10 * 2 ** 30);
      expect(b.temp_c[i]).toBe(40);
      expect(b.sm_clock_mhz[i]).toBe(1980);
    }
    for (const i of gpu1) expect(b.power_mw[i]).toBe(150_000);
    // The counter (mJ, truncated) gains power x elapsed time between samples.
    const first = gpu0[0];
    const last = gpu0[gpu0.length - 1];
    const dtS = Number(b.t_ns[last] - b.t_ns[first]) / 1e9;
    expect(b.energy_mj[last] - b.energy_mj[first]).toBeGreaterThan(300_000 * dtS - 50);
    expect(b.energy_mj[last] - b.energy_mj[first]).toBeLessThan(300_000 * dtS + 50);
    // Stamps strictly increase per device.
    for (let k = 1; k < gpu0.length; k++) expect(b.t_ns[gpu0[k]] > b.t_ns[gpu0[k - 1]]).toBe(true);
    // A second drain holds only what was sampled since the first: two GPUs per 10 ms tick (plus one tick
    // of slack), however long this thread was held up in between.
    const again = p.drain();
    const sinceMs = Number(process.hrtime.bigint() - t1) / 1e6;
    expect(again.device.length).toBeLessThanOrEqual(2 * (Math.floor(sinceMs / 10) + 2));
  });

  it('reports a GPU without an energy counter and leaves its energy NaN', async () => {
    process.env.SB_FAKE_NVML_NO_ENERGY = '1';
    const p = poller({ nvml: [libs.nvml] });
    expect(p.devices().map((d) => d.has_energy)).toEqual([true, false]);
    p.start();
    await sleep(60);
    p.stop();
    const b = p.drain();
    const idx = [...b.device.keys()];
    expect(idx.some((i) => b.device[i] === 1)).toBe(true);
    for (const i of idx) {
      if (b.device[i] === 1) expect(b.energy_mj[i]).toBeNaN();
      else expect(b.energy_mj[i]).toBeGreaterThan(0);
      expect(b.power_mw[i]).toBe(300_000);
    }
  });

  it('marks a lost GPU failed, stops polling it, and keeps the others', async () => {
    const failAt = process.hrtime.bigint() + 150_000_000n;
    process.env.SB_FAKE_NVML_FAIL = `1@${failAt}`;
    const p = poller({ nvml: [libs.nvml], interval_ms: 10 });
    p.start();
    await sleep(400);
    const b = p.drain();
    const dev = p.devices();
    expect(dev[0].failed).toBe(false);
    expect(dev[1].failed).toBe(true);
    expect(dev[1].error).toMatch(/GPU is lost/);
    const lostSamples = [...b.device.keys()].filter((i) => b.device[i] === 1);
    expect(lostSamples.length).toBeGreaterThan(3);
    for (const i of lostSamples) expect(b.t_ns[i] < failAt).toBe(true);
    expect(dev[0].samples).toBeGreaterThan(dev[1].samples);
  });

  it('keeps a GPU whose calls fail transiently, with NaN in those samples', async () => {
    process.env.SB_FAKE_NVML_FLAKY = '0';
    const p = poller({ nvml: [libs.nvml], interval_ms: 5 });
    p.start();
    await sleep(200);
    p.stop();
    const b = p.drain();
    const mine = [...b.device.keys()].filter((i) => b.device[i] === 0);
    expect(p.devices()[0].failed).toBe(false);
    expect(mine.some((i) => Number.isNaN(b.energy_mj[i]) || Number.isNaN(b.power_mw[i]))).toBe(true);
    expect(mine.some((i) => Number.isFinite(b.energy_mj[i]))).toBe(true);
  });

  it('sees a counter reset as a drop in the energy counter', async () => {
    process.env.SB_FAKE_NVML_RESET_NS = String(process.hrtime.bigint() + 80_000_000n);
    const p = poller({ nvml: [libs.nvml], interval_ms: 10 });
    p.start();
    await sleep(200);
    p.stop();
    const b = p.drain();
    const e = [...b.device.keys()].filter((i) => b.device[i] === 0).map((i) => b.energy_mj[i]);
    expect(e[0]).toBeGreaterThan(1e8);
    expect(e[e.length - 1]).toBeLessThan(1e6);
  });

  it('reports a library that fails to initialise, is missing, or is not NVML', () => {
    process.env.SB_FAKE_NVML_INIT = '9';
    const failing = poller({ nvml: [libs.nvml] });
    expect(failing.libraries().nvidia.state).toBe('init_failed');
    expect(failing.libraries().nvidia.message).toMatch(/Driver Not Loaded/);
    expect(failing.devices()).toEqual([]);
    failing.start(); // no devices: nothing to start, no thread, no crash
    expect(failing.stats().running).toBe(false);
    delete process.env.SB_FAKE_NVML_INIT;

    const missing = poller({ nvml: ['/nonexistent/libnvidia-ml.so.1'] });
    expect(missing.libraries().nvidia).toMatchObject({ state: 'not_found', path: '/nonexistent/libnvidia-ml.so.1' });
    const notNvml = poller({ nvml: [libs.amdsmi] });
    expect(notNvml.libraries().nvidia.state).toBe('invalid');
    expect(notNvml.libraries().nvidia.message).toMatch(/not an NVML library/);
    // The first loadable candidate wins.
    const second = poller({ nvml: ['/nonexistent.so', libs.nvml] });
    expect(second.libraries().nvidia).toMatchObject({ state: 'ok', path: libs.nvml });
    second.stop(); // the fake re-reads its script when the last user has shut it down
    process.env.SB_FAKE_NVML_GPUS = '0';
    const none = poller({ nvml: [libs.nvml] });
    expect(none.libraries().nvidia.state).toBe('no_devices');
  });

  it('starts and stops cleanly, idempotently, and reports its thread', async () => {
    const p = poller({ nvml: [libs.nvml], interval_ms: 20 });
    p.start();
    p.start();
    expect(p.stats().running).toBe(true);
    await sleep(100);
    const before = Date.now();
    p.stop();
    expect(Date.now() - before).toBeLessThan(200); // the thread is woken within one interval
    p.stop();
    const s = p.stats();
    expect(s.running).toBe(false);
    expect(s.ticks).toBeGreaterThanOrEqual(2);
    expect(s.thread_cpu_ns).toBeGreaterThan(0);
    expect(s.dropped).toBe(0);
    p.start(); // a stopped poller does not restart
    expect(p.stats().running).toBe(false);
    expect(p.devices().map((d) => d.vendor)).toEqual(['nvidia', 'nvidia']);
  });

  it('drops the oldest samples when the ring is full, and counts them', async () => {
    const p = new native.PowerPoller({ nvml: [libs.nvml], interval_ns: 1e6, capacity: 16 });
    open.push(p);
    p.start();
    await sleep(100);
    p.stop();
    const b = p.drain();
    expect(b.device.length).toBe(16);
    expect(p.stats().dropped).toBeGreaterThan(0);
    // The survivors are the newest: the last ticks before stop.
    expect(p.stats().dropped + 16).toBe(p.devices().reduce((a, d) => a + d.samples, 0));
  });

  it('rejects bad options with a TypeError carrying SB_NATIVE_BAD_ARG', () => {
    const bad = [undefined, 5, { nvml: 'x' }, { nvml: [1] }, { interval_ns: 'fast' }, { interval_ns: 10 }, { capacity: -1 }];
    for (const arg of bad) {
      expect(() => new native.PowerPoller(arg as never)).toThrow(TypeError);
      try {
        new native.PowerPoller(arg as never);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('SB_NATIVE_BAD_ARG');
      }
    }
    const p = poller({ nvml: [libs.nvml] });
    expect(() => p.drain(-1)).toThrow(TypeError);
    expect(() => p.drain('x' as never)).toThrow(TypeError);
  });
});

describe('PowerPoller (native) with the fake AMD SMI', () => {
  it('reads socket power and energy = accumulator x resolution', async () => {
    process.env.SB_FAKE_AMDSMI_POWER = '250';
    const p = poller({ amdsmi: [libs.amdsmi], interval_ms: 10 });
    expect(p.libraries().amd.state).toBe('ok');
    expect(p.devices().map((d) => [d.vendor, d.index, d.has_energy])).toEqual([
      ['amd', 0, true],
      ['amd', 1, true],
    ]);
    p.start();
    await sleep(200);
    p.stop();
    const b = p.drain();
    const mine = [...b.device.keys()].filter((i) => b.device[i] === 0);
    for (const i of mine) {
      expect(b.power_mw[i]).toBe(250_000);
      expect(b.gpu_util_pct[i]).toBe(60);
      expect(b.mem_util_pct[i]).toBe(30);
      expect(b.temp_c[i]).toBe(55); // the junction sensor
      expect(b.sm_clock_mhz[i]).toBe(2100);
      expect(b.mem_used_bytes[i]).toBe(20 * 2 ** 30);
    }
    const first = mine[0];
    const last = mine[mine.length - 1];
    const dtS = Number(b.t_ns[last] - b.t_ns[first]) / 1e9;
    // One accumulator count is 15.259 uJ: the counter is exact to well under 1 mJ.
    expect(b.energy_mj[last] - b.energy_mj[first]).toBeCloseTo(250_000 * dtS, -1);
  });

  it('polls NVIDIA and AMD GPUs side by side', async () => {
    const p = poller({ nvml: [libs.nvml], amdsmi: [libs.amdsmi] });
    expect(p.devices().map((d) => `${d.vendor}:${d.index}`)).toEqual(['nvidia:0', 'nvidia:1', 'amd:0', 'amd:1']);
  });
});

describe('NativeGpuPoller', () => {
  it('drains into per-GPU series in W and J', async () => {
    process.env.SB_FAKE_NVML_POWER = '120';
    const p = new NativeGpuPoller({ nvml: [libs.nvml], amdsmi: [], intervalMs: 10 });
    expect(p.devices()).toEqual([
      { key: 'nvml:0', vendor: 'nvidia', index: 0, has_energy: true },
      { key: 'nvml:1', vendor: 'nvidia', index: 1, has_energy: true },
    ]);
    p.start();
    await sleep(450); // spans two drain timer firings and the final drain
    p.stop();
    const s = p.seriesMap().get('nvml:0')!;
    expect(s.length).toBeGreaterThan(15);
    expect([...s.column('power_w')].every((w) => w === 120)).toBe(true);
    const e = s.column('energy_j');
    expect(e[e.length - 1]).toBeGreaterThan(e[0]);
    expect(() => new NativeGpuPoller({ nvml: [], amdsmi: [], intervalMs: 0 })).toThrow(RangeError);
  });
});

// GpuTelemetry: which sources it opens, what it says about the others, and what it merges.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GpuTelemetry } from '../../../src/telemetry/collector.js';
import { parseGpuTelemetry } from '../../../src/telemetry/options.js';
import { buildFakeGpuLibs, clearFakeGpuEnv, type FakeGpuLibs } from '../../fixtures/fake-gpu.js';

let libs: FakeGpuLibs;
beforeAll(() => {
  libs = buildFakeGpuLibs();
});
afterEach(() => clearFakeGpuEnv());

async function open(values: string[], env: NodeJS.ProcessEnv, interval = 10) {
  const lines: string[] = [];
  const t = await GpuTelemetry.start(parseGpuTelemetry(values, interval)!, (l) => lines.push(l), env);
  return { t, lines };
}

describe('GpuTelemetry', () => {
  it('auto: polls what is present and stays quiet about what is not', async () => {
    const { t, lines } = await open(['auto'], { SERVEBENCH_NVML_LIBRARY: libs.nvml, SERVEBENCH_AMDSMI_LIBRARY: undefined });
    expect(t.available()).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    await t.stop();
    // Only the NVML line: /opt/rocm is absent here, and `auto` does not complain about it.
    expect(lines).toEqual(['GPU telemetry: NVML, 2 GPU(s) every 10 ms']);
    expect(t.gpus().map((g) => [g.key, g.name, g.has_energy, g.failed])).toEqual([
      ['nvml:0', 'NVIDIA Fake H100 #0', true, null],
      ['nvml:1', 'NVIDIA Fake H100 #1', true, null],
    ]);
    expect(t.seriesMap().get('nvml:0')!.length).toBeGreaterThan(2);
    expect(t.graceNs({ source: 'nvml' })).toBe(20_000_000n);
    expect(t.maxGraceNs()).toBe(20_000_000n);
    expect(t.pollerReport()).toMatchObject({ interval_ms: 10, dropped_samples: 0 });
  });

  it('a source asked for by name that fails is reported even when another works', async () => {
    const { t, lines } = await open(['nvml', 'amdsmi'], {
      SERVEBENCH_NVML_LIBRARY: libs.nvml,
      SERVEBENCH_AMDSMI_LIBRARY: '/nonexistent/libamd_smi.so',
    });
    await t.stop();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^AMD SMI: cannot load SERVEBENCH_AMDSMI_LIBRARY=\/nonexistent\/libamd_smi\.so \(/);
    expect(lines[1]).toBe('GPU telemetry: NVML, 2 GPU(s) every 10 ms');
  });

  it('nothing available: one line, and stop() is harmless', async () => {
    process.env.SB_FAKE_NVML_INIT = '9';
    const { t, lines } = await open(['nvml'], { SERVEBENCH_NVML_LIBRARY: libs.nvml });
    expect(t.available()).toBe(false);
    await t.stop();
    await t.stop();
    expect(lines).toEqual([
      `no GPU telemetry available (NVML (SERVEBENCH_NVML_LIBRARY=${libs.nvml}): nvmlInit_v2 failed: NVML error 9 (Driver Not Loaded)); continuing without energy metrics`,
    ]);
    expect(t.gpus()).toEqual([]);
    expect(t.pollerReport()).toBeNull();
  });
});

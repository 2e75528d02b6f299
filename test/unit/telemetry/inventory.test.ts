// Inventory through ffi-rs over the fake NVML / AMD SMI libraries.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { amdsmiInventory, nvmlInventory } from '../../../src/telemetry/inventory.js';
import { buildFakeGpuLibs, clearFakeGpuEnv, type FakeGpuLibs } from '../../fixtures/fake-gpu.js';

let libs: FakeGpuLibs;
beforeAll(() => {
  libs = buildFakeGpuLibs();
});
afterEach(() => clearFakeGpuEnv());

describe('nvmlInventory', () => {
  it('reads names, UUIDs, PCI bus ids, power limits and the driver version', () => {
    process.env.SB_FAKE_NVML_GPUS = '3';
    const inv = nvmlInventory(libs.nvml);
    expect(inv).toEqual({
      ok: true,
      path: libs.nvml,
      devices: [0, 1, 2].map((i) => ({
        vendor: 'nvidia',
        index: i,
        name: `NVIDIA Fake H100 #${i}`,
        uuid: `GPU-fa4e0000-0000-0000-0000-00000000000${i}`,
        pci_bus_id: `00000000:${(0x18 + i).toString(16).toUpperCase()}:00.0`,
        power_limit_w: 700,
        driver_version: '999.99',
      })),
    });
  });

  it('says why when the library is missing, not NVML, or fails to initialise', () => {
    const missing = nvmlInventory('/nonexistent/libnvidia-ml.so.1');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(/No such file/);
    const wrong = nvmlInventory(libs.amdsmi);
    expect(!wrong.ok && wrong.message).toMatch(/not an NVML library/);
    process.env.SB_FAKE_NVML_INIT = '9';
    const init = nvmlInventory(libs.nvml);
    expect(!init.ok && init.message).toMatch(/nvmlInit_v2 failed: NVML error 9/);
  });
});

describe('amdsmiInventory', () => {
  it('reads market names, UUIDs, BDFs, power caps and the driver version', () => {
    const inv = amdsmiInventory(libs.amdsmi);
    expect(inv.ok).toBe(true);
    expect(inv.ok && inv.devices).toEqual(
      [0, 1].map((i) => ({
        vendor: 'amd',
        index: i,
        name: `AMD Instinct Fake MI300X #${i}`,
        uuid: `fa4e74a1-0000-1000-8000-00000000000${i}`,
        pci_bus_id: `0000:${(0x40 + i).toString(16)}:00.0`,
        power_limit_w: 750,
        driver_version: '6.8.5-fake',
      })),
    );
  });

  it('says why when the library is not AMD SMI', () => {
    const wrong = amdsmiInventory(libs.nvml);
    expect(!wrong.ok && wrong.message).toMatch(/not an AMD SMI library/);
  });
});

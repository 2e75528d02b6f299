// GPU inventory (names, UUIDs, PCI bus ids, power limits, driver version) read in TS through
// ffi-rs over the same vendor libraries the native poller samples. Handles are pointers, passed
// back as 64-bit integers (same register/stack slot as a pointer on LP64 ABIs).
import { cString, DataType, FfiLibrary, handleAt } from './ffi-lib.js';
import type { GpuVendor } from './types.js';

export interface InventoryDevice {
  vendor: GpuVendor;
  index: number;
  name: string | null;
  uuid: string | null;
  pci_bus_id: string | null;
  power_limit_w: number | null;
  driver_version: string | null;
}

export type Inventory = { ok: true; path: string; devices: InventoryDevice[] } | { ok: false; path: string; message: string };

const I32 = DataType.I32;
const U32 = DataType.U32;
const BUF = DataType.U8Array;
const H = DataType.BigInt;

// Buffer sizes from nvml.h (NVML_DEVICE_NAME_V2_BUFFER_SIZE, NVML_DEVICE_UUID_V2_BUFFER_SIZE,
// NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE); nvmlPciInfo_t is 68 bytes, busId at offset 36.
const NVML_NAME = 96;
const NVML_UUID = 96;
const NVML_DRIVER = 80;
const NVML_PCI_BUF = 128;
const NVML_PCI_BUSID_OFFSET = 36;

function withLibrary<T>(path: string, fn: (lib: FfiLibrary) => T): T | { ok: false; path: string; message: string } {
  let lib: FfiLibrary;
  try {
    lib = new FfiLibrary(path);
  } catch (err) {
    return {
      ok: false,
      path,
      message: String((err as Error).message)
        .split('\n')
        .pop()!
        .trim(),
    };
  }
  try {
    return fn(lib);
  } finally {
    lib.close();
  }
}

export function nvmlInventory(path: string): Inventory {
  return withLibrary(path, (lib): Inventory => {
    const rc = lib.call('nvmlInit_v2', I32, [], []);
    if (rc === undefined) return { ok: false, path, message: 'not an NVML library (no nvmlInit_v2)' };
    if (rc !== 0) return { ok: false, path, message: `nvmlInit_v2 failed: NVML error ${rc}` };
    try {
      const drv = Buffer.alloc(NVML_DRIVER);
      const driver = lib.call('nvmlSystemGetDriverVersion', I32, [BUF, U32], [drv, NVML_DRIVER]) === 0 ? cString(drv) : null;
      const cnt = Buffer.alloc(4);
      if (lib.call('nvmlDeviceGetCount_v2', I32, [BUF], [cnt]) !== 0) return { ok: false, path, message: 'nvmlDeviceGetCount_v2 failed' };
      const devices: InventoryDevice[] = [];
      for (let i = 0; i < cnt.readUInt32LE(0); i++) {
        const hb = Buffer.alloc(8);
        const d: InventoryDevice = {
          vendor: 'nvidia',
          index: i,
          name: null,
          uuid: null,
          pci_bus_id: null,
          power_limit_w: null,
          driver_version: driver,
        };
        devices.push(d);
        if (lib.call('nvmlDeviceGetHandleByIndex_v2', I32, [U32, BUF], [i, hb]) !== 0) continue;
        const h = handleAt(hb, 0);
        const name = Buffer.alloc(NVML_NAME);
        if (lib.call('nvmlDeviceGetName', I32, [H, BUF, U32], [h, name, NVML_NAME]) === 0) d.name = cString(name);
        const uuid = Buffer.alloc(NVML_UUID);
        if (lib.call('nvmlDeviceGetUUID', I32, [H, BUF, U32], [h, uuid, NVML_UUID]) === 0) d.uuid = cString(uuid);
        const pci = Buffer.alloc(NVML_PCI_BUF);
        if (lib.call('nvmlDeviceGetPciInfo_v3', I32, [H, BUF], [h, pci]) === 0) d.pci_bus_id = cString(pci, NVML_PCI_BUSID_OFFSET, 32);
        const lim = Buffer.alloc(4);
        if (lib.call('nvmlDeviceGetEnforcedPowerLimit', I32, [H, BUF], [h, lim]) === 0) d.power_limit_w = lim.readUInt32LE(0) / 1000;
      }
      return { ok: true, path, devices };
    } finally {
      lib.call('nvmlShutdown', I32, [], []);
    }
  });
}

// amdsmi.h: AMDSMI_INIT_AMD_GPUS = 1 << 1; AMD_GPU = 1 (processor_type_t). Struct buffers are
// oversized (see ffi-lib.ts); market_name and driver_version sit at offset 0 in every layout.
const AMDSMI_INIT_AMD_GPUS = 2;
const AMD_GPU = 1;
const MAX_HANDLES = 256;
const STRUCT_BUF = 4096;

function bdfString(v: bigint): string {
  const fn = Number(v & 0x7n);
  const dev = Number((v >> 3n) & 0x1fn);
  const bus = Number((v >> 8n) & 0xffn);
  const domain = Number(v >> 16n);
  const hex = (n: number, w: number) => n.toString(16).padStart(w, '0');
  return `${hex(domain, 4)}:${hex(bus, 2)}:${hex(dev, 2)}.${fn.toString(16)}`;
}

export function amdsmiInventory(path: string): Inventory {
  return withLibrary(path, (lib): Inventory => {
    const rc = lib.call('amdsmi_init', I32, [DataType.U64], [AMDSMI_INIT_AMD_GPUS]);
    if (rc === undefined) return { ok: false, path, message: 'not an AMD SMI library (no amdsmi_init)' };
    if (rc !== 0) return { ok: false, path, message: `amdsmi_init failed: status ${rc}` };
    try {
      const handles: bigint[] = [];
      const nsock = Buffer.alloc(4);
      nsock.writeUInt32LE(MAX_HANDLES);
      const socks = Buffer.alloc(8 * MAX_HANDLES);
      if (lib.call('amdsmi_get_socket_handles', I32, [BUF, BUF], [nsock, socks]) !== 0)
        return { ok: false, path, message: 'amdsmi_get_socket_handles failed' };
      for (let s = 0; s < Math.min(nsock.readUInt32LE(0), MAX_HANDLES); s++) {
        const nproc = Buffer.alloc(4);
        nproc.writeUInt32LE(MAX_HANDLES);
        const procs = Buffer.alloc(8 * MAX_HANDLES);
        if (lib.call('amdsmi_get_processor_handles', I32, [H, BUF, BUF], [handleAt(socks, 8 * s), nproc, procs]) !== 0) continue;
        for (let p = 0; p < Math.min(nproc.readUInt32LE(0), MAX_HANDLES); p++) {
          const h = handleAt(procs, 8 * p);
          const type = Buffer.alloc(4);
          const trc = lib.call('amdsmi_get_processor_type', I32, [H, BUF], [h, type]);
          if (trc === 0 && type.readUInt32LE(0) !== AMD_GPU) continue;
          handles.push(h);
        }
      }
      const devices = handles.map((h, index): InventoryDevice => {
        const d: InventoryDevice = {
          vendor: 'amd',
          index,
          name: null,
          uuid: null,
          pci_bus_id: null,
          power_limit_w: null,
          driver_version: null,
        };
        const asic = Buffer.alloc(STRUCT_BUF);
        if (lib.call('amdsmi_get_gpu_asic_info', I32, [H, BUF], [h, asic]) === 0) d.name = cString(asic, 0, 256) || null;
        const len = Buffer.alloc(4);
        len.writeUInt32LE(64);
        const uuid = Buffer.alloc(64);
        if (lib.call('amdsmi_get_gpu_device_uuid', I32, [H, BUF, BUF], [h, len, uuid]) === 0) d.uuid = cString(uuid) || null;
        const bdf = Buffer.alloc(8);
        if (lib.call('amdsmi_get_gpu_device_bdf', I32, [H, BUF], [h, bdf]) === 0) d.pci_bus_id = bdfString(bdf.readBigUInt64LE(0));
        const drv = Buffer.alloc(STRUCT_BUF);
        if (lib.call('amdsmi_get_gpu_driver_info', I32, [H, BUF], [h, drv]) === 0) d.driver_version = cString(drv, 0, 256) || null;
        const cap = Buffer.alloc(256);
        // amdsmi_power_cap_info_t.power_cap: microwatts, the struct's first field.
        if (lib.call('amdsmi_get_power_cap_info', I32, [H, U32, BUF], [h, 0, cap]) === 0)
          d.power_limit_w = Number(cap.readBigUInt64LE(0)) / 1e6;
        return d;
      });
      return { ok: true, path, devices };
    } finally {
      lib.call('amdsmi_shut_down', I32, [], []);
    }
  });
}

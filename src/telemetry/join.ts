// Summary-time join: each GPU's series over the profiling window → per-GPU energy and the
// per-vendor totals the energy metrics read (src/metrics/families/energy.ts).
import type { EnergySource, GpuEnergyInput, VendorEnergy } from '../metrics/core/energy-input.js';
import { gpuWindowEnergy, type GpuWindowEnergy } from './energy-window.js';
import type { GpuSeries } from './series.js';
import type { GpuInfo, GpuVendor, TimeWindow } from './types.js';

export interface GpuWindowReport extends GpuWindowEnergy {
  key: string;
  vendor: GpuVendor;
}

export interface EnergyJoin {
  input: GpuEnergyInput;
  gpus: GpuWindowReport[];
}

/**
 * Joins the telemetry with the profiling window. `graceNs` per GPU (it depends on the source's
 * cadence); `concurrency` is the profiling phase's (null for request-rate runs).
 */
export function joinEnergy(
  gpus: readonly GpuInfo[],
  series: ReadonlyMap<string, GpuSeries>,
  window: TimeWindow,
  graceNs: (gpu: GpuInfo) => bigint,
  concurrency: number | null,
): EnergyJoin {
  const reports: GpuWindowReport[] = [];
  for (const g of gpus) {
    const s = series.get(g.key);
    if (!s || s.length === 0) continue;
    const e = gpuWindowEnergy(s.times(), s.column('power_w'), s.column('energy_j'), window, graceNs(g));
    reports.push({ key: g.key, vendor: g.vendor, ...e });
  }
  const window_s = Number(window.end_ns - window.start_ns) / 1e9;
  const vendors: Partial<Record<GpuVendor, VendorEnergy>> = {};
  for (const vendor of ['nvidia', 'amd'] as const) {
    const mine = reports.filter((r) => r.vendor === vendor && (r.energy_j !== undefined || r.mean_power_w !== undefined));
    if (mine.length === 0) continue;
    const powered = mine.filter((r) => r.mean_power_w !== undefined);
    const energized = mine.filter((r) => r.energy_j !== undefined);
    const sources = new Set(energized.map((r) => r.source));
    const source: EnergySource | null =
      energized.length === 0 ? null : sources.size > 1 ? 'mixed' : sources.has('counter') ? 'counter' : 'power_integration';
    vendors[vendor] = {
      gpus: mine.length,
      total_power_w: powered.length ? powered.reduce((a, r) => a + r.mean_power_w!, 0) : null,
      total_energy_j: energized.length ? energized.reduce((a, r) => a + r.energy_j!, 0) : null,
      source,
      window_s,
    };
  }
  return { input: { vendors, concurrency }, gpus: reports };
}

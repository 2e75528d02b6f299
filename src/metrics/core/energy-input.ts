// What the GPU power efficiency metrics read: per-vendor energy and power over the profiling
// window, joined from GPU telemetry at summary time (src/telemetry/join.ts builds it).

export type EnergyVendor = 'nvidia' | 'amd';

/** How a vendor's total energy was obtained: every GPU's counter, every GPU's integrated power, or both. */
export type EnergySource = 'counter' | 'power_integration' | 'mixed';

export interface VendorEnergy {
  /** GPUs of this vendor with at least one valid power or energy sample in the window. */
  gpus: number;
  /** Sum over GPUs of the mean power gauge in the window (W); null when no GPU reported power. */
  total_power_w: number | null;
  /** Sum over GPUs of the energy in the window (J); null when no GPU gave energy. */
  total_energy_j: number | null;
  source: EnergySource | null;
  /** The profiling window the energy covers, in seconds. */
  window_s: number;
}

export interface GpuEnergyInput {
  vendors: Partial<Record<EnergyVendor, VendorEnergy>>;
  /** Configured concurrency of the profiling phase; null for request-rate runs. */
  concurrency: number | null;
}

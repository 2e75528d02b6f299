// GPU telemetry types shared by the sources (native poller, DCGM scraper), the energy join and
// the exports. Values are in base units: W, J, %, bytes, degrees C, MHz.

export type GpuVendor = 'nvidia' | 'amd';
export type TelemetrySourceKind = 'nvml' | 'amdsmi' | 'dcgm';

/** What `--gpu-telemetry` asked for (validated; see options.ts). */
export interface GpuTelemetryConfig {
  /** Direct libraries to poll: NVML, AMD SMI, or both. */
  nvml: boolean;
  amdsmi: boolean;
  /** `auto`: poll whichever library is present and stay quiet about the absent one. */
  auto: boolean;
  /** DCGM exporter /metrics URLs to scrape. */
  dcgm_urls: string[];
  /** Sampling interval of the direct poller, ms (>= 1). */
  sample_interval_ms: number;
  /** DCGM scrape interval, ms. */
  dcgm_interval_ms: number;
}

/** One GPU as the inventory (ffi-rs, DCGM labels) knows it. Unknown fields are null. */
export interface GpuInfo {
  /** Stable id within a run: `nvml:0`, `amdsmi:1`, `dcgm:<host:port>:<gpu>`. */
  key: string;
  vendor: GpuVendor;
  source: TelemetrySourceKind;
  /** The vendor's own index (nvidia-smi / amd-smi numbering), or DCGM's `gpu` label. */
  index: number;
  name: string | null;
  uuid: string | null;
  pci_bus_id: string | null;
  power_limit_w: number | null;
  driver_version: string | null;
  /** Whether the GPU has a total-energy counter (null: not known yet). */
  has_energy: boolean | null;
  /** Set when the GPU stopped reporting (lost, or repeated failures); its samples up to then count. */
  failed: string | null;
}

/** Column names of a GPU time series, in jsonl order. */
export const SERIES_FIELDS = ['power_w', 'energy_j', 'gpu_util_pct', 'mem_util_pct', 'mem_used_bytes', 'temp_c', 'sm_clock_mhz'] as const;
export type SeriesField = (typeof SERIES_FIELDS)[number];

/** A sample's values by field; NaN where the GPU did not report. */
export type SampleValues = Record<SeriesField, number>;

/** The profiling window (warmup excluded), CLOCK_MONOTONIC ns. */
export interface TimeWindow {
  start_ns: bigint;
  end_ns: bigint;
}

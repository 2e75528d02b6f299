// GPU telemetry artifacts: the per-GPU time series (gpu_telemetry.jsonl, one line per sample)
// and the `gpu_telemetry` section of profile_export.json.
import fs from 'node:fs/promises';
import { ArtifactWriteError } from '../errors.js';
import type { DcgmStats } from './dcgm.js';
import type { PollerReport } from './collector.js';
import type { EnergyJoin } from './join.js';
import type { GpuSeries } from './series.js';
import { SERIES_FIELDS, type GpuInfo, type TimeWindow } from './types.js';

export const GPU_TELEMETRY_JSONL = 'gpu_telemetry.jsonl';

/** A finite number as JSON, NaN/Infinity as null. */
function num(v: number): string {
  return Number.isFinite(v) ? String(v) : 'null';
}

/**
 * One line per sample: {"gpu","vendor","t_ns",power_w,energy_j,gpu_util_pct,mem_util_pct,
 * mem_used_bytes,temp_c,sm_clock_mhz}; fields a GPU did not report are null. GPU by GPU, in time order.
 */
export async function writeGpuTelemetryJsonl(
  file: string,
  gpus: readonly GpuInfo[],
  series: ReadonlyMap<string, GpuSeries>,
): Promise<number> {
  // A file handle, not a stream: a full disk rejects a write (ArtifactWriteError), never an unheard 'error' event.
  let out: fs.FileHandle | null = null;
  try {
    out = await fs.open(file, 'w');
    return await writeSeries(out, gpus, series);
  } catch (err) {
    throw ArtifactWriteError.from(file, err);
  } finally {
    await out?.close().catch(() => {});
  }
}

async function writeSeries(out: fs.FileHandle, gpus: readonly GpuInfo[], series: ReadonlyMap<string, GpuSeries>): Promise<number> {
  let lines = 0;
  let chunk = '';
  for (const g of gpus) {
    const s = series.get(g.key);
    if (!s) continue;
    const t = s.times();
    const cols = SERIES_FIELDS.map((f) => s.column(f));
    const head = `{"gpu":${JSON.stringify(g.key)},"vendor":"${g.vendor}","t_ns":`;
    for (let i = 0; i < t.length; i++) {
      chunk += head + t[i].toString();
      for (let k = 0; k < SERIES_FIELDS.length; k++) chunk += `,"${SERIES_FIELDS[k]}":${num(cols[k][i])}`;
      chunk += '}\n';
      lines++;
      if (chunk.length > 1 << 16) {
        await out.writeFile(chunk);
        chunk = '';
      }
    }
  }
  await out.writeFile(chunk); // writeFile, not write: it goes on until every byte is written
  return lines;
}

export interface TelemetrySection {
  window: { start_ns: bigint; end_ns: bigint };
  gpus: Array<
    GpuInfo & {
      grace_ns: bigint;
      energy_j: number | null;
      energy_source: string | null;
      mean_power_w: number | null;
      counter_energy_j: number | null;
      integrated_energy_j: number | null;
      samples_in_window: number;
    }
  >;
  vendors: EnergyJoin['input']['vendors'];
  poller: PollerReport | null;
  dcgm: DcgmStats[];
  warnings: string[];
}

export function telemetrySection(
  gpus: readonly GpuInfo[],
  join: EnergyJoin,
  window: TimeWindow,
  graceNs: (g: GpuInfo) => bigint,
  poller: PollerReport | null,
  dcgm: DcgmStats[],
  warnings: string[],
): TelemetrySection {
  return {
    window: { start_ns: window.start_ns, end_ns: window.end_ns },
    gpus: gpus.map((g) => {
      const r = join.gpus.find((x) => x.key === g.key);
      return {
        ...g,
        grace_ns: graceNs(g),
        energy_j: r?.energy_j ?? null,
        energy_source: r?.source ?? null,
        mean_power_w: r?.mean_power_w ?? null,
        counter_energy_j: r?.counter_energy_j ?? null,
        integrated_energy_j: r?.integrated_energy_j ?? null,
        samples_in_window: r?.samples_in_window ?? 0,
      };
    }),
    vendors: join.input.vendors,
    poller,
    dcgm,
    warnings,
  };
}

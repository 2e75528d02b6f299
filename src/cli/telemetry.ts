// `servebench telemetry`: what GPU telemetry this host offers. Prints the inventory, samples for
// --seconds, then per GPU the sample rate achieved, the power range, and the energy-counter delta
// against integrated power. Exits 0 saying so when no GPU is found.
import type { CommandModule } from 'yargs';
import { InvalidArgumentError } from '../errors.js';
import { setLongTimeout } from '../timers.js';
import type { GpuTelemetry } from '../telemetry/collector.js';
import { gpuWindowEnergy } from '../telemetry/energy-window.js';
import { parseGpuTelemetry } from '../telemetry/options.js';
import type { GpuInfo } from '../telemetry/types.js';
import { COMMAND_HEADS } from './command-heads.js';

interface TelemetryArgs {
  seconds: number;
  'gpu-telemetry'?: string[];
  'gpu-sample-interval-ms'?: number;
}

const fmt = (v: number | null | undefined, d = 1) => (v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(d));

function inventoryLines(gpus: readonly GpuInfo[]): string[] {
  const lines = ['GPU inventory:'];
  for (const g of gpus) {
    lines.push(
      `  ${g.key}  ${g.name ?? '(name unknown)'}  uuid=${g.uuid ?? '-'}  pci=${g.pci_bus_id ?? '-'}  ` +
        `power_limit=${fmt(g.power_limit_w)} W  driver=${g.driver_version ?? '-'}  energy_counter=${g.has_energy === null ? '?' : g.has_energy ? 'yes' : 'no'}`,
    );
  }
  return lines;
}

function sampleLines(t: GpuTelemetry, seconds: number): string[] {
  const lines = [`Sampling over ${seconds} s:`];
  for (const g of t.gpus()) {
    const s = t.seriesMap().get(g.key);
    if (!s || s.length === 0) {
      lines.push(`  ${g.key}  no samples${g.failed ? ` (${g.failed})` : ''}`);
      continue;
    }
    const times = s.times();
    const power = s.column('power_w');
    let lo = Infinity;
    let hi = -Infinity;
    for (const p of power) {
      if (!Number.isFinite(p)) continue;
      lo = Math.min(lo, p);
      hi = Math.max(hi, p);
    }
    const spanS = Number(times[times.length - 1] - times[0]) / 1e9;
    const rate = spanS > 0 ? (times.length - 1) / spanS : NaN;
    // Both estimates over the same span (first to last sample), so they are comparable.
    const e = gpuWindowEnergy(times, power, s.column('energy_j'), { start_ns: times[0], end_ns: times[times.length - 1] }, 0n);
    const diff =
      e.counter_energy_j !== undefined && e.integrated_energy_j !== undefined && e.integrated_energy_j > 0
        ? `${fmt((100 * (e.counter_energy_j - e.integrated_energy_j)) / e.integrated_energy_j, 2)} %`
        : '-';
    lines.push(
      `  ${g.key}  samples=${times.length}  rate=${fmt(rate)} /s  power=${fmt(lo)}..${fmt(hi)} W (mean ${fmt(e.mean_power_w)})  ` +
        `energy: counter=${fmt(e.counter_energy_j, 3)} J  integrated=${fmt(e.integrated_energy_j, 3)} J  diff=${diff}${g.failed ? `  FAILED: ${g.failed}` : ''}`,
    );
  }
  const p = t.pollerReport();
  if (p) {
    const cpu = seconds > 0 ? (100 * p.thread_cpu_s) / seconds : NaN;
    lines.push(
      `  poller: ${p.ticks} ticks at ${p.interval_ms} ms, thread CPU ${fmt(p.thread_cpu_s * 1e3, 2)} ms (${fmt(cpu, 4)} % of a core), ${p.dropped_samples} samples dropped`,
    );
  }
  for (const d of t.dcgmStats())
    lines.push(`  dcgm ${d.url}: ${d.scrapes} scrapes, ${d.failed_scrapes} failed, ${d.malformed_lines} malformed lines skipped`);
  return lines;
}

export const telemetryCommand: CommandModule<object, TelemetryArgs> = {
  ...COMMAND_HEADS.telemetry,
  builder: (y) =>
    y.options({
      seconds: { type: 'number', default: 5, describe: 'sample for this many seconds (0: inventory only)' },
      'gpu-telemetry': { type: 'string', array: true, describe: 'sources: nvml | amdsmi | auto | dcgm[=URL,...] (default auto)' },
      'gpu-sample-interval-ms': { type: 'number', describe: 'NVML/AMD SMI sampling interval in ms (default 50, min 1)' },
    }),
  handler: async (argv) => {
    const seconds = argv.seconds;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
      throw new InvalidArgumentError(`--seconds: must be a number >= 0, got ${String(seconds)}`);
    }
    const cfg = parseGpuTelemetry(argv['gpu-telemetry'] ?? ['auto'], argv['gpu-sample-interval-ms'])!;
    const { GpuTelemetry } = await import('../telemetry/collector.js');
    const t = await GpuTelemetry.start(cfg, (line) => process.stderr.write(`servebench: ${line}\n`));
    if (!t.available()) {
      await t.stop();
      process.stdout.write('no GPU found: GPU telemetry is not available on this host\n');
      return;
    }
    process.stdout.write(inventoryLines(t.gpus()).join('\n') + '\n');
    if (seconds > 0) await new Promise<void>((r) => setLongTimeout(r, seconds * 1000));
    await t.stop();
    if (seconds > 0) process.stdout.write(sampleLines(t, seconds).join('\n') + '\n');
  },
};

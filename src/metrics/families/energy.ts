// GPU power efficiency metrics (AIPerf reference, "GPU Power Efficiency Metrics"), one set per
// vendor (`nvidia_*`, `amd_*`), each summing only its own vendor's GPUs. Externally injected:
// they read the energy joined from GPU telemetry (run.gpu_energy, see src/telemetry/join.ts) and
// yield no value when it is absent, so a run without --gpu-telemetry shows none of them.
import type { EnergyVendor, VendorEnergy } from '../core/energy-input.js';
import { NS_PER_S, runNumber } from '../core/helpers.js';
import { MetricFlag, type ConsoleGroup, type RunMetricDef, type RunMetricInput, type RunValue } from '../core/types.js';

const GROUPS: Record<EnergyVendor, ConsoleGroup> = { nvidia: 'gpu_power_nvidia', amd: 'gpu_power_amd' };

function vendorOf(run: RunMetricInput, v: EnergyVendor): VendorEnergy | undefined {
  return run.gpu_energy?.vendors[v];
}

/** a / b, no value when b is not positive. */
function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined || !(b > 0) ? undefined : a / b;
}

function num(values: ReadonlyMap<string, RunValue>, tag: string): number | undefined {
  const v = values.get(tag);
  return v === undefined ? undefined : Number(v);
}

/** The twelve metrics of one vendor, in display order. */
export function energyMetrics(vendor: EnergyVendor): RunMetricDef[] {
  const p = `${vendor}_`;
  const E = `${p}total_gpu_energy`;
  const P = `${p}average_gpu_power`;
  const base = { kind: 'derived' as const, group: GROUPS[vendor] };
  return [
    {
      ...base,
      tag: `${p}total_gpu_power`,
      header: 'Total GPU Power',
      unit: 'W',
      display: 'W',
      flags: MetricFlag.NONE,
      requires: [],
      compute: (run) => vendorOf(run, vendor)?.total_power_w ?? undefined,
    },
    {
      ...base,
      tag: E,
      header: 'Total GPU Energy',
      unit: 'J',
      display: 'J',
      flags: MetricFlag.NONE,
      requires: [],
      compute: (run) => vendorOf(run, vendor)?.total_energy_j ?? undefined,
    },
    {
      ...base,
      tag: P,
      header: 'Average GPU Power',
      unit: 'W',
      display: 'W',
      flags: MetricFlag.NONE,
      requires: [],
      // The fleet power that produced the energy: energy / window under the counter path; the
      // summed gauge averages under pure power integration (as the reference defines it).
      compute: (run) => {
        const v = vendorOf(run, vendor);
        if (!v) return undefined;
        if (v.source === 'power_integration') return v.total_power_w ?? undefined;
        return v.total_energy_j === null ? (v.total_power_w ?? undefined) : ratio(v.total_energy_j, v.window_s);
      },
    },
    {
      ...base,
      tag: `${p}output_tokens_per_joule`,
      header: 'Output Tokens per Joule',
      unit: 'tokens/J',
      display: 'tokens/J',
      flags: MetricFlag.LARGER_IS_BETTER | MetricFlag.PRODUCES_TOKENS_ONLY,
      requires: ['total_osl', E],
      compute: (_run, v) => ratio(num(v, 'total_osl'), num(v, E)),
    },
    {
      ...base,
      tag: `${p}energy_per_output_token`,
      header: 'Energy per Output Token',
      unit: 'J/token',
      display: 'mJ/token',
      flags: MetricFlag.PRODUCES_TOKENS_ONLY,
      requires: ['total_osl', E],
      compute: (_run, v) => ratio(num(v, E), num(v, 'total_osl')),
    },
    {
      ...base,
      tag: `${p}energy_per_total_token`,
      header: 'Energy per Total Token',
      unit: 'J/token',
      display: 'mJ/token',
      flags: MetricFlag.PRODUCES_TOKENS_ONLY,
      requires: ['total_isl', 'total_osl', E],
      compute: (_run, v) => ratio(num(v, E), runNumber(v, 'total_isl') + runNumber(v, 'total_osl')),
    },
    {
      ...base,
      tag: `${p}energy_per_request`,
      header: 'Energy per Request',
      unit: 'J/request',
      display: 'J/request',
      flags: MetricFlag.NONE,
      requires: ['request_count', E],
      compute: (_run, v) => ratio(num(v, E), num(v, 'request_count')),
    },
    {
      ...base,
      tag: `${p}energy_per_user`,
      header: 'Energy per User',
      unit: 'J/user',
      display: 'J/user',
      flags: MetricFlag.NONE,
      requires: [E],
      // Concurrency runs only: request-rate runs have no configured number of users.
      compute: (run, v) => ratio(num(v, E), run.gpu_energy?.concurrency ?? undefined),
    },
    {
      ...base,
      tag: `${p}performance_per_watt`,
      header: 'Performance per Watt',
      unit: 'requests/s/W',
      display: 'requests/s/W',
      flags: MetricFlag.LARGER_IS_BETTER,
      requires: ['request_throughput', P],
      compute: (_run, v) => ratio(num(v, 'request_throughput'), num(v, P)),
    },
    {
      ...base,
      tag: `${p}output_tps_per_watt`,
      header: 'Output TPS per Watt',
      unit: 'tokens/s/W',
      display: 'tokens/s/W',
      flags: MetricFlag.LARGER_IS_BETTER | MetricFlag.PRODUCES_TOKENS_ONLY,
      requires: ['output_token_throughput', P],
      compute: (_run, v) => ratio(num(v, 'output_token_throughput'), num(v, P)),
    },
    {
      ...base,
      tag: `${p}goodput_per_watt`,
      header: 'Goodput per Watt',
      unit: 'requests/s/W',
      display: 'requests/s/W',
      // `goodput` has a value only when --goodput SLOs are set; without them neither has one.
      flags: MetricFlag.GOODPUT | MetricFlag.LARGER_IS_BETTER,
      requires: ['goodput', P],
      compute: (_run, v) => ratio(num(v, 'goodput'), num(v, P)),
    },
    {
      ...base,
      tag: `${p}energy_delay_product`,
      header: 'Energy Delay Product',
      unit: 'J*s',
      display: 'J*s',
      flags: MetricFlag.NONE,
      requires: [`${p}energy_per_request`, 'request_latency'],
      compute: (run, v) => {
        const latencyNs = run.histograms.get('request_latency')?.moments()?.avg;
        const perRequest = num(v, `${p}energy_per_request`);
        return latencyNs === undefined || perRequest === undefined ? undefined : perRequest * (latencyNs / NS_PER_S);
      },
    },
  ];
}

export const nvidiaEnergyMetrics: readonly RunMetricDef[] = energyMetrics('nvidia');
export const amdEnergyMetrics: readonly RunMetricDef[] = energyMetrics('amd');

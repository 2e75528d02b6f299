// The GPU power efficiency family: the join from GPU series to per-vendor energy, and every
// metric's formula (AIPerf reference, "GPU Power Efficiency Metrics") through summarize().
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/metrics/accumulate.js';
import type { GpuEnergyInput } from '../../../src/metrics/core/energy-input.js';
import { findMetric, type MetricsSummary } from '../../../src/metrics/core/summary.js';
import { renderConsole } from '../../../src/export/console.js';
import { metricEntry } from '../../../src/export/metric-entry.js';
import { joinEnergy } from '../../../src/telemetry/join.js';
import { GpuSeries } from '../../../src/telemetry/series.js';
import type { GpuInfo } from '../../../src/telemetry/types.js';
import { processed } from '../metrics/fixtures.js';

const T0 = 10_000_000_000n;
const MS = 1_000_000n;

/** Four non-streaming requests (the body at `end` is the one content response) of 100 input / 10 output tokens, latencies 100..400 ms, over [T0, T0+400ms]. */
function records() {
  return [100, 200, 300, 400].map((end, i) => processed({ start: T0, end, streaming: false, input: 100, output: 10 }, { index: i }));
}

function value(s: MetricsSummary, tag: string): number | undefined {
  const m = findMetric(s, tag);
  return m ? Number(metricEntry(m).avg) : undefined;
}

const nvidia = (over: Partial<GpuEnergyInput['vendors']['nvidia']> = {}): GpuEnergyInput => ({
  vendors: { nvidia: { gpus: 2, total_power_w: 590, total_energy_j: 240, source: 'counter', window_s: 0.4, ...over } },
  concurrency: 4,
});

describe('GPU power efficiency metrics', () => {
  it('computes every NVIDIA metric from the energy and the run summary', () => {
    const s = summarize(records(), { gpuEnergy: nvidia() });
    const E = 240;
    const latencyMeanS = 0.25;
    const duration = 0.4; // min start .. max end
    expect(value(s, 'nvidia_total_gpu_power')).toBe(590);
    expect(value(s, 'nvidia_total_gpu_energy')).toBe(E);
    expect(value(s, 'nvidia_average_gpu_power')).toBeCloseTo(E / 0.4, 9); // counter path: energy / window
    expect(value(s, 'nvidia_output_tokens_per_joule')).toBeCloseTo(40 / E, 12);
    expect(value(s, 'nvidia_energy_per_output_token')).toBeCloseTo((E * 1000) / 40, 9); // mJ/token
    expect(value(s, 'nvidia_energy_per_total_token')).toBeCloseTo((E * 1000) / 440, 9);
    expect(value(s, 'nvidia_energy_per_request')).toBeCloseTo(E / 4, 12);
    expect(value(s, 'nvidia_energy_per_user')).toBeCloseTo(E / 4, 12);
    expect(value(s, 'nvidia_performance_per_watt')).toBeCloseTo(4 / duration / (E / 0.4), 12);
    expect(value(s, 'nvidia_output_tps_per_watt')).toBeCloseTo(40 / duration / (E / 0.4), 12);
    expect(value(s, 'nvidia_energy_delay_product')).toBeCloseTo((E / 4) * latencyMeanS, 9);
    // Goodput needs SLOs: without them, no goodput per watt.
    expect(findMetric(s, 'nvidia_goodput_per_watt')).toBeUndefined();
    expect(s.metrics.some((m) => m.tag.startsWith('amd_'))).toBe(false);
    expect(findMetric(s, 'nvidia_energy_per_output_token')?.display).toBe('mJ/token');
  });

  it('divides goodput by the average power when SLOs are set', () => {
    // request_latency <= 250 ms: 2 of the 4 requests are good.
    const s = summarize(records(), {
      gpuEnergy: nvidia(),
      metricOptions: { goodput: [{ tag: 'request_latency', threshold: 250e6, largerIsBetter: false }] },
    });
    expect(value(s, 'goodput')).toBeCloseTo(2 / 0.4, 9);
    expect(value(s, 'nvidia_goodput_per_watt')).toBeCloseTo(2 / 0.4 / (240 / 0.4), 12);
  });

  it('uses the summed gauge averages as average power under power integration', () => {
    const s = summarize(records(), { gpuEnergy: nvidia({ source: 'power_integration', total_energy_j: 236 }) });
    expect(value(s, 'nvidia_average_gpu_power')).toBe(590);
    expect(value(s, 'nvidia_performance_per_watt')).toBeCloseTo(10 / 590, 12);
  });

  it('omits energy per user without a concurrency, and each tag whose signal is missing', () => {
    const s = summarize(records(), { gpuEnergy: { ...nvidia({ total_energy_j: null, source: null }), concurrency: null } });
    expect(value(s, 'nvidia_total_gpu_power')).toBe(590);
    expect(value(s, 'nvidia_average_gpu_power')).toBe(590);
    for (const tag of ['total_gpu_energy', 'energy_per_user', 'energy_per_request', 'output_tokens_per_joule', 'energy_delay_product']) {
      expect(findMetric(s, `nvidia_${tag}`)).toBeUndefined();
    }
    const zero = summarize(records(), { gpuEnergy: nvidia({ total_energy_j: 0 }) });
    expect(findMetric(zero, 'nvidia_output_tokens_per_joule')).toBeUndefined();
  });

  it('has no GPU metric at all without telemetry', () => {
    const s = summarize(records());
    expect(s.metrics.some((m) => m.tag.startsWith('nvidia_') || m.tag.startsWith('amd_'))).toBe(false);
    expect(renderConsole(s)).not.toMatch(/GPU Power Efficiency/);
  });

  it('renders one console section per vendor, after the main tables', () => {
    const input = nvidia();
    input.vendors.amd = { gpus: 1, total_power_w: 250, total_energy_j: 100, source: 'power_integration', window_s: 0.4 };
    const out = renderConsole(summarize(records(), { gpuEnergy: input }));
    const nv = out.indexOf('GPU Power Efficiency (NVIDIA)');
    const amd = out.indexOf('GPU Power Efficiency (AMD)');
    expect(nv).toBeGreaterThan(out.indexOf('LLM Metrics'));
    expect(amd).toBeGreaterThan(nv);
    expect(out).toMatch(/Energy per Output Token \(mJ\/token\)/);
  });
});

function gpu(key: string, vendor: 'nvidia' | 'amd'): GpuInfo {
  return {
    key,
    vendor,
    source: vendor === 'nvidia' ? 'nvml' : 'amdsmi',
    index: 0,
    name: null,
    uuid: null,
    pci_bus_id: null,
    power_limit_w: null,
    driver_version: null,
    has_energy: null,
    failed: null,
  };
}

function series(powerW: number, withCounter: boolean, fromMs = -200, toMs = 1200): GpuSeries {
  const s = new GpuSeries(4);
  for (let m = fromMs; m <= toMs; m += 50) {
    s.push(T0 + BigInt(m) * MS, { power_w: powerW, energy_j: withCounter ? 1000 + (powerW * m) / 1000 : NaN });
  }
  return s;
}

describe('joinEnergy', () => {
  it('sums each vendor over its own GPUs and names the energy source', () => {
    const gpus = [gpu('nvml:0', 'nvidia'), gpu('nvml:1', 'nvidia'), gpu('amdsmi:0', 'amd'), gpu('nvml:2', 'nvidia')];
    const map = new Map([
      ['nvml:0', series(300, true)],
      ['nvml:1', series(200, false)],
      ['amdsmi:0', series(500, true)],
      // nvml:2 has no series at all (a GPU that never reported): left out.
    ]);
    const j = joinEnergy(gpus, map, { start_ns: T0, end_ns: T0 + 1000n * MS }, () => 100n * MS, 8);
    expect(j.input.concurrency).toBe(8);
    const nv = j.input.vendors.nvidia!;
    expect(nv.gpus).toBe(2);
    expect(nv.source).toBe('mixed');
    expect(nv.total_power_w).toBe(500);
    expect(nv.total_energy_j).toBeCloseTo(500, 9);
    expect(nv.window_s).toBe(1);
    expect(j.input.vendors.amd).toMatchObject({ gpus: 1, source: 'counter', total_power_w: 500 });
    expect(j.input.vendors.amd!.total_energy_j).toBeCloseTo(500, 9);
    expect(j.gpus.map((g) => [g.key, g.source])).toEqual([
      ['nvml:0', 'counter'],
      ['nvml:1', 'power_integration'],
      ['amdsmi:0', 'counter'],
    ]);
  });

  it('leaves warmup samples out: only the window counts', () => {
    const s = new GpuSeries();
    // 1000 W during "warmup" (before T0), 100 W in the window.
    for (let m = -500; m <= 1000; m += 10) s.push(T0 + BigInt(m) * MS, { power_w: m < 0 ? 1000 : 100 });
    const j = joinEnergy([gpu('nvml:0', 'nvidia')], new Map([['nvml:0', s]]), { start_ns: T0, end_ns: T0 + 1000n * MS }, () => 0n, 1);
    expect(j.input.vendors.nvidia!.total_power_w).toBe(100);
    // The first in-window sample is at T0 exactly, so the 1000 W ramp never enters the integral.
    expect(j.input.vendors.nvidia!.total_energy_j).toBeCloseTo(100, 9);
  });

  it('has no vendor entry when nothing reported in the window', () => {
    const j = joinEnergy(
      [gpu('nvml:0', 'nvidia')],
      new Map([['nvml:0', series(300, true, 5000, 6000)]]),
      { start_ns: T0, end_ns: T0 + 1000n * MS },
      () => 0n,
      1,
    );
    expect(j.input.vendors).toEqual({});
  });
});

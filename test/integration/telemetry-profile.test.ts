// `profile` with GPU telemetry from the fake NVML / AMD SMI libraries: every energy metric is
// checked against the value computed from the fake's script over the profiling window that
// profile_export.json reports. Needs the built CLI (npx tsc -p tsconfig.build.json).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { buildFakeGpuLibs, scriptEnergyJ, type FakeGpuLibs } from '../fixtures/fake-gpu.js';

let libs: FakeGpuLibs;
beforeAll(() => {
  libs = buildFakeGpuLibs();
});

const BASE = ['--ui', 'none', '--concurrency', '4', '--osl', '16', '--isl', '32', '--mock-ttft-ms', '5', '--mock-itl-ms', '2'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
  json: any;
  metric(tag: string): number | undefined;
  windowS: number;
  start: bigint;
  end: bigint;
}

async function profile(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const dir = tmpDir();
  const r = await runCli(['profile', ...BASE, '--artifact-dir', dir, ...args], { env, timeoutMs: 90_000 });
  const json = fs.existsSync(path.join(dir, 'profile_export.json')) ? readJson(path.join(dir, 'profile_export.json')) : null;
  const w = json?.gpu_telemetry?.window;
  const start = w ? BigInt(w.start_ns) : 0n;
  const end = w ? BigInt(w.end_ns) : 0n;
  return {
    ...r,
    dir,
    json,
    metric: (tag) => json?.metrics?.[tag]?.avg,
    windowS: Number(end - start) / 1e9,
    start,
    end,
  };
}

const nvmlEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ SERVEBENCH_NVML_LIBRARY: libs.nvml, ...extra });

describe('profile --gpu-telemetry nvml (fake NVML)', () => {
  it('2 GPUs at a constant 300 W: every energy metric matches the script over the profiling window', async () => {
    const r = await profile(
      ['--gpu-telemetry', 'nvml', '--request-count', '40', '--warmup-request-count', '8'],
      nvmlEnv({ SB_FAKE_NVML_POWER: '300' }),
    );
    expect(r.code, r.stderr).toBe(0);
    // The window is the profiling phase's, as the run section reports it.
    expect(r.json.gpu_telemetry.window).toEqual(
      r.json.run.start_ns === undefined ? undefined : { start_ns: r.json.run.start_ns, end_ns: r.json.run.end_ns },
    );
    const E = 600 * r.windowS;
    // Tolerance 0.1 %: the fake's counter is exact (truncated to whole mJ), and the ends are interpolated.
    expect(Math.abs(r.metric('nvidia_total_gpu_energy')! - E) / E).toBeLessThan(1e-3);
    expect(r.metric('nvidia_total_gpu_power')).toBe(600);
    const P = r.metric('nvidia_average_gpu_power')!;
    expect(Math.abs(P - 600) / 600).toBeLessThan(1e-3);
    const e = r.metric('nvidia_total_gpu_energy')!;
    const osl = r.metric('total_osl')!;
    const isl = r.metric('total_isl')!;
    const requests = r.metric('request_count')!;
    expect(requests).toBe(40);
    expect(osl).toBe(40 * 16);
    expect(r.metric('nvidia_output_tokens_per_joule')).toBeCloseTo(osl / e, 9);
    expect(r.metric('nvidia_energy_per_output_token')).toBeCloseTo((e * 1000) / osl, 6);
    expect(r.metric('nvidia_energy_per_total_token')).toBeCloseTo((e * 1000) / (isl + osl), 6);
    expect(r.metric('nvidia_energy_per_request')).toBeCloseTo(e / requests, 9);
    expect(r.metric('nvidia_energy_per_user')).toBeCloseTo(e / 4, 9);
    expect(r.metric('nvidia_performance_per_watt')).toBeCloseTo(r.metric('request_throughput')! / P, 9);
    expect(r.metric('nvidia_output_tps_per_watt')).toBeCloseTo(r.metric('output_token_throughput')! / P, 9);
    const latencyS = r.metric('request_latency')! / 1000; // exported in ms
    expect(r.metric('nvidia_energy_delay_product')).toBeCloseTo((e / requests) * latencyS, 6);
    expect(r.json.metrics.nvidia_goodput_per_watt).toBeUndefined(); // no SLOs
    expect(Object.keys(r.json.metrics).some((k) => k.startsWith('amd_'))).toBe(false);
    expect(r.json.gpu_telemetry.vendors.nvidia).toMatchObject({ gpus: 2, source: 'counter' });

    // Warmup is left out: its requests all started before the window.
    const recs = readJsonl(path.join(r.dir, 'records.jsonl'));
    const warm = recs.filter((x) => x.phase === 'warmup');
    expect(warm).toHaveLength(8);
    for (const w of warm) expect(BigInt(w.start_ns) < r.start).toBe(true);

    // The per-GPU time series, with samples from before the window (warmup) to after it (grace).
    const series = readJsonl(path.join(r.dir, 'gpu_telemetry.jsonl'));
    const gpus = new Set(series.map((s) => s.gpu));
    expect([...gpus]).toEqual(['nvml:0', 'nvml:1']);
    const g0 = series.filter((s) => s.gpu === 'nvml:0');
    expect(BigInt(g0[0].t_ns) < r.start).toBe(true);
    expect(BigInt(g0[g0.length - 1].t_ns) > r.end).toBe(true);
    expect(g0.every((s) => s.power_w === 300 && s.vendor === 'nvidia' && s.sm_clock_mhz === 1980)).toBe(true);
    expect(r.json.gpu_telemetry.gpus.map((g: any) => [g.key, g.name, g.energy_source])).toEqual([
      ['nvml:0', 'NVIDIA Fake H100 #0', 'counter'],
      ['nvml:1', 'NVIDIA Fake H100 #1', 'counter'],
    ]);
    expect(r.stdout).toMatch(/GPU Power Efficiency \(NVIDIA\)/);
    expect(r.stderr).toMatch(/GPU telemetry: NVML, 2 GPU\(s\) every 50 ms/);
  });

  it('NVIDIA (square wave + a GPU without a counter) and AMD side by side, each vendor on its own', async () => {
    const wave = '200/400/100';
    const r = await profile(
      ['--gpu-telemetry', 'nvml', '--gpu-telemetry', 'amdsmi', '--benchmark-duration', '2'],
      nvmlEnv({
        SB_FAKE_NVML_POWER: `${wave},250`,
        SB_FAKE_NVML_NO_ENERGY: '1',
        SERVEBENCH_AMDSMI_LIBRARY: libs.amdsmi,
        SB_FAKE_AMDSMI_POWER: '150',
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    // GPU 0 by its counter (exact integral; linear interpolation of the ends between 50 ms
    // samples across a 200 W step is off by at most 200 W x 50 ms / 4 = 2.5 J per end); GPU 1 by
    // integrating a constant 250 W (exact).
    const expected = scriptEnergyJ(wave, r.start, r.end) + 250 * r.windowS;
    expect(Math.abs(r.metric('nvidia_total_gpu_energy')! - expected)).toBeLessThan(5 + 1e-3 * expected);
    expect(r.json.gpu_telemetry.vendors.nvidia.source).toBe('mixed');
    expect(r.json.gpu_telemetry.gpus.find((g: any) => g.key === 'nvml:1').energy_source).toBe('power_integration');
    // Mean of the gauge samples: the square wave averages 300 W over whole periods.
    expect(Math.abs(r.metric('nvidia_total_gpu_power')! - 550)).toBeLessThan(40);
    // AMD: energy = accumulator x resolution, 2 x 150 W.
    const amdE = 300 * r.windowS;
    expect(Math.abs(r.metric('amd_total_gpu_energy')! - amdE) / amdE).toBeLessThan(1e-3);
    expect(r.metric('amd_total_gpu_power')).toBe(300);
    expect(r.metric('amd_output_tokens_per_joule')).toBeCloseTo(r.metric('total_osl')! / r.metric('amd_total_gpu_energy')!, 9);
    expect(r.json.gpu_telemetry.vendors.amd).toMatchObject({ gpus: 2, source: 'counter' });
    const out = r.stdout;
    expect(out.indexOf('GPU Power Efficiency (AMD)')).toBeGreaterThan(out.indexOf('GPU Power Efficiency (NVIDIA)'));
  });

  it('survives a counter reset and a GPU lost mid-run', async () => {
    // Times relative to when the run opens the library (just before the profiling phase), so a
    // slow start cannot move them out of the window.
    const r = await profile(
      ['--gpu-telemetry', 'nvml', '--benchmark-duration', '4'],
      nvmlEnv({ SB_FAKE_NVML_POWER: '300', SB_FAKE_NVML_RESET_NS: '+1500', SB_FAKE_NVML_FAIL: '1@+2500' }),
    );
    expect(r.code, r.stderr).toBe(0);
    const g = (k: string) => r.json.gpu_telemetry.gpus.find((x: any) => x.key === k);
    const series = readJsonl(path.join(r.dir, 'gpu_telemetry.jsonl'));
    for (const key of ['nvml:0', 'nvml:1']) {
      // The reset (the counter falls) lies inside the window; only the part of that one interval
      // before it is lost, so the energy is within [300 W x (span - that interval), 300 W x span],
      // where the span runs from the window start to the window end or the GPU's last sample.
      const s = series.filter((x) => x.gpu === key);
      const drop = s.findIndex((x, i) => i > 0 && x.energy_j < s[i - 1].energy_j);
      expect(drop).toBeGreaterThan(0);
      const [ta, tb] = [BigInt(s[drop - 1].t_ns), BigInt(s[drop].t_ns)];
      expect(ta > r.start && tb < r.end).toBe(true);
      const last = BigInt(s[s.length - 1].t_ns);
      const spanS = Number((last < r.end ? last : r.end) - r.start) / 1e9;
      expect(g(key).energy_j).toBeLessThanOrEqual(300 * spanS + 0.01);
      expect(g(key).energy_j).toBeGreaterThanOrEqual(300 * (spanS - Number(tb - ta) / 1e9) - 0.01);
    }
    // GPU 1 was lost mid-window: no sample after that, and it is reported.
    const s1 = series.filter((x) => x.gpu === 'nvml:1');
    expect(BigInt(s1[s1.length - 1].t_ns) < r.end - 500_000_000n).toBe(true);
    expect(g('nvml:1').failed).toMatch(/GPU is lost/);
    expect(r.metric('nvidia_total_gpu_energy')).toBeCloseTo(g('nvml:0').energy_j + g('nvml:1').energy_j, 6);
    expect(r.stderr).toMatch(/GPU nvml:1 stopped reporting: NVML error 15 \(GPU is lost\)/);
  });
});

describe('profile --gpu-telemetry: no usable library, bad input', () => {
  const noGpuLine = (stderr: string) => stderr.split('\n').filter((l) => /GPU telemetry|NVML|AMD SMI/.test(l));

  it('auto without any library: the run goes on, one line says no GPU telemetry is available', async () => {
    const hasDriver = ['/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1', '/usr/lib64/libnvidia-ml.so.1', '/opt/rocm/lib/libamd_smi.so'].some(
      (p) => fs.existsSync(p),
    );
    const env = { SERVEBENCH_NVML_LIBRARY: undefined, SERVEBENCH_AMDSMI_LIBRARY: undefined } as NodeJS.ProcessEnv;
    const r = await profile(['--gpu-telemetry', 'auto', '--request-count', '10'], env);
    expect(r.code, r.stderr).toBe(0);
    const lines = noGpuLine(r.stderr);
    if (hasDriver) {
      // On a GPU host, auto finds the driver instead.
      expect(lines.some((l) => /GPU telemetry: /.test(l))).toBe(true);
    } else {
      expect(lines).toEqual([
        'servebench: no GPU telemetry available (no NVML library found; no AMD SMI library found); continuing without energy metrics',
      ]);
      expect(Object.keys(r.json.metrics).some((k) => k.startsWith('nvidia_') || k.startsWith('amd_'))).toBe(false);
      expect(fs.existsSync(path.join(r.dir, 'gpu_telemetry.jsonl'))).toBe(false);
      expect(r.json.gpu_telemetry.warnings).toHaveLength(1);
    }
  });

  it('a library path in the environment that does not exist: one clear line, the run goes on', async () => {
    const r = await profile(['--gpu-telemetry', 'nvml', '--request-count', '10'], {
      SERVEBENCH_NVML_LIBRARY: '/nonexistent/libnvidia-ml.so.1',
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = noGpuLine(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^servebench: no GPU telemetry available \(NVML: cannot load SERVEBENCH_NVML_LIBRARY=\/nonexistent\/libnvidia-ml\.so\.1 \(.*No such file or directory\)\); continuing without energy metrics$/,
    );
    expect(r.json.counts.succeeded).toBe(10);
  });

  it('a library path that is not NVML: one clear line, the run goes on', async () => {
    const r = await profile(['--gpu-telemetry', 'nvml', '--request-count', '10'], { SERVEBENCH_NVML_LIBRARY: libs.amdsmi });
    expect(r.code, r.stderr).toBe(0);
    const lines = noGpuLine(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`SERVEBENCH_NVML_LIBRARY=${libs.amdsmi} is not an NVML library`);
  });

  it.each([['0'], ['-5'], ['2.5']])('--gpu-sample-interval-ms %s: exit code 2, one line', async (v) => {
    const r = await runCli(['profile', '--gpu-telemetry', 'nvml', `--gpu-sample-interval-ms=${v}`, '--request-count', '1'], {
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^servebench: --gpu-sample-interval-ms: /);
  });

  it('--gpu-telemetry with an unknown source: exit code 2', async () => {
    const r = await runCli(['profile', '--gpu-telemetry', 'rocm', '--request-count', '1'], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--gpu-telemetry: expected nvml, amdsmi, auto, dcgm/);
  });
});

describe('servebench telemetry', () => {
  it('prints the inventory, the sample rate, the power range and counter vs integrated energy', async () => {
    const r = await runCli(['telemetry', '--seconds', '1', '--gpu-sample-interval-ms', '20'], {
      env: nvmlEnv({ SB_FAKE_NVML_POWER: '300,100/300/50', SB_FAKE_NVML_NO_ENERGY: '1' }),
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /nvml:0 {2}NVIDIA Fake H100 #0 {2}uuid=GPU-fa4e0000-0000-0000-0000-000000000000 {2}pci=00000000:18:00\.0 {2}power_limit=700\.0 W {2}driver=999\.99 {2}energy_counter=yes/,
    );
    expect(r.stdout).toMatch(/nvml:1 .*energy_counter=no/);
    const m =
      /nvml:0 {2}samples=(\d+) {2}rate=([\d.]+) \/s {2}power=300\.0\.\.300\.0 W .*counter=([\d.]+) J {2}integrated=([\d.]+) J {2}diff=(-?[\d.]+) %/.exec(
        r.stdout,
      );
    expect(m, r.stdout).not.toBeNull();
    expect(Number(m![2])).toBeGreaterThan(30); // 50 /s asked; a loaded machine loses some
    expect(Number(m![2])).toBeLessThanOrEqual(51);
    expect(Math.abs(Number(m![5]))).toBeLessThan(0.1);
    expect(r.stdout).toMatch(/nvml:1 .*power=100\.0\.\.300\.0 W .*counter=- J/);
    expect(r.stdout).toMatch(/poller: \d+ ticks at 20 ms, thread CPU [\d.]+ ms/);
  });

  it('exits 0 saying so when no GPU is found', async () => {
    const r = await runCli(['telemetry', '--seconds', '0'], {
      env: { SERVEBENCH_NVML_LIBRARY: '/nonexistent.so', SERVEBENCH_AMDSMI_LIBRARY: '/nonexistent.so' },
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('no GPU found: GPU telemetry is not available on this host\n');
  });
});

// Issue 4's statistics end to end: `servebench profile` as a real process against mock processes.
// Conventions (a role-only chunk sent ahead of the first token), the `all` comparison, confidence
// intervals and schedule delays in the export, repeated runs, and bad input.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { remeasured } from '../helpers/remeasure.js';

const common = ['--model', 'mock-model', '--ui', 'none', '--osl', '8'];
const LEAD_MS = 40;
// The runs' time limit: in beforeAll, and in a test whose retry takes them again.
const MEASURE_MS = 120_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe(`conventions against a mock whose role chunk leads the first token by ${LEAD_MS} ms`, { timeout: MEASURE_MS }, () => {
  let mock: SpawnedMock;
  // The three runs; a failed test takes them again before its retry.
  const measured = remeasured(async () => {
    const dirs = { aiperf: '', evalscope: '', all: '' };
    const outs: Record<string, Awaited<ReturnType<typeof runCli>>> = {};
    for (const conv of ['aiperf', 'evalscope'] as const) {
      dirs[conv] = tmpDir();
      outs[conv] = await runCli([
        'profile',
        '--url',
        mock.url,
        ...common,
        '--concurrency',
        '2',
        '--request-count',
        '12',
        '--convention',
        conv,
        '--artifact-dir',
        dirs[conv],
      ]);
    }
    // `all`, open loop (an arrival schedule, so the schedule delays have values).
    dirs.all = tmpDir();
    outs.all = await runCli([
      'profile',
      '--url',
      mock.url,
      ...common,
      '--request-rate',
      '40',
      '--request-count',
      '12',
      '--convention',
      'all',
      '--artifact-dir',
      dirs.all,
    ]);
    return { dirs, outs };
  });

  beforeAll(async () => {
    mock = await spawnMock(['--ttft-ms', '60', '--itl-ms', '5', '--role-chunk-lead-ms', String(LEAD_MS)]);
    await measured.prime();
  }, MEASURE_MS);
  afterAll(async () => {
    await mock?.stop();
  });

  it('EvalScope TTFT (first event with choices) is earlier than AIPerf TTFT (first content token) by the configured gap', async () => {
    const { dirs, outs } = await measured.get();
    expect(outs.aiperf.code, outs.aiperf.stderr).toBe(0);
    expect(outs.evalscope.code, outs.evalscope.stderr).toBe(0);
    const a = readJson(path.join(dirs.aiperf, 'profile_export.json'));
    const e = readJson(path.join(dirs.evalscope, 'profile_export.json'));
    expect(a.config.statistics.convention).toBe('aiperf');
    expect(e.config.statistics.convention).toBe('evalscope');
    expect(a.metrics.time_to_first_token.p50 - e.metrics.time_to_first_token.p50).toBeGreaterThan(LEAD_MS - 10);
    expect(a.metrics.time_to_first_token.p50 - e.metrics.time_to_first_token.p50).toBeLessThan(LEAD_MS + 10);
    // Within each EvalScope record: its TTFT precedes its first output token (unchanged definition) by the lead.
    const gaps = readJsonl(path.join(dirs.evalscope, 'records.jsonl'))
      .filter((r) => r.phase === 'profiling')
      .map((r) => r.metrics.time_to_first_output_token.value - r.metrics.time_to_first_token.value);
    expect(gaps).toHaveLength(12);
    expect(Math.abs(median(gaps) - LEAD_MS)).toBeLessThan(8);
    for (const g of gaps) expect(g).toBeGreaterThan(LEAD_MS / 2);
    // AIPerf's own records: TTFT and TTFO coincide (no reasoning).
    for (const r of readJsonl(path.join(dirs.aiperf, 'records.jsonl')).filter((x) => x.phase === 'profiling')) {
      expect(r.metrics.time_to_first_token.value).toBe(r.metrics.time_to_first_output_token.value);
    }
    // EvalScope's own metric appears under its convention only.
    expect(e.metrics.input_token_throughput.unit).toBe('tokens/s');
    expect(a.metrics.input_token_throughput).toBeUndefined();
  });

  it('--convention all: a conventions section with each tool’s value, AIPerf’s for the run, and a console table', async () => {
    const { dirs, outs } = await measured.get();
    expect(outs.all.code, outs.all.stderr).toBe(0);
    const j = readJson(path.join(dirs.all, 'profile_export.json'));
    expect(j.conventions.tools).toEqual(['aiperf', 'guidellm', 'evalscope']);
    const ttft = j.conventions.metrics.time_to_first_token;
    expect(ttft.aiperf.avg).toBeCloseTo(j.metrics.time_to_first_token.avg, 9);
    expect(ttft.guidellm.avg).toBeCloseTo(ttft.aiperf.avg, 9);
    expect(ttft.aiperf.avg - ttft.evalscope.avg).toBeGreaterThan(LEAD_MS - 10);
    expect(ttft.aiperf.avg - ttft.evalscope.avg).toBeLessThan(LEAD_MS + 10);
    expect(j.conventions.metrics.time_per_output_token.aiperf).toBeNull();
    expect(j.conventions.metrics.input_token_throughput.evalscope.avg).toBeGreaterThan(0);
    expect(Object.keys(j.conventions.metrics)).toEqual([
      'time_to_first_token',
      'time_to_first_output_token',
      'request_latency',
      'inter_token_latency',
      'time_per_output_token',
      'output_sequence_length',
      'input_sequence_length',
      'output_token_throughput',
      'total_token_throughput',
      'input_token_throughput',
    ]);
    const header = outs.all.stdout.split('\n').find((l) => l.includes('AIPerf') && l.includes('GuideLLM') && l.includes('EvalScope'));
    expect(header).toBeDefined();
    expect(outs.all.stdout).toMatch(/Time to First Token \(ms\)\s+│\s+[\d.,]+\s+│\s+[\d.,]+\s+│\s+[\d.,]+\s+│/);
  });

  it('intervals and schedule delays in profile_export.json (open loop: an arrival schedule)', async () => {
    const { dirs, outs } = await measured.get();
    const j = readJson(path.join(dirs.all, 'profile_export.json'));
    const ttft = j.metrics.time_to_first_token;
    expect(j.config.statistics.confidence).toBe(0.95);
    expect(ttft.mean_ci[0]).toBeLessThanOrEqual(ttft.avg);
    expect(ttft.mean_ci[1]).toBeGreaterThanOrEqual(ttft.avg);
    expect(ttft.percentile_cis.p50).not.toBeNull(); // 12 ≥ 6
    expect(ttft.percentile_cis.p95).toBeNull(); // 12 < 72
    expect(j.metrics.inter_token_latency.mean_ci).toBeNull();
    for (const k of ['median', 'mode', 'variance', 'sum', 'p0.1', 'p99.9']) expect(typeof ttft[k], k).toBe('number');
    expect(j.schedule_delays.arrival_schedule).toBe(true);
    expect(j.schedule_delays.request_dispatch_delay.count).toBe(12);
    expect(j.schedule_delays.request_scheduled_latency.avg).toBeGreaterThanOrEqual(j.metrics.request_latency.avg);
    expect(j.schedule_delays.turn_predecessor_delay.max).toBe(0);
    // The console marks the percentiles 12 requests cannot bound.
    expect(outs.all.stdout).toContain('* too few requests to bound this percentile at 95 % confidence');
    // Closed loop: null, not 0.
    const a = readJson(path.join(dirs.aiperf, 'profile_export.json'));
    expect(a.schedule_delays).toEqual({
      arrival_schedule: false,
      request_dispatch_delay: null,
      request_scheduled_latency: null,
      turn_predecessor_delay: null,
      turn_scheduling_delay: null,
    });
  });
});

describe('--num-profile-runs 2', () => {
  it('runs twice into run_1/ and run_2/ and writes the aggregate', async () => {
    const dir = tmpDir();
    const out = await runCli(
      [
        'profile',
        ...common,
        '--concurrency',
        '2',
        '--request-count',
        '6',
        '--num-profile-runs',
        '2',
        '--profile-run-cooldown-seconds',
        '0.2',
        '--artifact-dir',
        dir,
      ],
      { timeoutMs: 90_000 },
    );
    expect(out.code, out.stderr).toBe(0);
    for (const run of ['run_1', 'run_2']) {
      const j = readJson(path.join(dir, run, 'profile_export.json'));
      expect(j.counts.succeeded).toBe(6);
      expect(j.profile_run.label).toBe(run);
    }
    const agg = readJson(path.join(dir, 'aggregate', 'profile_export_aggregate.json'));
    expect(agg).toMatchObject({
      aggregation_type: 'confidence',
      num_profile_runs: 2,
      num_successful_runs: 2,
      failed_runs: [],
      confidence_level: 0.95,
      cooldown_seconds: 0.2,
      run_labels: ['run_1', 'run_2'],
    });
    const ttft = agg.metrics.time_to_first_token;
    expect(ttft.unit).toBe('ms');
    const runs = ['run_1', 'run_2'].map((r) => readJson(path.join(dir, r, 'profile_export.json')).metrics.time_to_first_token.avg);
    expect(ttft.stats.avg.mean).toBeCloseTo((runs[0] + runs[1]) / 2, 9);
    expect(ttft.stats.avg.n).toBe(2);
    expect(ttft.stats.avg.t_critical).toBeCloseTo(12.7062, 4);
    for (const k of ['mean', 'std', 'min', 'max', 'cv', 'se', 'ci_low', 'ci_high', 't_critical']) expect(k in ttft.stats.avg, k).toBe(true);
    expect(out.stdout).toContain('Across 2 runs');
    expect(out.stderr).toContain('cooldown: 0.2 s before run 2 of 2');
    expect(fs.existsSync(path.join(dir, 'profile_export.json'))).toBe(false);
  }, 100_000);
});

describe('bad input: one line, exit code 2, before anything starts', () => {
  it.each([
    [['--confidence', '1.5'], /^servebench: --confidence: /],
    [['--confidence', '0'], /^servebench: --confidence: /],
    [['--num-profile-runs', '0'], /^servebench: --num-profile-runs: expected an integer from 1 to 10, got 0/],
    [['--num-profile-runs', '11'], /^servebench: --num-profile-runs: expected an integer from 1 to 10, got 11/],
    [['--convention', 'vllm'], /^servebench: --convention: expected one of aiperf, guidellm, evalscope, all/],
  ])('%j', async (flags, message) => {
    const out = await runCli(['profile', '--ui', 'none', ...flags]);
    expect(out.code).toBe(2);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(message);
    expect(out.stdout).toBe('');
  });
});

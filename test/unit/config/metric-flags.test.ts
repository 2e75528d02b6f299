import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { commonBody } from '../../../src/endpoints/common.js';
import { InvalidArgumentError } from '../../../src/errors.js';

function fails(flags: Parameters<typeof buildRunConfig>[0]): string {
  try {
    buildRunConfig(flags, {});
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).exitCode).toBe(2);
    expect((err as Error).message).not.toContain('\n');
    return (err as Error).message;
  }
  throw new Error('expected an InvalidArgumentError');
}

describe('metric settings in the run config', () => {
  it('defaults: AIPerf thresholds, no SLOs, no network calibration, trace table hidden', () => {
    const m = buildRunConfig({}, {}).metrics;
    expect(m).toEqual({
      usage_discrepancy_threshold_pct: 10,
      osl_mismatch_pct_threshold: 5,
      osl_mismatch_max_token_threshold: 50,
      goodput: [],
      network_latency: { mode: 'off', mean_ms: null, ping_interval_s: 1 },
      show_trace_timing: false,
    });
    expect(buildRunConfig({}, {}).per_chunk_usage).toBe(false);
  });

  it('takes the flags', () => {
    const c = buildRunConfig(
      {
        'usage-discrepancy-threshold': 2.5,
        'osl-mismatch-pct-threshold': 1,
        'osl-mismatch-max-token-threshold': 20,
        goodput: ['time_to_first_token:200', 'inter_token_latency:20'],
        'network-latency-automatic': true,
        'network-latency-ping-interval': 0.25,
        'show-trace-timing': true,
      },
      {},
    );
    expect(c.metrics.usage_discrepancy_threshold_pct).toBe(2.5);
    expect(c.metrics.osl_mismatch_max_token_threshold).toBe(20);
    expect(c.metrics.goodput).toEqual([
      { tag: 'time_to_first_token', value: 200 },
      { tag: 'inter_token_latency', value: 20 },
    ]);
    expect(c.metrics.network_latency).toEqual({ mode: 'automatic', mean_ms: null, ping_interval_s: 0.25 });
    expect(buildRunConfig({ 'network-latency-mean': 5 }, {}).metrics.network_latency.mode).toBe('fixed');
    expect(buildRunConfig({ 'network-latency-mean': 0 }, {}).metrics.network_latency.mean_ms).toBe(0);
  });

  it('--network-latency-mean with --network-latency-automatic, or negative: one line, exit 2', () => {
    expect(fails({ 'network-latency-mean': 5, 'network-latency-automatic': true })).toMatch(
      /^--network-latency-mean: cannot be combined with --network-latency-automatic/,
    );
    expect(fails({ 'network-latency-mean': -1 })).toMatch(/^--network-latency-mean: must be at least 0, got -1/);
    expect(fails({ 'network-latency-mean': Number.NaN })).toMatch(/^--network-latency-mean: expected a number/);
    expect(fails({ 'network-latency-ping-interval': 0 })).toMatch(/^--network-latency-ping-interval/);
  });

  it('a bad --goodput: one line naming it, with the valid tags', () => {
    expect(fails({ goodput: ['ttft:200'] })).toMatch(
      /^--goodput: unknown metric tag 'ttft' in 'ttft:200'; valid tags: time_to_first_token, /,
    );
    expect(fails({ goodput: ['time_to_first_token:abc'] })).toMatch(/bad number 'abc'/);
    expect(fails({ goodput: ['time_to_first_token'] })).toMatch(/malformed pair 'time_to_first_token'/);
  });

  it('negative thresholds are refused', () => {
    expect(fails({ 'usage-discrepancy-threshold': -1 })).toMatch(/^--usage-discrepancy-threshold/);
    expect(fails({ 'osl-mismatch-pct-threshold': -1 })).toMatch(/^--osl-mismatch-pct-threshold/);
    expect(fails({ 'osl-mismatch-max-token-threshold': -1 })).toMatch(/^--osl-mismatch-max-token-threshold/);
  });

  it('--per-chunk-usage needs server token counts, chat and streaming', () => {
    const ok = buildRunConfig({ 'per-chunk-usage': true, 'use-server-token-count': true }, {});
    expect(ok.per_chunk_usage).toBe(true);
    for (const f of [
      { 'per-chunk-usage': true },
      { 'per-chunk-usage': true, 'use-server-token-count': true, 'endpoint-type': 'completions' },
      { 'per-chunk-usage': true, 'use-server-token-count': true, streaming: false },
    ]) {
      expect(fails(f)).toMatch(/^--per-chunk-usage: requires --use-server-token-count, --endpoint-type chat and streaming/);
    }
  });

  it('--per-chunk-usage asks for stream_options.continuous_usage_stats', () => {
    const turn = { prompt: 'p', isl: 1, max_tokens: 4 };
    const on = buildRunConfig({ 'per-chunk-usage': true, 'use-server-token-count': true }, {});
    expect(commonBody(turn, on).stream_options).toEqual({ include_usage: true, continuous_usage_stats: true });
    expect(commonBody(turn, buildRunConfig({}, {})).stream_options).toEqual({ include_usage: true });
  });
});

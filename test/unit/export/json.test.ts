import { describe, expect, it } from 'vitest';
import { buildProfileExport, recordMetricsJson } from '../../../src/export/json.js';
import type { DistributionEntry } from '../../../src/export/metric-entry.js';
import { stringifyWithBigInt } from '../../../src/export/format.js';
import { computeRecordMetrics } from '../../../src/metrics/record-metrics.js';
import { metricRecord } from '../metrics/fixtures.js';
import { sampleSummary, T0 } from './sample.js';

const meta = {
  config: { model: 'm', api_key: '***' },
  run: { start_ns: T0, end_ns: T0 + 4_000_000_000n, wall_anchor: { monotonic_ns: T0, unix_ns: 1_700_000_000_000_000_000n } },
  extra: { tool: 'servebench', metrics: 'must not overwrite' },
};

describe('buildProfileExport', () => {
  const out = buildProfileExport(sampleSummary(), meta);

  it('has the documented top-level sections', () => {
    expect(Object.keys(out)).toEqual([
      'schema_version',
      'metrics',
      'counts',
      'config',
      'run',
      'histogram_significant_digits',
      'schedule_delays',
      'tool',
    ]);
    expect(out.histogram_significant_digits).toBe(3);
    expect(out.counts).toEqual({ issued: 3, succeeded: 2, errored: 1, cancelled: 0 });
    expect(out.config).toEqual(meta.config);
    expect(out.run).toBe(meta.run);
  });

  it('writes distributions in display units with every statistic and the count', () => {
    const ttft = out.metrics.time_to_first_token as DistributionEntry;
    expect(Object.keys(ttft).sort()).toEqual(
      [
        'unit',
        'avg',
        'min',
        'max',
        'std',
        'p1',
        'p5',
        'p10',
        'p25',
        'p50',
        'p75',
        'p90',
        'p95',
        'p99',
        'count',
        // GuideLLM's summary and the 95 % intervals (issue 4).
        'median',
        'mode',
        'variance',
        'sum',
        'p0.1',
        'p99.9',
        'mean_ci',
        'percentile_cis',
      ].sort(),
    );
    expect(ttft.unit).toBe('ms');
    expect(ttft.avg).toBe(2000);
    expect(ttft.min).toBe(1000);
    expect(ttft.max).toBe(3000);
    expect(ttft.std).toBe(1000);
    // HDR nearest rank ⌈0.5 · 2⌉ = 1: the 1000 ms value, reported as the top of its 2^19-ns bucket
    // [1907 · 2^19, 1908 · 2^19) ns: 1 000 341 503 ns.
    expect(ttft.p50).toBeCloseTo(1000.341503, 6);
    expect(ttft.count).toBe(2);
  });

  it('writes single values as {unit, avg}', () => {
    expect(out.metrics.request_count).toEqual({ unit: 'requests', avg: 2 });
    expect(out.metrics.request_error_rate).toEqual({ unit: '%', avg: 100 / 3 });
    expect(out.metrics.benchmark_duration).toEqual({ unit: 's', avg: 4 });
    expect(out.metrics.output_token_throughput.avg).toBeCloseTo(2002 / 4, 9);
  });

  it('writes time-weighted values as {unit, avg, p50, p90, p95, p99, max}', () => {
    // Both successes start at T0 and end 2 s and 4 s later: 2 in flight for 2 s, then 1 for 2 s.
    expect(out.metrics.effective_concurrency).toEqual({ unit: 'requests', avg: 1.5, p50: 1, p90: 2, p95: 2, p99: 2, max: 2 });
  });

  it('keeps absolute stamps as exact integers in the serialised file', () => {
    expect(out.metrics.min_request_timestamp).toEqual({ unit: 'ns', avg: T0 });
    const text = stringifyWithBigInt(out, 2);
    expect(text).toContain(`"avg": ${T0}`);
    expect(text).toContain(`"start_ns": ${T0}`);
    expect(text).toContain('"unix_ns": 1700000000000000000');
  });

  it('omits metrics that have no value', () => {
    expect(out.metrics.total_reasoning_tokens).toEqual({ unit: 'tokens', avg: 2 });
    expect('nonexistent' in out.metrics).toBe(false);
  });
});

describe('recordMetricsJson', () => {
  it('gives each record metric its display value and unit, lists included', () => {
    const m = computeRecordMetrics(metricRecord({ tokens: [50, 60, 75], end: 100, input: 10, output: 3 }));
    const j = recordMetricsJson(m);
    expect(j.time_to_first_token).toEqual({ value: 50, unit: 'ms' });
    expect(j.inter_chunk_latency).toEqual({ value: [10, 15], unit: 'ms' });
    expect(j.output_sequence_length).toEqual({ value: 3, unit: 'tokens' });
    expect(Object.keys(j)).toEqual([...m.keys()]);
  });

  it('skips tags the registry does not know', () => {
    expect(recordMetricsJson(new Map([['bogus', 1]]))).toEqual({});
  });
});

// Statistics across repeated runs (--num-profile-runs).
import { describe, expect, it } from 'vitest';
import { aggregateValues } from '../../../src/metrics/aggregate.js';
import { aggregateMetrics, buildAggregateExport, renderAggregateTable } from '../../../src/export/aggregate.js';
import { summarize } from '../../../src/metrics/accumulate.js';
import { processed } from './fixtures.js';

describe('aggregateValues', () => {
  it('mean, sample std, min, max, cv, se and the t interval of four runs', () => {
    const s = aggregateValues([10, 12, 14, 16], 0.95);
    expect(s.n).toBe(4);
    expect(s.mean).toBe(13);
    const std = Math.sqrt(20 / 3);
    expect(s.std).toBeCloseTo(std, 12);
    expect([s.min, s.max]).toEqual([10, 16]);
    expect(s.cv).toBeCloseTo(std / 13, 12);
    expect(s.se).toBeCloseTo(std / 2, 12);
    expect(s.t_critical).toBeCloseTo(3.1824, 4); // t(0.975, 3)
    expect(s.ci_low).toBeCloseTo(13 - 3.182446 * (std / 2), 5);
    expect(s.ci_high).toBeCloseTo(13 + 3.182446 * (std / 2), 5);
  });
  it('two runs use t(0.975, 1) = 12.706', () => {
    expect(aggregateValues([1, 3], 0.95).t_critical).toBeCloseTo(12.7062, 4);
  });
  it('one run: no spread and no interval; a zero mean: no cv; no level: no interval', () => {
    const one = aggregateValues([5], 0.95);
    expect([one.std, one.se, one.cv, one.ci_low, one.ci_high, one.t_critical]).toEqual([null, null, null, null, null, null]);
    expect(aggregateValues([-1, 1], 0.95).cv).toBeNull();
    const none = aggregateValues([1, 2, 3], null);
    expect([none.ci_low, none.ci_high, none.t_critical]).toEqual([null, null, null]);
    expect(none.se).not.toBeNull();
  });
  it('refuses an empty or non-finite list', () => {
    expect(() => aggregateValues([], 0.95)).toThrow(RangeError);
    expect(() => aggregateValues([1, NaN], 0.95)).toThrow(RangeError);
  });
});

describe('aggregate export', () => {
  // Run A: TTFT 10 and 20 ms; run B: 30 and 40 ms.
  const run = (a: number, b: number) =>
    summarize([processed({ tokens: [a, a + 5], end: a + 10 }, { index: 0 }), processed({ tokens: [b, b + 5], end: b + 10 }, { index: 1 })]);
  const runs = [
    { label: 'run_1', summary: run(10, 20) },
    { label: 'run_2', summary: run(30, 40) },
  ];

  it('aggregates each statistic of each metric across runs, in display units', () => {
    const m = aggregateMetrics(runs, 0.95);
    expect(m.time_to_first_token.unit).toBe('ms');
    expect(m.time_to_first_token.stats.avg.mean).toBeCloseTo(25, 6);
    expect(m.time_to_first_token.stats.avg.std).toBeCloseTo(Math.SQRT2 * 10, 6);
    expect(m.time_to_first_token.stats.max.min).toBeCloseTo(20, 1);
    // Single run-level values aggregate too; absolute stamps (bigint) do not.
    expect(m.request_count.stats.avg.mean).toBe(2);
    expect(m.min_request_timestamp).toBeUndefined();
    // Intervals of one run are not averaged.
    expect(m.time_to_first_token.stats.mean_ci).toBeUndefined();
  });

  it('carries the run metadata', () => {
    const j = buildAggregateExport(runs, {
      num_profile_runs: 3,
      run_labels: ['run_1', 'run_2', 'run_3'],
      failed_runs: [{ label: 'run_3', error: 'every request failed' }],
      confidence_level: 0.95,
      cooldown_seconds: 1.5,
    });
    expect(j).toMatchObject({
      aggregation_type: 'confidence',
      num_profile_runs: 3,
      num_successful_runs: 2,
      failed_runs: [{ label: 'run_3', error: 'every request failed' }],
      confidence_level: 0.95,
      cooldown_seconds: 1.5,
      run_labels: ['run_1', 'run_2', 'run_3'],
    });
  });

  it('renders a console table of the console metrics', () => {
    const out = renderAggregateTable(runs, 0.95);
    expect(out).toContain('Across 2 runs');
    const line = out.split('\n').find((l) => l.includes('Time to First Token (ms)'))!;
    expect(line).toContain('25.00');
    expect(line).toContain('14.14');
    expect(out).not.toContain('Minimum Request Timestamp');
  });
});

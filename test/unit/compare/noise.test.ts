// The noise tests of `compare` on histograms built from known samples.
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/compare/compare.js';
import { chooseMetrics } from '../../../src/compare/select.js';
import { welch } from '../../../src/compare/noise.js';
import type { RunExports } from '../../../src/export/read-run.js';
import { MetricHistogram } from '../../../src/metrics/core/histogram.js';
import { defaultRegistry } from '../../../src/metrics/catalogue.js';
import { rng as seeded } from '../../helpers/rng.js';

/** A run whose ITL (ns) values are `values`: its histogram and its export entry, as a run writes them. */
function runOf(label: string, values: number[]): RunExports {
  const h = new MetricHistogram('ns');
  for (const v of values) h.add(v);
  const m = h.moments()!;
  const [p50, p99] = h.percentiles([50, 99]);
  const ms = (x: number) => x / 1e6;
  return {
    dir: label,
    label,
    origin_ns: 0,
    records: null,
    gpu: null,
    histograms: { significant_digits: 3, metrics: { inter_token_latency: h.toExport() } },
    profile: {
      schema_version: 1,
      config: {},
      run: { start_ns: null, end_ns: null, wall_anchor: null },
      counts: { issued: values.length, succeeded: values.length, errored: 0, cancelled: 0 },
      metrics: {
        inter_token_latency: {
          unit: 'ms',
          avg: ms(m.avg),
          std: ms(m.std),
          count: m.count,
          min: ms(m.min),
          max: ms(m.max),
          p50: ms(p50),
          p99: ms(p99),
        },
      } as never,
    },
  };
}

function lognormal(rng: () => number, n: number, median: number): number[] {
  // Skewed like real latencies: exp of a normal (Box-Muller), sigma 0.5.
  return Array.from({ length: n }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
    return Math.round(median * Math.exp(0.5 * z));
  });
}

const registry = defaultRegistry();

describe('compare noise tests', () => {
  it('two samples of one skewed distribution: within noise; the same shifted by 20 %: worse', () => {
    const rng = seeded(7);
    const base = runOf('a', lognormal(rng, 2000, 5e6));
    const same = runOf('b', lognormal(rng, 2000, 5e6));
    const slower = runOf('c', lognormal(rng, 2000, 6e6));
    const choices = chooseMetrics('itl_p50,itl_p99,itl_avg', registry);
    const c = compareRuns([base, same, slower], choices, { noiseFloorPct: 0, failOnRegressionPct: 10 });
    for (const r of c.rows) {
      expect(r.cells[1].verdict, `${r.metric} ${r.cells[1].detail}`).toBe('within noise');
      expect(r.cells[2].verdict, `${r.metric} ${r.cells[2].detail}`).toBe('worse');
      expect(r.cells[2].delta_pct!).toBeGreaterThan(10);
    }
    expect(c.rows[0].cells[2].test).toMatch(/order-statistic/);
    expect(c.rows[2].cells[2].test).toMatch(/Welch/);
    expect(c.regressions.map((g) => g.metric).sort()).toEqual(['itl_avg', 'itl_p50', 'itl_p99']);
  });

  it('too few requests to bound p99: inconclusive, and never a regression', () => {
    const rng = seeded(3);
    const a = runOf('a', lognormal(rng, 100, 5e6));
    const b = runOf('b', lognormal(rng, 100, 9e6));
    const c = compareRuns([a, b], chooseMetrics('itl_p99', registry), { noiseFloorPct: 0, failOnRegressionPct: 1 });
    expect(c.rows[0].cells[1].verdict).toBe('inconclusive');
    expect(c.rows[0].cells[1].detail).toMatch(/too few requests in a to bound p99 \(100, needs 368\)/);
    expect(c.regressions).toEqual([]);
  });

  it('the noise floor: a change smaller than it is within noise even when the test separates the runs', () => {
    const a = runOf(
      'a',
      Array.from({ length: 1000 }, () => 5_000_000),
    );
    const b = runOf(
      'b',
      Array.from({ length: 1000 }, () => 5_050_000),
    );
    const strict = compareRuns([a, b], chooseMetrics('itl_avg', registry), { noiseFloorPct: 0, failOnRegressionPct: null });
    expect(strict.rows[0].cells[1].verdict).toBe('worse');
    const floored = compareRuns([a, b], chooseMetrics('itl_avg', registry), { noiseFloorPct: 2, failOnRegressionPct: null });
    expect(floored.rows[0].cells[1].verdict).toBe('within noise');
  });

  it("Welch's test: equal means are within noise, separated ones beyond; direction comes from the registry", () => {
    expect(welch({ mean: 10, variance: 4, n: 50 }, { mean: 10.2, variance: 4, n: 50 })!.beyond).toBe(false);
    expect(welch({ mean: 10, variance: 4, n: 50 }, { mean: 12, variance: 4, n: 50 })!.beyond).toBe(true);
    expect(welch({ mean: 10, variance: 4, n: 1 }, { mean: 12, variance: 4, n: 50 })).toBeNull();
    const [thr, itl] = chooseMetrics('output_token_throughput,itl', registry);
    expect(thr.largerIsBetter).toBe(true);
    expect(itl.largerIsBetter).toBe(false);
    expect(itl.stat).toBe('avg');
  });
});

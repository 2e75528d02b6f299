// Sweep planning (GuideLLM's sweep, lists), the per-point config, and the summary file shapes.
import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import type { MetricsSummary } from '../../../src/metrics/core/summary.js';
import {
  goodFractionFromSummary,
  linspace,
  nextPoint,
  pointConfig,
  pointLabel,
  sweepRates,
  sweepSize,
} from '../../../src/run/series/sweep.js';
import { renderSweepCsv, sweepRow } from '../../../src/run/series/sweep-summary.js';
import type { RunOutcome } from '../../../src/run/single/types.js';
import type { SweepPoint } from '../../../src/run/series/types.js';

describe('GuideLLM sweep', () => {
  it('rates: linspace(sync, max, N − 1) without its first point, N − 2 of them ending at the max', () => {
    expect(linspace(0, 10, 5)).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(sweepRates(2, 12, 7)).toEqual([4, 6, 8, 10, 12]);
    expect(sweepRates(2, 12, 3)).toEqual([12]);
    expect(sweepRates(2, 12, 2)).toEqual([]);
  });

  it('points: synchronous, throughput, then the rates measured from those two', () => {
    const cfg = buildRunConfig({ profile: 'sweep', 'sweep-size': 5 }, {});
    const done: { point: SweepPoint; requestRate: number | null }[] = [];
    const p0 = nextPoint(cfg.load, done)!;
    expect(p0).toEqual({ index: 0, strategy: 'synchronous', concurrency: 1, rate: null });
    done.push({ point: p0, requestRate: 3 });
    const p1 = nextPoint(cfg.load, done)!;
    expect(p1).toEqual({ index: 1, strategy: 'throughput', concurrency: 256, rate: null });
    done.push({ point: p1, requestRate: 12 });
    const rest: number[] = [];
    for (let p = nextPoint(cfg.load, done); p; p = nextPoint(cfg.load, done)) {
      expect(p.strategy).toBe('rate');
      rest.push(p.rate!);
      done.push({ point: p, requestRate: p.rate });
    }
    expect(rest).toEqual([6, 9, 12]);
    expect(sweepSize(cfg.load)).toBe(5);
  });

  it('the throughput run uses --concurrency, which also caps the rate points', () => {
    const cfg = buildRunConfig({ profile: 'sweep', 'sweep-size': 3, concurrency: '32' }, {});
    const p1 = nextPoint(cfg.load, [{ point: {} as SweepPoint, requestRate: 1 }])!;
    expect(p1.concurrency).toBe(32);
    const p2 = nextPoint(cfg.load, [
      { point: {} as SweepPoint, requestRate: 1 },
      { point: p1, requestRate: 5 },
    ])!;
    expect(p2).toMatchObject({ strategy: 'rate', rate: 5, concurrency: 32 });
  });

  it('no measured rate (nothing succeeded): the sweep cannot place its rates', () => {
    const cfg = buildRunConfig({ profile: 'sweep', 'sweep-size': 4 }, {});
    expect(
      nextPoint(cfg.load, [
        { point: {} as SweepPoint, requestRate: null },
        { point: {} as SweepPoint, requestRate: 10 },
      ]),
    ).toBeNull();
  });
});

describe('list sweeps and point configs', () => {
  it('a concurrency list: closed-loop points', () => {
    const cfg = buildRunConfig({ concurrency: '1,4,16' }, {});
    const pts: SweepPoint[] = [];
    for (
      let p = nextPoint(
        cfg.load,
        pts.map((point) => ({ point, requestRate: 1 })),
      );
      p;
      p = nextPoint(
        cfg.load,
        pts.map((point) => ({ point, requestRate: 1 })),
      )
    )
      pts.push(p);
    expect(pts.map((p) => p.concurrency)).toEqual([1, 4, 16]);
    const c = pointConfig(cfg, pts[2]);
    expect(c.concurrency).toBe(16);
    expect(c.load.sweep).toBeNull();
    expect(c.load.request_rate).toBeNull();
    expect(pointLabel(pts[2])).toBe('point-03-concurrency16');
  });

  it('a rate list: open-loop points, capped by a single --concurrency', () => {
    const cfg = buildRunConfig({ 'request-rate': '10,20', concurrency: '6' }, {});
    const p = nextPoint(cfg.load, [{ point: {} as SweepPoint, requestRate: 1 }])!;
    expect(p).toEqual({ index: 1, strategy: 'rate', concurrency: 6, rate: 20 });
    const c = pointConfig(cfg, p);
    expect(c.load).toMatchObject({ request_rate: 20, concurrency_cap: 6, sweep: null, sweep_stop_on_slo: false });
    expect(pointLabel(p)).toBe('point-02-rate20');
    expect(pointLabel({ index: 0, strategy: 'synchronous', concurrency: 1, rate: null })).toBe('point-01-synchronous-concurrency1');
  });
});

describe('summary rows', () => {
  const summary = (extra: MetricsSummary['metrics'] = []): MetricsSummary => ({
    counts: { issued: 10, succeeded: 9, errored: 1, cancelled: 0 },
    metrics: [
      {
        tag: 'request_throughput',
        header: '',
        unit: 'requests/s',
        display: 'requests/s',
        group: 'default',
        flags: 0,
        kind: 'single',
        stats: { avg: 4.5 },
      },
      {
        tag: 'time_to_first_token',
        header: '',
        unit: 'ns',
        display: 'ms',
        group: 'default',
        flags: 0,
        kind: 'distribution',
        stats: {
          count: 9,
          avg: 2e7,
          min: 1e7,
          max: 5e7,
          std: 1,
          p1: 0,
          p5: 0,
          p10: 0,
          p25: 0,
          p50: 2e7,
          p75: 0,
          p90: 0,
          p95: 0,
          p99: 4.9e7,
        },
      },
      ...extra,
    ],
  });

  it('reads the achieved rate, TTFT percentiles in ms, and leaves goodput empty without SLOs', () => {
    const row = sweepRow(
      { index: 1, strategy: 'rate', concurrency: null, rate: 5 },
      { summary: summary() } as RunOutcome,
      'point-02-rate5',
      null,
    );
    expect(row).toMatchObject({
      point: 2,
      target_request_rate: 5,
      achieved_request_rate: 4.5,
      ttft_p50_ms: 20,
      ttft_p99_ms: 49,
      itl_p50_ms: null,
      goodput: null,
      good_request_fraction: null,
      issued: 10,
      errored: 1,
    });
    const csv = renderSweepCsv([row]).split('\n');
    expect(csv[0].split(',')).toContain('good_request_fraction');
    expect(csv[1]).toBe('2,rate,,5,4.5,20,49,,,,,,10,9,1,0,point-02-rate5');
  });

  it('the good-request fraction comes from the goodput family when it has a value', () => {
    expect(goodFractionFromSummary(summary())).toBeNull();
    const withFraction = summary([
      {
        tag: 'good_request_fraction',
        header: '',
        unit: 'ratio',
        display: 'ratio',
        group: 'none',
        flags: 0,
        kind: 'single',
        stats: { avg: 0.8 },
      },
    ]);
    expect(goodFractionFromSummary(withFraction)).toBe(0.8);
  });
});

// Sweeps: several runs in a row, each a point with its own subfolder of exports.
// - GuideLLM's sweep (--profile sweep --sweep-size N): a synchronous run (closed loop, 1 in flight),
//   a throughput run (closed loop at the maximum concurrency), then N − 2 open-loop rates spaced
//   linearly between the two measured request rates (numpy.linspace(sync, max, N − 1)[1:], so the
//   last rate equals the throughput run's).
// - A list: --concurrency 1,4,16,64 or --request-rate 10,20,40.
// --sweep-stop-on-slo stops after the first point whose good-request fraction is below
// --slo-attainment-fraction; a point without that fraction (no goodput SLOs) never stops it.
import path from 'node:path';
import type { RunConfig } from '../../config/types.js';
import { findMetric, type MetricsSummary } from '../../metrics/core/summary.js';
import { LOAD_DEFAULTS, type LoadConfig } from '../../load/config.js';
import type { TextTokenizer } from '../../tokenizer/types.js';
import { prepareRun, runOnce } from '../single/run-once.js';
import { sweepRow, writeSweepSummary } from './sweep-summary.js';
import type { RunEnv, RunOutcome } from '../single/types.js';
import type { SweepPoint, SweepRow } from './types.js';
import { writeRunReport } from '../single/run-report.js';

/** numpy.linspace(a, b, n). */
export function linspace(a: number, b: number, n: number): number[] {
  if (n === 1) return [a];
  return Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
}

/** The rates of GuideLLM's sweep after its synchronous and throughput runs: N − 2 of them. */
export function sweepRates(syncRate: number, throughputRate: number, size: number): number[] {
  return linspace(syncRate, throughputRate, size - 1).slice(1);
}

/** How many points the sweep has. */
export function sweepSize(load: LoadConfig): number {
  const s = load.sweep;
  if (s === null) return 1;
  return s.kind === 'auto' ? s.size : s.values.length;
}

/**
 * The next point, given the outcomes so far (the GuideLLM sweep needs the first two measured
 * rates); null when the sweep is over or cannot go on (a point with no measured rate).
 */
export function nextPoint(load: LoadConfig, done: readonly { point: SweepPoint; requestRate: number | null }[]): SweepPoint | null {
  const s = load.sweep;
  const i = done.length;
  if (s === null || i >= sweepSize(load)) return null;
  if (s.kind === 'concurrency') return { index: i, strategy: 'concurrency', concurrency: s.values[i], rate: null };
  if (s.kind === 'rate') return { index: i, strategy: 'rate', concurrency: load.concurrency_cap, rate: s.values[i] };
  if (i === 0) return { index: 0, strategy: 'synchronous', concurrency: 1, rate: null };
  if (i === 1)
    return {
      index: 1,
      strategy: 'throughput',
      concurrency: load.concurrency_cap ?? LOAD_DEFAULTS.sweep_throughput_concurrency,
      rate: null,
    };
  const sync = done[0].requestRate;
  const max = done[1].requestRate;
  if (sync === null || max === null || !(sync > 0) || !(max > 0)) return null;
  return { index: i, strategy: 'rate', concurrency: load.concurrency_cap, rate: sweepRates(sync, max, s.size)[i - 2] };
}

/** The single-run config of a point. */
export function pointConfig(cfg: RunConfig, p: SweepPoint): RunConfig {
  const closed = p.rate === null;
  return Object.freeze({
    ...cfg,
    concurrency: closed ? (p.concurrency ?? cfg.concurrency) : cfg.concurrency,
    load: Object.freeze({
      ...cfg.load,
      sweep: null,
      sweep_stop_on_slo: false,
      request_rate: p.rate,
      concurrency_cap: closed ? null : p.concurrency,
      // A synchronous run is exactly one in flight: no ramp to apply.
      concurrency_ramp_s: p.strategy === 'synchronous' ? null : cfg.load.concurrency_ramp_s,
      request_rate_ramp_s: closed ? null : cfg.load.request_rate_ramp_s,
    }),
  });
}

export function pointLabel(p: SweepPoint): string {
  const n = String(p.index + 1).padStart(2, '0');
  if (p.rate !== null) return `point-${n}-rate${Number(p.rate.toPrecision(6))}`;
  return `point-${n}-${p.strategy === 'concurrency' ? '' : p.strategy + '-'}concurrency${p.concurrency}`;
}

/** Reads the good-request fraction of a point (the goodput family's), or null when it has none. */
export type GoodFraction = (summary: MetricsSummary) => number | null;

export const goodFractionFromSummary: GoodFraction = (summary) => {
  const m = findMetric(summary, 'good_request_fraction');
  if (m?.kind !== 'single') return null;
  return m.unit === 'percent' ? m.stats.avg / 100 : m.stats.avg;
};

/** Raises the bad input a sweep would hit at its first point (dataset, flag conflicts), before anything starts. */
export async function checkSweep(cfg: RunConfig, tokenizer: TextTokenizer, log: (msg: string) => void): Promise<void> {
  const first = nextPoint(cfg.load, []);
  if (first) await prepareRun(pointConfig(cfg, first), tokenizer, log);
}

export interface SweepOutcome {
  rows: SweepRow[];
  outcomes: RunOutcome[];
  /** Why the sweep ended early, or null when every point ran. */
  stopped: 'slo' | 'interrupted' | 'no_rate' | null;
}

export async function runSweep(
  cfg: RunConfig,
  env: Omit<RunEnv, 'extra'>,
  goodFraction: GoodFraction = goodFractionFromSummary,
): Promise<SweepOutcome> {
  const done: { point: SweepPoint; requestRate: number | null }[] = [];
  const rows: SweepRow[] = [];
  const outcomes: RunOutcome[] = [];
  const total = sweepSize(cfg.load);
  let stopped: SweepOutcome['stopped'] = null;
  let warnedNoFraction = false;
  for (;;) {
    if (env.control.stopped) {
      stopped = done.length < total ? 'interrupted' : null;
      break;
    }
    const point = nextPoint(cfg.load, done);
    if (point === null) {
      if (done.length < total) {
        stopped = 'no_rate';
        env.log(
          'sweep: the synchronous or throughput run measured no request rate (no request succeeded); the rate points cannot be placed',
        );
      }
      break;
    }
    const label = pointLabel(point);
    const dir = path.join(env.dir, label);
    const what =
      point.rate === null
        ? `concurrency ${point.concurrency}`
        : `rate ${point.rate.toFixed(2)} req/s${point.concurrency ? `, cap ${point.concurrency}` : ''}`;
    env.log(`sweep point ${point.index + 1}/${total} (${point.strategy}, ${what}) → ${dir}`);
    const outcome = await runOnce(pointConfig(cfg, point), {
      ...env,
      dir,
      extra: { sweep_point: { index: point.index, strategy: point.strategy, concurrency: point.concurrency, request_rate: point.rate } },
    });
    // A full disk ends the sweep: the points after it could not be written either.
    if (outcome.writeError) throw outcome.writeError;
    outcomes.push(outcome);
    const row = sweepRow(point, outcome, label, goodFraction(outcome.summary));
    rows.push(row);
    done.push({ point, requestRate: row.achieved_request_rate });
    env.log(
      `sweep point ${point.index + 1}: ${row.achieved_request_rate?.toFixed(2) ?? '-'} req/s achieved, TTFT p50 ${row.ttft_p50_ms?.toFixed(1) ?? '-'} ms, ${row.succeeded}/${row.issued} succeeded`,
    );
    if (cfg.load.sweep_stop_on_slo && cfg.load.slo_attainment_fraction !== null) {
      if (row.good_request_fraction === null) {
        if (!warnedNoFraction)
          env.log('sweep: no good-request fraction (set SLOs with --goodput); --sweep-stop-on-slo cannot stop the sweep');
        warnedNoFraction = true;
      } else if (row.good_request_fraction < cfg.load.slo_attainment_fraction) {
        env.log(
          `sweep: point ${point.index + 1} met its SLOs for ${(row.good_request_fraction * 100).toFixed(1)} % of requests (< ${(cfg.load.slo_attainment_fraction * 100).toFixed(1)} %); stopping`,
        );
        stopped = 'slo';
        break;
      }
    }
  }
  await writeSweepSummary(env.dir, rows, { stopped, planned_points: total, sweep: cfg.load.sweep });
  if (rows.length > 0) writeRunReport(env.dir, env.log);
  return { rows, outcomes, stopped };
}

// --search max-rate|max-concurrency: full runs, one per point, each in its own subfolder with its
// warmup and a sweep point's measurement rules (sweep.ts's pointConfig), at the loads the state
// machine (search-plan.ts) picks, until it has its answer; then search_summary.json/.csv.
import path from 'node:path';
import type { RunConfig } from '../../config/types.js';
import type { SearchConfig } from '../../load/search-flags.js';
import { findMetric, type MetricsSummary } from '../../metrics/core/summary.js';
import { runOnce } from '../single/run-once.js';
import { pointConfig, pointLabel } from './sweep.js';
import { sweepRow } from './sweep-summary.js';
import {
  answerOf,
  nextStep,
  verdictOf,
  verdicts,
  type Measurement,
  type SearchAnswer,
  type SearchEnd,
  type SearchSpec,
} from './search-plan.js';
import { describeAnswer, writeSearchSummary, type SearchRow } from './search-summary.js';
import type { RunEnv } from '../single/types.js';
import type { SweepPoint } from './types.js';

export interface SearchOutcome {
  rows: SearchRow[];
  answer: SearchAnswer | null;
  /** Why the search ended; 'interrupted' after a Ctrl-C. */
  reason: SearchEnd | 'interrupted';
  line: string;
}

function count(summary: MetricsSummary, tag: string): number {
  const m = findMetric(summary, tag);
  return m?.kind === 'single' ? m.stats.avg : 0;
}

/** Good requests, and the good-request fraction's denominator (succeeded + errored), of a run. */
export function goodAndTotal(summary: MetricsSummary): { good: number; total: number } {
  return { good: count(summary, 'good_request_count'), total: count(summary, 'request_count') + count(summary, 'error_request_count') };
}

export function searchSpec(s: SearchConfig, confidence: number | null): SearchSpec {
  return {
    kind: s.kind,
    start: s.start,
    tolerance: s.tolerance,
    maxPoints: s.max_points,
    fraction: s.fraction,
    confidence: confidence ?? 0.95,
  };
}

function point(cfg: RunConfig, s: SearchConfig, index: number, load: number): SweepPoint {
  return s.kind === 'max-rate'
    ? { index, strategy: 'rate', concurrency: cfg.load.concurrency_cap, rate: load }
    : { index, strategy: 'concurrency', concurrency: load, rate: null };
}

const fmt = (x: number, d = 3) => x.toFixed(d);

export async function runSearch(cfg: RunConfig, env: Omit<RunEnv, 'extra'>): Promise<SearchOutcome> {
  const s = cfg.search!;
  const spec = searchSpec(s, cfg.statistics.confidence);
  const ms: Measurement[] = [];
  const rows: SearchRow[] = [];
  const unit = s.kind === 'max-rate' ? 'req/s' : 'in flight';
  let answer: SearchAnswer | null = null;
  let reason: SearchOutcome['reason'] = 'interrupted';
  for (;;) {
    if (env.control.stopped) break;
    const step = nextStep(spec, ms);
    if (step.kind === 'done') {
      answer = step.answer;
      reason = step.reason;
      break;
    }
    const p = point(cfg, s, ms.length, step.load);
    const label = pointLabel(p);
    const dir = path.join(env.dir, label);
    env.log(
      `search point ${ms.length + 1}/${s.max_points}: ${step.load} ${unit}${step.remeasure ? ' (re-measured: its interval straddled the target)' : ''} → ${dir}`,
    );
    const outcome = await runOnce(
      { ...pointConfig(cfg, p), search: null },
      { ...env, dir, extra: { search_point: { index: p.index, kind: s.kind, load: step.load, remeasure: step.remeasure } } },
    );
    if (outcome.writeError) throw outcome.writeError;
    // A point cut short by a Ctrl-C measured less than it was meant to: it does not count.
    if (env.control.stopped) break;
    const { good, total } = goodAndTotal(outcome.summary);
    const m: Measurement = { load: step.load, good, total, overSaturated: outcome.overSaturated ?? false };
    ms.push(m);
    const v = verdictOf(
      spec,
      ms.filter((x) => x.load === step.load),
    );
    const sw = sweepRow(p, outcome, label, m.total > 0 ? m.good / m.total : null);
    rows.push({
      point: p.index + 1,
      load: step.load,
      remeasure: step.remeasure,
      achieved_request_rate: sw.achieved_request_rate,
      ttft_p99_ms: sw.ttft_p99_ms,
      itl_p99_ms: sw.itl_p99_ms,
      good,
      total,
      succeeded: sw.succeeded,
      attainment: v.attainment,
      lower: v.lower,
      upper: v.upper,
      pooled_measurements: v.measurements,
      pass: v.pass,
      uncertain: v.uncertain,
      over_saturated: m.overSaturated,
      dir: label,
    });
    env.log(
      `search point ${ms.length}: ${step.load} ${unit}: attainment ${v.attainment === null ? '-' : fmt(v.attainment)} ` +
        `[${fmt(v.lower)}, ${fmt(v.upper)}]${v.measurements > 1 ? ` over ${v.measurements} runs` : ''} vs ${s.fraction} → ` +
        `${v.pass ? 'pass' : 'fail'}${v.uncertain ? ' (uncertain)' : ''}${m.overSaturated ? ' (over-saturated)' : ''}`,
    );
  }
  // Interrupted: the answer from the points that ran.
  if (answer === null && ms.length > 0) answer = answerOf(spec, verdicts(spec, ms));
  const line = describeAnswer(s, answer, reason);
  await writeSearchSummary(env.dir, rows, { search: s, confidence: spec.confidence, reason, answer, line });
  return { rows, answer, reason, line };
}

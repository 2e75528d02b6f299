// OSL mismatch metrics (AIPerf reference, "OSL Mismatch Metrics"): how far the output length is from
// the requested one (max_tokens). A record is a mismatch when |actual − requested| exceeds
// min(requested · pct / 100, max tokens): the cap keeps the threshold tight for long outputs
// (2000 requested → 50 tokens, not 100). Exported, not shown; a non-zero count warns at the end.
import type { MetricsSummary } from '../core/summary.js';
import { findMetric } from '../core/summary.js';
import { MetricFlag, type FoldSpec, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { CountFold, foldOf, scalar } from '../core/helpers.js';
import { METRIC_OPTION_DEFAULTS, type MetricOptions } from '../core/options.js';

export const oslMismatchDiffPct: RecordMetricDef = {
  kind: 'record',
  tag: 'osl_mismatch_diff_pct',
  header: 'OSL Mismatch Diff',
  unit: 'percent',
  display: '%',
  flags: MetricFlag.PRODUCES_TOKENS_ONLY,
  group: 'none',
  requires: ['output_sequence_length'],
  // Signed: negative = stopped early, positive = generated more than asked.
  compute: (r, v) => {
    const req = r.requested_osl;
    if (req === null || req === undefined || req <= 0) return undefined;
    return (100 * (scalar(v, 'output_sequence_length') - req)) / req;
  },
};

/** The largest token difference still counted as a match for a request of `requested` tokens. */
export function oslMismatchThresholdTokens(requested: number, opts: MetricOptions = {}): number {
  const pct = opts.osl_mismatch_pct_threshold ?? METRIC_OPTION_DEFAULTS.osl_mismatch_pct_threshold;
  const cap = opts.osl_mismatch_max_token_threshold ?? METRIC_OPTION_DEFAULTS.osl_mismatch_max_token_threshold;
  return Math.min((requested * pct) / 100, cap);
}

/** Successful records that asked for a length (judged), and those off by more than the threshold. */
const MISMATCHES: FoldSpec<CountFold> = {
  key: 'osl_mismatch',
  create: (options) =>
    new CountFold((rec) => {
      if (rec.status !== 'ok') return null;
      const req = rec.metric_input.requested_osl;
      const osl = rec.metrics.get('output_sequence_length');
      if (req === null || req === undefined || req <= 0 || typeof osl !== 'number') return null;
      return Math.abs(osl - req) > oslMismatchThresholdTokens(req, options);
    }),
};

export const oslMismatchCount: RunMetricDef = {
  kind: 'aggregate',
  tag: 'osl_mismatch_count',
  header: 'OSL Mismatch Count',
  unit: 'requests',
  display: 'requests',
  flags: MetricFlag.PRODUCES_TOKENS_ONLY,
  group: 'none',
  requires: [],
  fold: MISMATCHES,
  compute: (run) => {
    const f = foldOf(run, MISMATCHES);
    // No request asked for a length: nothing to compare.
    return f && f.judged > 0 ? f.hits : undefined;
  },
};

/** The fixes for counts taken with another tokenizer than the server's; shared by the end-of-run warnings. */
export const TOKENIZER_FIXES =
  "count with the model's tokenizer (--tokenizer <the model's Hugging Face id or tokenizer.json>, or --tokenizer server) " +
  "or take the server's counts (--use-server-token-count)";

/**
 * The end-of-run warning when some outputs missed the requested length, or null. It says how to
 * make the server honour --osl, leaving out what the run's --extra-inputs (`given`) already pass,
 * and how to rule out a tokenizer mismatch.
 */
export function oslMismatchWarning(
  summary: MetricsSummary,
  opts: MetricOptions = {},
  given: Readonly<Record<string, unknown>> = {},
): string | null {
  const m = findMetric(summary, oslMismatchCount.tag);
  const n = m?.kind === 'single' ? m.stats.avg : 0;
  if (!n) return null;
  const pct = opts.osl_mismatch_pct_threshold ?? METRIC_OPTION_DEFAULTS.osl_mismatch_pct_threshold;
  const cap = opts.osl_mismatch_max_token_threshold ?? METRIC_OPTION_DEFAULTS.osl_mismatch_max_token_threshold;
  const diff = findMetric(summary, oslMismatchDiffPct.tag);
  const avg = diff?.kind === 'distribution' ? ` (mean difference ${diff.stats.avg.toFixed(1)} %)` : '';
  const head = `${n} of ${summary.counts.succeeded} requests produced an output length more than min(${pct} %, ${cap} tokens) away from the requested --osl${avg}.`;
  // ignore_eos alone keeps the server from stopping early; min_tokens only up to its value.
  if (given.ignore_eos === true) {
    return (
      `${head} The run's --extra-inputs already have ignore_eos:true, so the server did not stop at an end-of-sequence token: ` +
      `the lengths are most likely counted with another tokenizer than the server's (a tokenizer mismatch). To fix it, ${TOKENIZER_FIXES}.`
    );
  }
  const hints = ['--extra-inputs ignore_eos:true (vLLM, SGLang, TensorRT-LLM)'];
  if (given.min_tokens === undefined && given.min_new_tokens === undefined) {
    hints.push('--extra-inputs min_tokens:N with N = the --osl value (vLLM, TensorRT-LLM; SGLang calls it min_new_tokens)');
  }
  return (
    `${head} The server probably stopped at an end-of-sequence token: to make it honour the length, pass ${hints.join(' or ')}. ` +
    `If the difference comes from a tokenizer mismatch, ${TOKENIZER_FIXES}.`
  );
}

export const oslMismatchRecordMetrics: readonly RecordMetricDef[] = [oslMismatchDiffPct];
export const oslMismatchRunMetrics: readonly RunMetricDef[] = [oslMismatchCount];

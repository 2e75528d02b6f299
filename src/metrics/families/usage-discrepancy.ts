// Usage discrepancy metrics (AIPerf reference, "Usage Discrepancy Metrics"): how far the server's
// usage counts are from the client's own counts, per record, and how many records are off by more
// than --usage-discrepancy-threshold (default 10 %). A sign of a tokenizer mismatch.
import { MetricFlag, type FoldSpec, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { CountFold, foldOf, scalar } from '../core/helpers.js';
import { METRIC_OPTION_DEFAULTS, type MetricOptions } from '../core/options.js';
import { findMetric, type MetricsSummary } from '../core/summary.js';
import { TOKENIZER_FIXES } from './osl-mismatch.js';

const FLAGS = MetricFlag.USAGE_DIFF_ONLY | MetricFlag.PRODUCES_TOKENS_ONLY;

function diffPct(tag: string, header: string, usageTag: string, clientTag: string): RecordMetricDef {
  return {
    kind: 'record',
    tag,
    header,
    unit: 'percent',
    display: '%',
    flags: FLAGS,
    group: 'none',
    requires: [usageTag, clientTag],
    compute: (_r, v) => {
      const client = scalar(v, clientTag);
      // Relative to the client's count: undefined for a zero count rather than an infinite %.
      return client > 0 ? (100 * Math.abs(scalar(v, usageTag) - client)) / client : undefined;
    },
  };
}

export const usagePromptTokensDiffPct = diffPct(
  'usage_prompt_tokens_diff_pct',
  'Usage Prompt Diff',
  'usage_prompt_tokens',
  'input_sequence_length',
);
export const usageCompletionTokensDiffPct = diffPct(
  'usage_completion_tokens_diff_pct',
  'Usage Completion Diff',
  'usage_completion_tokens',
  'output_sequence_length',
);
export const usageReasoningTokensDiffPct = diffPct(
  'usage_reasoning_tokens_diff_pct',
  'Usage Reasoning Diff',
  'usage_reasoning_tokens',
  'reasoning_token_count',
);

const DIFF_TAGS = [usagePromptTokensDiffPct.tag, usageCompletionTokensDiffPct.tag, usageReasoningTokensDiffPct.tag];

/** Successful records with a usage diff (judged), and those whose worst diff is over the threshold. */
const DISCREPANCIES: FoldSpec<CountFold> = {
  key: 'usage_discrepancy',
  create: (options) => {
    const threshold = options.usage_discrepancy_threshold_pct ?? METRIC_OPTION_DEFAULTS.usage_discrepancy_threshold_pct;
    return new CountFold((rec) => {
      if (rec.status !== 'ok') return null;
      let any = false;
      let worst = -Infinity;
      for (const tag of DIFF_TAGS) {
        const v = rec.metrics.get(tag);
        if (typeof v !== 'number') continue;
        any = true;
        worst = Math.max(worst, v);
      }
      return any ? worst > threshold : null;
    });
  },
};

export const usageDiscrepancyCount: RunMetricDef = {
  kind: 'aggregate',
  tag: 'usage_discrepancy_count',
  header: 'Usage Discrepancy Count',
  unit: 'requests',
  display: 'requests',
  flags: FLAGS,
  group: 'none',
  requires: [],
  fold: DISCREPANCIES,
  compute: (run) => {
    const f = foldOf(run, DISCREPANCIES);
    // No record had usage to compare: no value, not 0.
    return f && f.judged > 0 ? f.hits : undefined;
  },
};

export const usageDiscrepancyRecordMetrics: readonly RecordMetricDef[] = [
  usagePromptTokensDiffPct,
  usageCompletionTokensDiffPct,
  usageReasoningTokensDiffPct,
];
export const usageDiscrepancyRunMetrics: readonly RunMetricDef[] = [usageDiscrepancyCount];

/**
 * The end-of-run warning when the server's usage and servebench's output counts disagree on most
 * of the requests compared, or null: the sign that servebench counts with another tokenizer than
 * the server's. Output counts only: a chat server's prompt_tokens include its chat template's
 * tokens, so a prompt difference alone is no sign of a mismatch. It names the cause and the fixes.
 */
export function usageDiscrepancyWarning(summary: MetricsSummary, opts: MetricOptions = {}): string | null {
  const threshold = opts.usage_discrepancy_threshold_pct ?? METRIC_OPTION_DEFAULTS.usage_discrepancy_threshold_pct;
  const d = findMetric(summary, usageCompletionTokensDiffPct.tag);
  // Most requests beyond the threshold: the median is.
  if (d?.kind !== 'distribution' || d.stats.count === 0 || !(d.stats.p50 > threshold)) return null;
  return (
    `on most of ${d.stats.count} requests the output token count in the server's usage is more than ${threshold} % away from ` +
    `servebench's own (median ${d.stats.p50.toFixed(1)} %, --usage-discrepancy-threshold): servebench counts with another tokenizer ` +
    `than the server's (a tokenizer mismatch), so ISL, OSL and ITL are off. To fix it, ${TOKENIZER_FIXES}.`
  );
}

// Usage discrepancy metrics (AIPerf reference, "Usage Discrepancy Metrics"): how far the server's
// usage counts are from the client's own counts, per record, and how many records are off by more
// than --usage-discrepancy-threshold (default 10 %). A sign of a tokenizer mismatch.
import { MetricFlag, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { scalar } from '../core/helpers.js';
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

export const usageDiscrepancyCount: RunMetricDef = {
  kind: 'aggregate',
  tag: 'usage_discrepancy_count',
  header: 'Usage Discrepancy Count',
  unit: 'requests',
  display: 'requests',
  flags: FLAGS,
  group: 'none',
  requires: [],
  compute: (run) => {
    const threshold = run.options?.usage_discrepancy_threshold_pct ?? METRIC_OPTION_DEFAULTS.usage_discrepancy_threshold_pct;
    let compared = 0;
    let count = 0;
    for (const rec of run.records ?? []) {
      if (rec.status !== 'ok') continue;
      let any = false;
      let worst = -Infinity;
      for (const tag of DIFF_TAGS) {
        const v = rec.metrics.get(tag);
        if (typeof v !== 'number') continue;
        any = true;
        worst = Math.max(worst, v);
      }
      if (!any) continue;
      compared++;
      if (worst > threshold) count++;
    }
    // No record had usage to compare: no value, not 0.
    return compared > 0 ? count : undefined;
  },
};

export const usageDiscrepancyRecordMetrics: readonly RecordMetricDef[] = [
  usagePromptTokensDiffPct,
  usageCompletionTokensDiffPct,
  usageReasoningTokensDiffPct,
];
export const usageDiscrepancyRunMetrics: readonly RunMetricDef[] = [usageDiscrepancyCount];

/**
 * The end-of-run warning when the server's usage and servebench's counts disagree on most of the
 * requests compared, or null: the sign that servebench counts with another tokenizer than the
 * server's. It names the cause and the fixes.
 */
export function usageDiscrepancyWarning(summary: MetricsSummary, opts: MetricOptions = {}): string | null {
  const m = findMetric(summary, usageDiscrepancyCount.tag);
  const n = m?.kind === 'single' ? m.stats.avg : 0;
  if (!n) return null;
  // Records compared: those with any diff, at least as many as the most common diff.
  let compared = 0;
  for (const tag of DIFF_TAGS) {
    const d = findMetric(summary, tag);
    if (d?.kind === 'distribution') compared = Math.max(compared, d.stats.count);
  }
  if (2 * n <= compared) return null;
  const threshold = opts.usage_discrepancy_threshold_pct ?? METRIC_OPTION_DEFAULTS.usage_discrepancy_threshold_pct;
  return (
    `${n} of ${compared} requests have usage token counts from the server more than ${threshold} % away from servebench's own ` +
    `(--usage-discrepancy-threshold): servebench counts with another tokenizer than the server's (a tokenizer mismatch), ` +
    `so ISL, OSL and ITL are off. To fix it, ${TOKENIZER_FIXES}.`
  );
}

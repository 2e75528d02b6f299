// Usage field metrics (AIPerf reference, "Usage Field Metrics"): the server's own `usage` counts,
// last reported value per response, normalised across vendors by endpoints/usage.ts. They read
// `record.usage`, which is filled whatever the token-count source (--use-server-token-count or not).
import type { Usage } from '../../model/usage.js';
import { MetricFlag, type BaseUnit, type ConsoleGroup, type DisplayUnit, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { NS_PER_S, runNumber, totalOf } from '../core/helpers.js';

type UsageField = keyof Usage;

const TOKENS = MetricFlag.PRODUCES_TOKENS_ONLY;

function usageMetric(
  tag: string,
  header: string,
  field: UsageField,
  group: ConsoleGroup,
  flags: number = TOKENS,
  unit: BaseUnit = 'tokens',
  display: DisplayUnit = 'tokens',
  scale = 1,
): RecordMetricDef {
  return {
    kind: 'record',
    tag,
    header,
    unit,
    display,
    flags,
    group,
    requires: [],
    compute: (r) => {
      const v = r.usage?.[field];
      return v === null || v === undefined ? undefined : v * scale;
    },
  };
}

export const usagePromptTokens = usageMetric('usage_prompt_tokens', 'Usage Prompt Tokens', 'prompt_tokens', 'usage');
export const usageCompletionTokens = usageMetric('usage_completion_tokens', 'Usage Completion Tokens', 'completion_tokens', 'usage');
export const usageTotalTokens = usageMetric('usage_total_tokens', 'Usage Total Tokens', 'total_tokens', 'usage');
export const usageToolUsePromptTokens = usageMetric(
  'usage_tool_use_prompt_tokens',
  'Usage Tool Use Prompt Tokens',
  'tool_use_prompt_tokens',
  'usage',
);
export const usageReasoningTokens = usageMetric(
  'usage_reasoning_tokens',
  'Usage Reasoning Tokens',
  'reasoning_tokens',
  'reasoning',
  TOKENS | MetricFlag.SUPPORTS_REASONING,
);
// Cache hits help; writes and misses are deliberately not "larger is better".
export const usagePromptCacheReadTokens = usageMetric(
  'usage_prompt_cache_read_tokens',
  'Usage Prompt Cache Read Tokens',
  'prompt_cache_read_tokens',
  'cache',
  TOKENS | MetricFlag.LARGER_IS_BETTER,
);
export const usagePromptCacheWriteTokens = usageMetric(
  'usage_prompt_cache_write_tokens',
  'Usage Prompt Cache Write Tokens',
  'prompt_cache_write_tokens',
  'cache',
);
export const usagePromptCacheMissTokens = usageMetric(
  'usage_prompt_cache_miss_tokens',
  'Usage Prompt Cache Miss Tokens',
  'prompt_cache_miss_tokens',
  'cache',
);
export const usagePromptAudioTokens = usageMetric('usage_prompt_audio_tokens', 'Usage Prompt Audio Tokens', 'prompt_audio_tokens', 'audio');
export const usageCompletionAudioTokens = usageMetric(
  'usage_completion_audio_tokens',
  'Usage Completion Audio Tokens',
  'completion_audio_tokens',
  'audio',
);
// A duration in seconds (Mistral), kept in the ns base unit like every time so 12.5 s stays exact.
export const usagePromptAudioSeconds = usageMetric(
  'usage_prompt_audio_seconds',
  'Usage Prompt Audio Seconds',
  'prompt_audio_seconds',
  'audio',
  MetricFlag.NONE,
  'ns',
  's',
  NS_PER_S,
);
export const usageAcceptedPredictionTokens = usageMetric(
  'usage_accepted_prediction_tokens',
  'Usage Accepted Prediction Tokens',
  'accepted_prediction_tokens',
  'prediction',
  TOKENS | MetricFlag.LARGER_IS_BETTER,
);
export const usageRejectedPredictionTokens = usageMetric(
  'usage_rejected_prediction_tokens',
  'Usage Rejected Prediction Tokens',
  'rejected_prediction_tokens',
  'prediction',
);

export const totalUsagePromptTokens = totalOf(usagePromptTokens, 'total_usage_prompt_tokens', 'Total Usage Prompt Tokens');
export const totalUsageCompletionTokens = totalOf(usageCompletionTokens, 'total_usage_completion_tokens', 'Total Usage Completion Tokens');
export const totalUsageTotalTokens = totalOf(usageTotalTokens, 'total_usage_total_tokens', 'Total Usage Total Tokens');
export const totalUsageReasoningTokens = totalOf(usageReasoningTokens, 'total_usage_reasoning_tokens', 'Total Usage Reasoning Tokens');
export const totalUsagePromptCacheReadTokens = totalOf(
  usagePromptCacheReadTokens,
  'total_usage_prompt_cache_read_tokens',
  'Total Usage Prompt Cache Read Tokens',
);
export const totalUsagePromptCacheWriteTokens = totalOf(
  usagePromptCacheWriteTokens,
  'total_usage_prompt_cache_write_tokens',
  'Total Usage Prompt Cache Write Tokens',
);
export const totalUsagePromptCacheMissTokens = totalOf(
  usagePromptCacheMissTokens,
  'total_usage_prompt_cache_miss_tokens',
  'Total Usage Prompt Cache Miss Tokens',
);
export const totalUsagePromptAudioTokens = totalOf(
  usagePromptAudioTokens,
  'total_usage_prompt_audio_tokens',
  'Total Usage Prompt Audio Tokens',
);
export const totalUsageCompletionAudioTokens = totalOf(
  usageCompletionAudioTokens,
  'total_usage_completion_audio_tokens',
  'Total Usage Completion Audio Tokens',
);
export const totalUsagePromptAudioSeconds = totalOf(
  usagePromptAudioSeconds,
  'total_usage_prompt_audio_seconds',
  'Total Usage Prompt Audio Seconds',
);
export const totalUsageToolUsePromptTokens = totalOf(
  usageToolUsePromptTokens,
  'total_usage_tool_use_prompt_tokens',
  'Total Usage Tool Use Prompt Tokens',
);
export const totalUsageAcceptedPredictionTokens = totalOf(
  usageAcceptedPredictionTokens,
  'total_usage_accepted_prediction_tokens',
  'Total Usage Accepted Prediction Tokens',
);
export const totalUsageRejectedPredictionTokens = totalOf(
  usageRejectedPredictionTokens,
  'total_usage_rejected_prediction_tokens',
  'Total Usage Rejected Prediction Tokens',
);

export const overallUsagePromptCacheReadPct: RunMetricDef = {
  kind: 'derived',
  tag: 'overall_usage_prompt_cache_read_pct',
  header: 'Overall Usage Prompt Cache Read',
  unit: 'percent',
  display: '%',
  flags: TOKENS | MetricFlag.LARGER_IS_BETTER,
  group: 'cache',
  requires: ['total_usage_prompt_cache_read_tokens', 'total_usage_prompt_tokens'],
  // Token-weighted over the run: a 10k-token prompt weighs 100× a 100-token one.
  compute: (_run, v) => {
    const prompt = runNumber(v, 'total_usage_prompt_tokens');
    return prompt > 0 ? (100 * runNumber(v, 'total_usage_prompt_cache_read_tokens')) / prompt : undefined;
  },
};

export const usageRecordMetrics: readonly RecordMetricDef[] = [
  usagePromptTokens,
  usageCompletionTokens,
  usageTotalTokens,
  usageToolUsePromptTokens,
  usagePromptCacheReadTokens,
  usagePromptCacheWriteTokens,
  usagePromptCacheMissTokens,
  usageAcceptedPredictionTokens,
  usageRejectedPredictionTokens,
  usagePromptAudioTokens,
  usageCompletionAudioTokens,
  usagePromptAudioSeconds,
  usageReasoningTokens,
];

export const usageRunMetrics: readonly RunMetricDef[] = [
  totalUsagePromptTokens,
  totalUsageCompletionTokens,
  totalUsageTotalTokens,
  totalUsageReasoningTokens,
  totalUsagePromptCacheReadTokens,
  overallUsagePromptCacheReadPct,
  totalUsagePromptCacheWriteTokens,
  totalUsagePromptCacheMissTokens,
  totalUsagePromptAudioTokens,
  totalUsageCompletionAudioTokens,
  totalUsagePromptAudioSeconds,
  totalUsageToolUsePromptTokens,
  totalUsageAcceptedPredictionTokens,
  totalUsageRejectedPredictionTokens,
];

import { describe, expect, it } from 'vitest';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { findMetric, type MetricsSummary } from '../../../../src/metrics/core/summary.js';
import type { Usage } from '../../../../src/model/usage.js';
import { parseUsage } from '../../../../src/endpoints/usage.js';
import { catalogueProcessed, catalogueRecord } from '../catalogue-fixtures.js';

const single = (s: MetricsSummary, tag: string) => {
  const m = findMetric(s, tag);
  return m?.kind === 'single' ? m.stats.avg : undefined;
};
const dist = (s: MetricsSummary, tag: string) => {
  const m = findMetric(s, tag);
  return m?.kind === 'distribution' ? m.stats : undefined;
};

const openai = parseUsage({
  prompt_tokens: 200,
  completion_tokens: 12,
  total_tokens: 212,
  prompt_tokens_details: { cached_tokens: 150, audio_tokens: 4 },
  completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 1, accepted_prediction_tokens: 6, rejected_prediction_tokens: 3 },
})!;

describe('usage field record metrics', () => {
  it('read every normalised field, in base units', () => {
    const m = computeRecordMetrics(catalogueRecord({ input: 200, output: 10, reasoning: 2 }, { usage: openai }));
    expect(m.get('usage_prompt_tokens')).toBe(200);
    expect(m.get('usage_completion_tokens')).toBe(12);
    expect(m.get('usage_total_tokens')).toBe(212);
    expect(m.get('usage_reasoning_tokens')).toBe(2);
    expect(m.get('usage_prompt_cache_read_tokens')).toBe(150);
    expect(m.get('usage_prompt_audio_tokens')).toBe(4);
    expect(m.get('usage_completion_audio_tokens')).toBe(1);
    expect(m.get('usage_accepted_prediction_tokens')).toBe(6);
    expect(m.get('usage_rejected_prediction_tokens')).toBe(3);
    expect(m.has('usage_prompt_cache_write_tokens')).toBe(false);
    expect(m.has('usage_tool_use_prompt_tokens')).toBe(false);
  });

  it('vendor-specific fields: Anthropic writes, DeepSeek misses, Gemini tool use, Mistral seconds (ns base, s display)', () => {
    const anthropic = computeRecordMetrics(
      catalogueRecord({}, { usage: parseUsage({ input_tokens: 5, output_tokens: 7, cache_creation_input_tokens: 95 })! }),
    );
    expect(anthropic.get('usage_prompt_cache_write_tokens')).toBe(95);
    expect(anthropic.get('usage_prompt_tokens')).toBe(100);
    const deepseek = computeRecordMetrics(catalogueRecord({}, { usage: parseUsage({ prompt_tokens: 10, prompt_cache_miss_tokens: 8 })! }));
    expect(deepseek.get('usage_prompt_cache_miss_tokens')).toBe(8);
    const gemini = computeRecordMetrics(
      catalogueRecord({}, { usage: parseUsage({ usageMetadata: { promptTokenCount: 9, toolUsePromptTokenCount: 4 } })! }),
    );
    expect(gemini.get('usage_tool_use_prompt_tokens')).toBe(4);
    const mistral = computeRecordMetrics(catalogueRecord({}, { usage: parseUsage({ prompt_audio_seconds: 12.5 })! }));
    expect(mistral.get('usage_prompt_audio_seconds')).toBe(12.5e9);
  });

  it('no usage: no usage metric at all (not 0)', () => {
    const m = computeRecordMetrics(catalogueRecord({}, { usage: null }));
    expect([...m.keys()].filter((k) => k.startsWith('usage_'))).toEqual([]);
  });
});

describe('usage totals and the overall cache read %', () => {
  const u = (prompt: number, cached: number | null): Usage => ({
    prompt_tokens: prompt,
    completion_tokens: 10,
    total_tokens: prompt + 10,
    reasoning_tokens: null,
    prompt_cache_read_tokens: cached,
  });

  it('sums over successful records; % is token-weighted, not a mean of per-request %', () => {
    const s = summarize([
      catalogueProcessed({}, { usage: u(10_000, 9_000) }, { index: 1 }),
      catalogueProcessed({}, { usage: u(100, 0) }, { index: 2 }),
      // An error record's usage does not count.
      catalogueProcessed({}, { usage: u(5_000, 5_000) }, { status: 'error', index: 3 }),
    ]);
    expect(single(s, 'total_usage_prompt_tokens')).toBe(10_100);
    expect(single(s, 'total_usage_completion_tokens')).toBe(20);
    expect(single(s, 'total_usage_prompt_cache_read_tokens')).toBe(9_000);
    // 9000 / 10100, where a per-request mean would say (90 % + 0 %) / 2 = 45 %.
    expect(single(s, 'overall_usage_prompt_cache_read_pct')).toBeCloseTo((100 * 9_000) / 10_100, 10);
    expect(dist(s, 'usage_prompt_tokens')?.count).toBe(2);
  });

  it('no cache reads reported: no cache total and no %', () => {
    const s = summarize([catalogueProcessed({}, { usage: u(100, null) })]);
    expect(single(s, 'total_usage_prompt_tokens')).toBe(100);
    expect(single(s, 'total_usage_prompt_cache_read_tokens')).toBeUndefined();
    expect(single(s, 'overall_usage_prompt_cache_read_pct')).toBeUndefined();
  });

  it('seconds totals stay in seconds for display', () => {
    const s = summarize([
      catalogueProcessed({}, { usage: { ...u(1, null), prompt_audio_seconds: 1.25 } }, { index: 1 }),
      catalogueProcessed({}, { usage: { ...u(1, null), prompt_audio_seconds: 2.5 } }, { index: 2 }),
    ]);
    const m = findMetric(s, 'total_usage_prompt_audio_seconds')!;
    expect(m.display).toBe('s');
    expect(single(s, 'total_usage_prompt_audio_seconds')).toBeCloseTo(3.75e9, 3);
  });
});

describe('usage discrepancy', () => {
  const usage = (prompt: number, completion: number, reasoning: number | null = null): Usage => ({
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    reasoning_tokens: reasoning,
  });

  it('diff % against the client counts (ISL, OSL, reasoning)', () => {
    const m = computeRecordMetrics(catalogueRecord({ input: 200, output: 18, reasoning: 2 }, { usage: usage(210, 21, 4) }));
    expect(m.get('usage_prompt_tokens_diff_pct')).toBeCloseTo(5, 10);
    // OSL = 18 + 2 = 20 client tokens; the server says 21.
    expect(m.get('usage_completion_tokens_diff_pct')).toBeCloseTo(5, 10);
    expect(m.get('usage_reasoning_tokens_diff_pct')).toBeCloseTo(100, 10);
  });

  it('a zero client count has no diff (not infinity)', () => {
    const m = computeRecordMetrics(catalogueRecord({ input: 0, output: 0 }, { usage: usage(5, 5) }));
    expect(m.has('usage_prompt_tokens_diff_pct')).toBe(false);
    expect(m.has('usage_completion_tokens_diff_pct')).toBe(false);
  });

  it('counts requests whose worst diff exceeds the threshold (default 10 %, or the option)', () => {
    const records = [
      catalogueProcessed({ input: 100, output: 10 }, { usage: usage(100, 10) }, { index: 1 }), // 0 %
      catalogueProcessed({ input: 100, output: 10 }, { usage: usage(108, 10) }, { index: 2 }), // 8 %
      catalogueProcessed({ input: 100, output: 10 }, { usage: usage(100, 12) }, { index: 3 }), // 20 % on completion
      catalogueProcessed({ input: 100, output: 10 }, {}, { index: 4 }), // no usage: not compared
    ];
    expect(single(summarize(records), 'usage_discrepancy_count')).toBe(1);
    expect(single(summarize(records, { metricOptions: { usage_discrepancy_threshold_pct: 5 } }), 'usage_discrepancy_count')).toBe(2);
    expect(single(summarize(records, { metricOptions: { usage_discrepancy_threshold_pct: 25 } }), 'usage_discrepancy_count')).toBe(0);
  });

  it('no usage anywhere: no discrepancy count', () => {
    expect(single(summarize([catalogueProcessed({}, {})]), 'usage_discrepancy_count')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { CONSOLE_GROUP_ORDER, renderConsole } from '../../../src/export/console.js';
import type { MetricResult, MetricsSummary } from '../../../src/metrics/core/summary.js';
import { sampleSummary } from './sample.js';

const extra = (tag: string, group: MetricResult['group']): MetricResult => ({
  tag,
  header: tag,
  unit: 'tokens',
  display: 'tokens',
  group,
  flags: 0,
  kind: 'single',
  stats: { avg: 1 },
});

describe('console groups of the catalogue', () => {
  it("follow the reference's order: effective, active, usage, cache, prediction, audio, reasoning, default, then spec decode", () => {
    expect(CONSOLE_GROUP_ORDER.slice(0, 10)).toEqual([
      'effective',
      'active',
      'usage',
      'cache',
      'prediction',
      'audio',
      'reasoning',
      'default',
      'spec_decode',
      'http_trace',
    ]);
    const summary = sampleSummary();
    const groups = ['spec_decode', 'audio', 'cache', 'usage', 'prediction', 'http_trace'] as const;
    const s: MetricsSummary = { ...summary, metrics: [...summary.metrics, ...groups.map((g) => extra(`m_${g}`, g))] };
    const out = renderConsole(s, { showTraceTiming: true });
    const titles = [
      'LLM Metrics: Usage',
      'LLM Metrics: Cache',
      'LLM Metrics: Prediction',
      'LLM Metrics: Audio',
      'LLM Metrics: Reasoning',
      'Time to First Token',
      'Spec Decode',
      'HTTP Trace Metrics',
    ];
    const pos = titles.map((t) => out.indexOf(t));
    expect(
      pos.every((p) => p >= 0),
      JSON.stringify(pos),
    ).toBe(true);
    expect([...pos].sort((a, b) => a - b)).toEqual(pos);
    expect(renderConsole(s)).not.toContain('HTTP Trace Metrics');
  });
});

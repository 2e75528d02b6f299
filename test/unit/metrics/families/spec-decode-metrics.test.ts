import { describe, expect, it } from 'vitest';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { formatAcceptanceHistogram, poolAcceptanceHistogram } from '../../../../src/metrics/families/spec-decode.js';
import { findMetric, type MetricsSummary } from '../../../../src/metrics/core/summary.js';
import { buildProfileExport } from '../../../../src/export/json.js';
import { renderConsole } from '../../../../src/export/console.js';
import type { SpecDecodeRecord } from '../../../../src/model/spec-decode.js';
import { catalogueProcessed, catalogueRecord } from '../catalogue-fixtures.js';

const single = (s: MetricsSummary, tag: string) => {
  const m = findMetric(s, tag);
  return m?.kind === 'single' ? m.stats.avg : undefined;
};

// 4 steps with K = 3: accepted [0, 1, 3, 0] → histogram {0: 2, 1: 1, 3: 1}.
const a: SpecDecodeRecord = { steps: 4, accepted_draft_tokens: 4, draft_tokens: 12, histogram: [2, 1, 0, 1] };
// 1 step, everything accepted.
const b: SpecDecodeRecord = { steps: 1, accepted_draft_tokens: 3, draft_tokens: 3, histogram: [0, 0, 0, 1] };

describe('spec decode per-request metrics', () => {
  it('acceptance length, draft acceptance rate, accepted per verified, steps, counts', () => {
    const m = computeRecordMetrics(catalogueRecord({}, { spec_decode: a }));
    expect(m.get('spec_decode_acceptance_length')).toBe(2); // 1 + 4/4
    expect(m.get('spec_decode_draft_acceptance_rate')).toBeCloseTo(100 / 3, 10); // 4/12
    expect(m.get('spec_decode_accepted_per_verified')).toBe(0.5); // (4 + 4) / (12 + 4)
    expect(m.get('spec_decode_steps')).toBe(4);
    expect(m.get('spec_decode_accepted_draft_tokens')).toBe(4);
    expect(m.get('spec_decode_draft_tokens')).toBe(12);
  });

  it('spec decode off: every metric drops out', () => {
    const m = computeRecordMetrics(catalogueRecord({}, { spec_decode: null }));
    expect([...m.keys()].filter((k) => k.startsWith('spec_decode'))).toEqual([]);
  });
});

describe('spec decode run metrics and the pooled histogram', () => {
  const records = [
    catalogueProcessed({}, { spec_decode: a }, { index: 1 }),
    catalogueProcessed({}, { spec_decode: b }, { index: 2 }),
    catalogueProcessed({}, { spec_decode: b }, { index: 3, status: 'error' }),
    catalogueProcessed({}, { spec_decode: b }, { index: 4, phase: 'warmup' }),
  ];
  const s = summarize(records);

  it('token-weighted length weighs steps; the per-request mean weighs requests', () => {
    // Per request: (2 + 4) / 2 = 3. Per step: 1 + 7/5 = 2.4.
    const perReq = findMetric(s, 'spec_decode_acceptance_length');
    expect(perReq?.kind === 'distribution' && perReq.stats.avg).toBe(3);
    expect(single(s, 'spec_decode_token_weighted_acceptance_length')).toBeCloseTo(2.4, 12);
    expect(single(s, 'spec_decode_overall_draft_acceptance_rate')).toBeCloseTo((100 * 7) / 15, 10);
    expect(single(s, 'total_spec_decode_steps')).toBe(5);
    expect(single(s, 'total_accepted_draft_tokens')).toBe(7);
    expect(single(s, 'total_draft_tokens')).toBe(15);
  });

  it('pools successful profiling requests; the buckets sum to total steps', () => {
    expect(poolAcceptanceHistogram(records)).toEqual({ '0': 2, '1': 1, '3': 2 });
    expect(s.pooled_spec_decode_acceptance_histogram).toEqual({ '0': 2, '1': 1, '3': 2 });
    const total = Object.values(s.pooled_spec_decode_acceptance_histogram!).reduce((x, y) => x + y, 0);
    expect(total).toBe(single(s, 'total_spec_decode_steps'));
  });

  it('JSON has the full histogram; the console caps it at >=8 under the Spec Decode table', () => {
    const wide = { '0': 10, '3': 10, '8': 5, '12': 5 };
    const j = buildProfileExport(
      { ...s, pooled_spec_decode_acceptance_histogram: wide },
      { config: {}, run: { start_ns: null, end_ns: null, wall_anchor: null } },
    );
    expect(j.pooled_spec_decode_acceptance_histogram).toEqual(wide);
    const line = formatAcceptanceHistogram(wide);
    expect(line).toContain('0: 33.3%');
    expect(line).toContain('3: 33.3%');
    expect(line).toContain('>=8: 33.3%');
    expect(line).not.toContain('12:');
    const out = renderConsole(s);
    const table = out.indexOf('Spec Decode');
    expect(table).toBeGreaterThan(out.indexOf('LLM Metrics'));
    expect(out.indexOf('Accepted drafts per step')).toBeGreaterThan(table);
  });

  it('no spec decode in the run: no histogram', () => {
    const plain = summarize([catalogueProcessed({}, {})]);
    expect(plain.pooled_spec_decode_acceptance_histogram).toBeUndefined();
    expect(renderConsole(plain)).not.toContain('Spec Decode');
  });
});

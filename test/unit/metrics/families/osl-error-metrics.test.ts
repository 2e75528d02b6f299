import { describe, expect, it } from 'vitest';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { oslMismatchThresholdTokens, oslMismatchWarning } from '../../../../src/metrics/families/osl-mismatch.js';
import { findMetric, type MetricsSummary } from '../../../../src/metrics/core/summary.js';
import { catalogueProcessed, catalogueRecord } from '../catalogue-fixtures.js';

const single = (s: MetricsSummary, tag: string) => {
  const m = findMetric(s, tag);
  return m?.kind === 'single' ? m.stats.avg : undefined;
};

describe('OSL mismatch', () => {
  it('diff % is signed: negative when the server stopped early', () => {
    expect(computeRecordMetrics(catalogueRecord({ output: 50 }, { requested_osl: 100 })).get('osl_mismatch_diff_pct')).toBe(-50);
    expect(computeRecordMetrics(catalogueRecord({ output: 120 }, { requested_osl: 100 })).get('osl_mismatch_diff_pct')).toBe(20);
    expect(computeRecordMetrics(catalogueRecord({ output: 100 }, { requested_osl: 100 })).get('osl_mismatch_diff_pct')).toBe(0);
    // No requested length: nothing to compare.
    expect(computeRecordMetrics(catalogueRecord({ output: 100 }, { requested_osl: null })).has('osl_mismatch_diff_pct')).toBe(false);
  });

  it('threshold = min(requested · pct, max tokens): the cap is tighter for long outputs', () => {
    expect(oslMismatchThresholdTokens(100)).toBe(5);
    expect(oslMismatchThresholdTokens(2000)).toBe(50); // 5 % would be 100
    expect(oslMismatchThresholdTokens(2000, { osl_mismatch_pct_threshold: 1 })).toBe(20);
    expect(oslMismatchThresholdTokens(2000, { osl_mismatch_max_token_threshold: 500 })).toBe(100);
  });

  it('counts |actual − requested| above the capped threshold, both directions', () => {
    const records = [
      // requested 2000: 5 % = 100 but the cap is 50. A 60-token shortfall is a mismatch.
      catalogueProcessed({ output: 1940 }, { requested_osl: 2000 }, { index: 1 }),
      // 40 short of 2000: within 50.
      catalogueProcessed({ output: 1960 }, { requested_osl: 2000 }, { index: 2 }),
      // requested 100: threshold 5. 6 over is a mismatch; exactly 5 is not.
      catalogueProcessed({ output: 106 }, { requested_osl: 100 }, { index: 3 }),
      catalogueProcessed({ output: 95 }, { requested_osl: 100 }, { index: 4 }),
      // An error and a request with no requested length are not compared.
      catalogueProcessed({ output: 1 }, { requested_osl: 100 }, { index: 5, status: 'error' }),
      catalogueProcessed({ output: 1 }, { requested_osl: null }, { index: 6 }),
    ];
    const s = summarize(records);
    expect(single(s, 'osl_mismatch_count')).toBe(2);
    expect(single(summarize(records, { metricOptions: { osl_mismatch_max_token_threshold: 100 } }), 'osl_mismatch_count')).toBe(1);
    const w = oslMismatchWarning(s)!;
    expect(w).toMatch(/^2 of 5 requests/);
    expect(w).toContain('--extra-inputs ignore_eos:true');
    expect(w).toContain('--extra-inputs min_tokens:N');
    expect(w).toContain('min_new_tokens');
    expect(w).toContain('--use-server-token-count');
  });

  it('no mismatch, or nothing requested: no warning', () => {
    expect(oslMismatchWarning(summarize([catalogueProcessed({ output: 100 }, { requested_osl: 100 })]))).toBeNull();
    const none = summarize([catalogueProcessed({ output: 100 }, { requested_osl: null })]);
    expect(single(none, 'osl_mismatch_count')).toBeUndefined();
    expect(oslMismatchWarning(none)).toBeNull();
  });
});

describe('error metrics', () => {
  it('error_isl over error records only; total_error_isl sums them; cancelled is not an error', () => {
    const s = summarize([
      catalogueProcessed({ input: 100 }, {}, { index: 1 }),
      catalogueProcessed({ input: 300 }, {}, { index: 2, status: 'error' }),
      catalogueProcessed({ input: 700 }, {}, { index: 3, status: 'error' }),
      catalogueProcessed({ input: 5000 }, {}, { index: 4, status: 'cancelled' }),
    ]);
    const e = findMetric(s, 'error_isl');
    expect(e?.kind).toBe('distribution');
    if (e?.kind === 'distribution') {
      expect(e.stats.count).toBe(2);
      expect(e.stats.avg).toBe(500);
    }
    expect(single(s, 'total_error_isl')).toBe(1000);
    // The ordinary ISL stays over successful records.
    const isl = findMetric(s, 'input_sequence_length');
    expect(isl?.kind === 'distribution' && isl.stats.count).toBe(1);
  });

  it('a successful record has no error_isl; a clean run has no error metrics', () => {
    expect(computeRecordMetrics(catalogueRecord({ input: 10 })).has('error_isl')).toBe(false);
    const s = summarize([catalogueProcessed({ input: 10 })]);
    expect(findMetric(s, 'error_isl')).toBeUndefined();
    expect(findMetric(s, 'total_error_isl')).toBeUndefined();
  });
});

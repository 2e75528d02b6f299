// A small summary for exporter tests: two streaming successes (one reasoned) and one error.
import { summarize } from '../../../src/metrics/accumulate.js';
import type { MetricsSummary } from '../../../src/metrics/core/summary.js';
import { processed } from '../metrics/fixtures.js';

export const T0 = 2n ** 60n; // beyond 2^53, to prove stamps stay exact

export function sampleSummary(): MetricsSummary {
  return summarize([
    // TTFT 1000 ms, latency 2000 ms (the last content chunk; the last byte 100 ms later), 1001 tokens.
    processed({ start: T0, tokens: [1000, 2000], end: 2100, input: 100, output: 1001 }, { index: 1 }),
    // TTFT 3000 ms, latency 4000 ms, 999 + 2 reasoning tokens.
    processed({ start: T0, tokens: [3000, 4000], end: 4100, input: 300, output: 999, reasoning: 2 }, { index: 2 }),
    processed({ start: T0, tokens: [], end: 10 }, { status: 'error', index: 3 }),
  ]);
}

import { describe, expect, it } from 'vitest';
import type { MetricsSummary } from '../../../src/metrics/core/summary.js';
import type { ConceptSummary } from '../../../src/server-metrics/concepts.js';
import { crossCheck } from '../../../src/server-metrics/cross-check.js';
import { discoveryUrls, parseServerMetricsFlags } from '../../../src/server-metrics/options.js';

/** A client summary with the four figures the cross-check reads (base units: ns, tokens, requests). */
function client(ttftP50Ms: number, ttftP99Ms: number, tokens: number, eff: number, idealHit?: number): MetricsSummary {
  const base = { unit: 'ns', display: 'ms', group: 'default', flags: 0 } as const;
  const metrics = [
    { ...base, tag: 'time_to_first_token', header: 'TTFT', kind: 'distribution', stats: { p50: ttftP50Ms * 1e6, p99: ttftP99Ms * 1e6 } },
    { ...base, tag: 'total_output_tokens', header: 'T', kind: 'single', stats: { avg: tokens } },
    { ...base, tag: 'effective_concurrency', header: 'E', kind: 'time_weighted', stats: { avg: eff } },
    ...(idealHit === undefined
      ? []
      : [{ ...base, tag: 'theoretical_prefix_cache_hit_rate', header: 'P', kind: 'single', stats: { avg: idealHit } }]),
  ];
  return { metrics, counts: { issued: 0, succeeded: 0, errored: 0, cancelled: 0 } } as unknown as MetricsSummary;
}

function server(ttftP50S: number, bucket: [number, number], gen: number, running: number, hit?: number): Map<string, ConceptSummary> {
  const c = (concept: string, extra: Partial<ConceptSummary>): [string, ConceptSummary] => [
    concept,
    { concept, header: concept, kind: 'gauge', unit: 'requests', vendor: 'vllm', metric: 'm', ...extra },
  ];
  return new Map([
    c('ttft', {
      kind: 'histogram',
      histogram: {
        count: 1,
        sum: 0,
        mean: null,
        p50: { value: ttftP50S, bucket },
        p90: null,
        p99: { value: 2 * ttftP50S, bucket },
        buckets: [],
      },
    }),
    c('generation_tokens', { kind: 'counter', counter: { increase: gen, rate: 0, resets: 0, span_s: 1 } }),
    c('requests_running', { gauge: { avg: running, min: 0, max: 0, p50: 0, p90: 0, p99: 0, samples: 1 } }),
    ...(hit === undefined ? [] : [c('prefix_cache_hit_rate', { kind: 'ratio', value: hit })]),
  ]);
}

describe('client–server cross-check', () => {
  it('puts each server figure beside the client one; agreement gets no warning', () => {
    const x = crossCheck(server(0.03, [0.02, 0.04], 1000, 7.9, 40), client(32, 70, 1000, 8, 65));
    expect(x.ttft).toMatchObject({
      server_p50_ms: 30,
      client_p50_ms: 32,
      server_p99_ms: 60,
      client_p99_ms: 70,
      server_p50_bucket_ms: [20, 40],
    });
    expect(x.ttft!.difference_p50_ms).toBeCloseTo(2, 9);
    expect(x.generation_tokens).toEqual({ server: 1000, client: 1000, difference_pct: 0 });
    expect(x.requests_running!.difference_pct).toBeCloseTo(-1.25, 9);
    expect(x.prefix_cache).toEqual({ theoretical_pct: 65, server_pct: 40 });
    expect(x.warnings).toEqual([]);
  });

  it('a large disagreement is one line naming both numbers', () => {
    const x = crossCheck(server(0.09, [0.08, 0.1], 500, 2, undefined), client(30, 40, 1000, 8));
    expect(x.warnings).toEqual([
      "warning: server TTFT p50 90.0 ms is above the client's 30.0 ms by more than its bucket (80.0–100.0 ms); are the server's metrics from this run?",
      'warning: the server generated 500 tokens in the window, the client counted 1000 output tokens (-50.0 %)',
      "warning: the server ran 2.00 requests on average, the client's effective concurrency was 8.00 (-75.0 %)",
    ]);
    expect(x.prefix_cache).toBeNull();
  });
});

describe('--server-metrics flags', () => {
  it('lists, splits, dedupes; --no-server-metrics turns it off; the interval is checked', () => {
    expect(parseServerMetricsFlags(undefined, undefined)).toEqual({ enabled: true, urls: [], interval_ms: 333 });
    expect(parseServerMetricsFlags(['http://a:1/metrics,http://b:2/m', 'http://a:1/metrics'], 100).urls).toEqual([
      'http://a:1/metrics',
      'http://b:2/m',
    ]);
    expect(parseServerMetricsFlags([false], undefined).enabled).toBe(false);
    expect(() => parseServerMetricsFlags(['nope'], undefined)).toThrow('--server-metrics: not a URL: "nope"');
    expect(() => parseServerMetricsFlags(['ftp://x/'], undefined)).toThrow('--server-metrics: only http:// and https:// URLs');
    expect(() => parseServerMetricsFlags(undefined, 5)).toThrow(
      '--server-metrics-interval-ms: expected a number of ms from 10 to 3600000, got 5',
    );
  });

  it('discovers <origin>/metrics and /prometheus/metrics, whatever the base path', () => {
    expect(discoveryUrls('http://h:8000/v1')).toEqual(['http://h:8000/metrics', 'http://h:8000/prometheus/metrics']);
  });
});

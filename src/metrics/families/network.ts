// Network latency calibration (AIPerf reference, "Network Latency Calibration Metrics" and
// "Network-Adjusted Latency Metrics"). The mean network RTT (probed with TCP handshakes, or given
// with --network-latency-mean) is subtracted from the latencies that start at the request send:
// request latency, TTFT, TTFO. Subtracting a constant shifts the mean and every percentile and
// leaves the spread alone, so it is applied to the summary statistics (each clamped at 0), after
// summarising; the raw metrics stay as measured. Intra-stream gaps (TTST, ITL, ICL) need no
// adjustment: the RTT is not in them.
import type { DistributionResult, MetricResult, MetricsSummary } from '../core/summary.js';
import { MetricFlag, type RunMetricDef } from '../core/types.js';

const LOCATION = /^(avg|min|max|median|mode|p\d[\d.]*)$/;

export const networkRtt: RunMetricDef = {
  kind: 'derived',
  tag: 'network_rtt',
  header: 'Network RTT',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: [],
  compute: (run) => run.options?.network_rtt_ns ?? undefined,
};

/** The adjusted variants: tag, header, and the metric each is derived from. */
export const NETWORK_ADJUSTED = [
  { tag: 'network_adjusted_request_latency', header: 'Network-Adjusted Request Latency', source: 'request_latency' },
  { tag: 'network_adjusted_time_to_first_token', header: 'Network-Adjusted Time to First Token', source: 'time_to_first_token' },
  {
    tag: 'network_adjusted_time_to_first_output_token',
    header: 'Network-Adjusted Time to First Output Token',
    source: 'time_to_first_output_token',
  },
] as const;

export interface NetworkAdjustment {
  summary: MetricsSummary;
  /** Adjusted tags where the RTT exceeded some statistic, which was clamped at 0. */
  clamped: string[];
}

/**
 * The summary with a network-adjusted distribution inserted after each source metric present:
 * avg, min, max and every percentile become max(0, stat − rtt); std and count are unchanged.
 */
export function applyNetworkAdjustment(summary: MetricsSummary, rttNs: number): NetworkAdjustment {
  const clamped: string[] = [];
  const metrics: MetricResult[] = [];
  for (const m of summary.metrics) {
    metrics.push(m);
    const adj = NETWORK_ADJUSTED.find((a) => a.source === m.tag);
    if (!adj || m.kind !== 'distribution') continue;
    let anyClamped = false;
    const shift = (x: number) => {
      const y = x - rttNs;
      if (y < 0) anyClamped = true;
      return Math.max(0, y);
    };
    // Location statistics move with the RTT (avg, min, max, median/mode and every percentile,
    // whichever the stats carry); spread and counts (std, variance, count) do not.
    const stats = { ...m.stats } as DistributionResult['stats'] & Record<string, unknown>;
    for (const [k, v] of Object.entries(m.stats)) {
      if (typeof v === 'number' && LOCATION.test(k)) (stats as Record<string, unknown>)[k] = shift(v);
    }
    // The sum follows the shifted mean.
    if (typeof stats.sum === 'number') stats.sum = stats.avg * stats.count;
    const out: DistributionResult = { ...m, tag: adj.tag, header: adj.header, stats };
    // Interval bounds are locations too: they move with the RTT, clamped like the rest (a clamped
    // bound of a wide interval is no sign of a too large RTT, so it does not warn).
    if (m.intervals) {
      const at = (x: number) => Math.max(0, x - rttNs);
      const move = (iv: [number, number] | null): [number, number] | null => (iv ? [at(iv[0]), at(iv[1])] : null);
      const percentiles = Object.fromEntries(Object.entries(m.intervals.percentiles).map(([k, iv]) => [k, move(iv)]));
      out.intervals = { ...m.intervals, mean: move(m.intervals.mean), percentiles: percentiles as typeof m.intervals.percentiles };
    }
    metrics.push(out);
    if (anyClamped) clamped.push(adj.tag);
  }
  return { summary: { ...summary, metrics }, clamped };
}

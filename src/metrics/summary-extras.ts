// Summary steps that are not one value per metric: the network-RTT shift of whole distributions
// and the pooled speculative-decoding histogram. Applied once at the end of summarize().
import { warn } from '../warnings.js';
import { applyNetworkAdjustment } from './families/network.js';
import type { MetricOptions } from './core/options.js';
import type { MetricsSummary } from './core/summary.js';

export function finishSummary(summary: MetricsSummary, pooled: Record<string, number> | null, opts: MetricOptions): MetricsSummary {
  let out = summary;
  const rtt = opts.network_rtt_ns;
  if (rtt !== null && rtt !== undefined) {
    const adj = applyNetworkAdjustment(out, rtt);
    out = adj.summary;
    if (adj.clamped.length > 0) {
      warn(
        `the network RTT (${(rtt / 1e6).toFixed(3)} ms) exceeds some measured latencies; ${adj.clamped.join(', ')} ` +
          'were clamped at 0 there (the RTT may be larger than the true network leg)',
      );
    }
  }
  if (pooled) out = { ...out, pooled_spec_decode_acceptance_histogram: pooled };
  return out;
}

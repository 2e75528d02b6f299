// Network RTT calibration for `profile`: either a given mean (--network-latency-mean) or TCP
// handshake probes during the profiling phase (--network-latency-automatic), written to
// network_latency.jsonl. Yields the RTT the summary subtracts, or null (no adjustment).
import path from 'node:path';
import { RttProber, type ProbeSummary } from './rtt-probe.js';
import { warn } from '../warnings.js';

/** Network RTT calibration: off, probed (--network-latency-automatic) or given (--network-latency-mean). */
export interface NetworkLatencySettings {
  readonly mode: 'off' | 'automatic' | 'fixed';
  /** The given mean RTT in ms (mode 'fixed'), else null. */
  readonly mean_ms: number | null;
  /** Seconds between TCP handshake probes (mode 'automatic'). */
  readonly ping_interval_s: number;
}

export const NETWORK_LATENCY_JSONL = 'network_latency.jsonl';

export interface CalibrationResult {
  /** Mean RTT to subtract, ns; null: no adjustment. */
  rtt_ns: number | null;
  /** What goes into profile_export.json (`network_latency`), or null when calibration is off. */
  info: Record<string, unknown> | null;
}

function hostPort(baseUrl: string): { host: string; port: number } {
  const u = new URL(baseUrl);
  const port = u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  // An IPv6 literal comes bracketed in URL.hostname.
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port };
}

export class NetworkCalibration {
  private readonly prober: RttProber | null;

  constructor(
    private readonly settings: NetworkLatencySettings,
    baseUrl: string,
    artifactDir: string,
  ) {
    this.prober =
      settings.mode === 'automatic'
        ? new RttProber({
            ...hostPort(baseUrl),
            intervalMs: settings.ping_interval_s * 1000,
            file: path.join(artifactDir, NETWORK_LATENCY_JSONL),
          })
        : null;
  }

  /** Start probing (automatic mode); call when the profiling phase starts. */
  onProfilingStart(): void {
    this.prober?.start();
  }

  /** Stop probing and settle the RTT; logs the choice and warns about failed probes. */
  async finish(log: (msg: string) => void): Promise<CalibrationResult> {
    const s = this.settings;
    if (s.mode === 'off') return { rtt_ns: null, info: null };
    if (s.mode === 'fixed') {
      const rtt_ns = (s.mean_ms ?? 0) * 1e6;
      log(`network RTT: ${s.mean_ms} ms (given); subtracted from request latency, TTFT and TTFO in network_adjusted_*`);
      return { rtt_ns, info: { mode: 'fixed', mean_ms: s.mean_ms } };
    }
    const sum: ProbeSummary = await this.prober!.stop();
    const info = {
      mode: 'automatic',
      target: sum.target,
      probes: sum.probes,
      ok: sum.ok,
      failed: sum.failed,
      mean_ms: sum.mean_ns === null ? null : sum.mean_ns / 1e6,
      min_ms: sum.min_ns === null ? null : sum.min_ns / 1e6,
      max_ms: sum.max_ns === null ? null : sum.max_ns / 1e6,
      file: NETWORK_LATENCY_JSONL,
    };
    if (sum.mean_ns === null) {
      warn(
        `network RTT: ${sum.probes === 0 ? 'no probe ran' : `all ${sum.probes} TCP handshake probes to ${sum.target} failed`}; ` +
          `no network adjustment made (see ${NETWORK_LATENCY_JSONL})`,
      );
      return { rtt_ns: null, info };
    }
    if (sum.failed > 0) {
      warn(
        `network RTT: ${sum.failed} of ${sum.probes} TCP handshake probes to ${sum.target} failed; the mean uses the ${sum.ok} that succeeded`,
      );
    }
    log(
      `network RTT: ${info.mean_ms!.toFixed(3)} ms mean over ${sum.ok} TCP handshakes to ${sum.target}; subtracted in network_adjusted_*`,
    );
    return { rtt_ns: sum.mean_ns, info };
  }
}

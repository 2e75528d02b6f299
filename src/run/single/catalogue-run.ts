// The metric catalogue's part of one run: processor options (--per-chunk-usage) and the summary's
// start options (thresholds, goodput SLOs) for the run wiring, then, as one of the run's outputs
// (output.ts), the profiling-phase start (network probes), the network RTT for the summary, and the
// end-of-run report (usage discrepancy and OSL mismatch warnings, network calibration details for
// profile_export.json).
import type { RunConfig } from '../../config/types.js';
import { defaultRegistry } from '../../metrics/catalogue.js';
import { CONVENTION_NAMES, comparisonRegistry, registryFor } from '../../metrics/conventions.js';
import { resolveSlos } from '../../metrics/families/goodput.js';
import type { MetricOptions } from '../../metrics/core/options.js';
import { oslMismatchWarning } from '../../metrics/families/osl-mismatch.js';
import { usageDiscrepancyWarning } from '../../metrics/families/usage-discrepancy.js';
import type { MetricsSummary } from '../../metrics/core/summary.js';
import type { ProcessorOptions } from '../../records/process.js';
import type { SummaryEnd } from '../../metrics/accumulate.js';
import type { Phase } from '../../model/phase.js';
import { warn } from '../../warnings.js';
import { NetworkCalibration } from '../../transport/network-calibration.js';
import type { OutputReport, RunFinish, RunOutput } from './output.js';

export class CatalogueRun implements RunOutput {
  readonly name = 'catalogue';
  private readonly network: NetworkCalibration;
  private networkInfo: Record<string, unknown> | null = null;
  private options: MetricOptions | null = null;

  constructor(
    private readonly cfg: RunConfig,
    baseUrl: string,
    artifactDir: string,
    private readonly log: (msg: string) => void,
  ) {
    this.network = new NetworkCalibration(cfg.metrics.network_latency, baseUrl, artifactDir);
  }

  /** Merged into the RecordProcessor's options: --per-chunk-usage, and --convention's definitions. */
  get processorOptions(): Pick<ProcessorOptions, 'perChunkUsage' | 'registry' | 'compareWith'> {
    const convention = this.cfg.statistics.convention;
    return {
      perChunkUsage: this.cfg.per_chunk_usage,
      registry: registryFor(convention),
      // `all`: each record's values under the other tools' definitions, taken while its chunk stamps are there.
      ...(convention === 'all'
        ? { compareWith: new Map(CONVENTION_NAMES.filter((n) => n !== 'aiperf').map((n) => [n, comparisonRegistry(n)] as const)) }
        : {}),
    };
  }

  /** Probing covers the profiling phase. */
  phaseStart(phase: Phase): void {
    if (phase === 'profiling') this.network.onProfilingStart();
  }

  /** The network RTT the probes measured (they stop here). */
  async summaryEnd(): Promise<SummaryEnd> {
    return { network_rtt_ns: (await this.metricOptions()).network_rtt_ns ?? null };
  }

  finish(run: RunFinish): OutputReport {
    return { section: this.report(run.summary) };
  }

  /** What the summary needs from the start (thresholds, SLOs, convention): all but the network RTT. */
  startOptions(): MetricOptions {
    const m = this.cfg.metrics;
    return {
      usage_discrepancy_threshold_pct: m.usage_discrepancy_threshold_pct,
      osl_mismatch_pct_threshold: m.osl_mismatch_pct_threshold,
      osl_mismatch_max_token_threshold: m.osl_mismatch_max_token_threshold,
      goodput: resolveSlos(m.goodput, defaultRegistry()),
      convention: this.cfg.statistics.convention,
      confidence: this.cfg.statistics.confidence,
    };
  }

  /** Stops the probes (once) and returns the options with the network RTT they measured. */
  private async metricOptions(): Promise<MetricOptions> {
    if (this.options) return this.options;
    const { rtt_ns, info } = await this.network.finish(this.log);
    this.networkInfo = info;
    this.options = { ...this.startOptions(), network_rtt_ns: rtt_ns };
    return this.options;
  }

  /** End-of-run warnings; returns the extra top-level fields for profile_export.json. */
  report(summary: MetricsSummary): Record<string, unknown> {
    const usage = usageDiscrepancyWarning(summary, this.options ?? {});
    if (usage) warn(usage);
    const osl = oslMismatchWarning(summary, this.options ?? {}, this.cfg.extra_inputs);
    if (osl) warn(osl);
    return this.networkInfo ? { network_latency: this.networkInfo } : {};
  }
}

// The run summary: what the summarizer produces and every exporter reads.
// All values are in BASE units (ns, tokens, ...); display conversion happens only at export.
import type { BaseUnit, ConsoleGroup, DisplayUnit } from './types.js';
import type { DistributionStats } from './stats.js';
import type { MetricHistogram } from './histogram.js';
import type { DistributionIntervals } from './confidence.js';
import type { ConventionName } from './options.js';
import type { TimeWeightedStats } from './timeline.js';

export type { DistributionStats } from './stats.js';
export type { TimeWeightedStats } from './timeline.js';

/** A run-level value. `exact` is set when the value is a bigint stamp whose number form may round. */
export interface SingleStats {
  avg: number;
  exact?: bigint;
}

interface MetricResultBase {
  tag: string;
  header: string;
  unit: BaseUnit;
  display: DisplayUnit;
  group: ConsoleGroup;
  flags: number;
}

export interface DistributionResult extends MetricResultBase {
  kind: 'distribution';
  stats: DistributionStats;
  /**
   * Confidence intervals (metrics/core/confidence.ts), base units: absent when --confidence none (or a
   * hand-built result), null for a metric that takes none (token-weighted, per-chunk, rates).
   */
  intervals?: DistributionIntervals | null;
}

export interface SingleResult extends MetricResultBase {
  kind: 'single';
  stats: SingleStats;
}

export interface TimeWeightedResult extends MetricResultBase {
  kind: 'time_weighted';
  stats: TimeWeightedStats;
}

export type MetricResult = DistributionResult | SingleResult | TimeWeightedResult;

/** Request outcomes over the profiling phase; issued = succeeded + errored + cancelled. */
export interface RequestCounts {
  issued: number;
  succeeded: number;
  errored: number;
  cancelled: number;
}

export interface MetricsSummary {
  /** Only metrics that have a value, in the catalogue's display order. */
  metrics: MetricResult[];
  counts: RequestCounts;
  /** The HDR histogram precision every distribution was computed at (set by summarize). */
  histogram_significant_digits?: number;
  /** The per-tag histograms behind the distributions (histograms.json); absent in hand-built summaries. */
  histograms?: ReadonlyMap<string, MetricHistogram>;
  /** Speculative decoding: verify steps by accepted-draft count {j: steps}, pooled over the run (absent when none). */
  pooled_spec_decode_acceptance_histogram?: Record<string, number>;
  /** The level of the distributions' intervals; null: --confidence none; absent in hand-built summaries. */
  confidence_level?: number | null;
  /** Whether the profiling requests had an arrival schedule (rate, replay): GuideLLM's schedule delays apply. */
  arrival_schedule?: boolean;
  /** --convention all: every differing metric under each tool's definition (metrics/convention-summary.ts). */
  conventions?: ConventionComparison;
}

export function findMetric(summary: MetricsSummary, tag: string): MetricResult | undefined {
  return summary.metrics.find((m) => m.tag === tag);
}

/** `--convention all`: each compared metric under every tool's definitions (../convention-summary.ts). */
export interface ConventionComparisonRow {
  tag: string;
  header: string;
  unit: BaseUnit;
  display: DisplayUnit;
  /** The metric under each tool's definition; null when the tool does not define it or it had no value. */
  values: Record<ConventionName, MetricResult | null>;
}

export interface ConventionComparison {
  tools: readonly ConventionName[];
  rows: ConventionComparisonRow[];
}

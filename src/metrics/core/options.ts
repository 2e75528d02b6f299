// Run settings that aggregate and derived metrics read (RunMetricInput.options). Every field is
// optional: a missing one takes AIPerf's default, so summaries of hand-built records need none.

// The tools whose metric definitions --convention picks (their declarations: ../conventions.ts).
export const CONVENTION_NAMES = ['aiperf', 'guidellm', 'evalscope'] as const;
export type ConventionName = (typeof CONVENTION_NAMES)[number];
/** What --convention accepts: one tool's definitions, or `all` (AIPerf's plus the comparison). */
export type ConventionChoice = ConventionName | 'all';
export const CONVENTION_CHOICES: readonly ConventionChoice[] = [...CONVENTION_NAMES, 'all'];
export const DEFAULT_CONVENTION: ConventionChoice = 'aiperf';

/** A goodput objective resolved against the registry: threshold in the metric's BASE unit. */
export interface ResolvedSlo {
  tag: string;
  threshold: number;
  /** Met when value ≥ threshold (LARGER_IS_BETTER metrics), else when value ≤ threshold. */
  largerIsBetter: boolean;
}

/**
 * GuideLLM's measurement window (GuideLLM's metrics guide,
 * https://blog.vllm.ai/guidellm/main/guides/metrics): measure_start (the
 * warmup's end) to measure_end (the cooldown's start), CLOCK_MONOTONIC ns. A null bound is open:
 * no warmup, or no cooldown.
 */
export interface MeasurementWindow {
  start_ns: bigint | null;
  end_ns: bigint | null;
}

export interface MetricOptions {
  /** A record counts as a usage discrepancy when any usage diff % exceeds this (default 10). */
  usage_discrepancy_threshold_pct?: number;
  /** OSL mismatch threshold: min(requested · pct / 100, max tokens) (defaults 5 % and 50). */
  osl_mismatch_pct_threshold?: number;
  osl_mismatch_max_token_threshold?: number;
  /** Goodput SLOs; empty or absent: the goodput metrics have no value. */
  goodput?: readonly ResolvedSlo[];
  /** Mean network RTT to subtract from request-start-anchored latencies, ns; null/absent: no adjustment. */
  network_rtt_ns?: number | null;
  /** --convention: whose definitions the registry uses (absent: AIPerf's); `all` adds the comparison. */
  convention?: ConventionChoice;
  /** --confidence: the level of the distributions' intervals; null: none; absent: 0.95. */
  confidence?: number | null;
  /** The run's measurement window, when it had a warmup or a cooldown (event-level metrics read it). */
  measurement_window?: MeasurementWindow | null;
}

export const METRIC_OPTION_DEFAULTS = {
  usage_discrepancy_threshold_pct: 10,
  osl_mismatch_pct_threshold: 5,
  osl_mismatch_max_token_threshold: 50,
} as const;

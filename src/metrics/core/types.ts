// The shape of a metric declaration. Families live one per file; registry.ts collects them.
import type { MetricHistogram } from './histogram.js';
import type { MetricRecord, MetricValue, ProcessedRecord } from '../../model/processed-record.js';
import type { GpuEnergyInput } from './energy-input.js';
import type { MetricOptions } from './options.js';
import type { TimelineRow } from './timeline.js';
import type { BaseUnit, DisplayUnit } from './units.js';

export type { BaseUnit, DisplayUnit } from './units.js';

/** Flags, as bits (combine with |). */
export const MetricFlag = {
  NONE: 0,
  STREAMING_ONLY: 1 << 0,
  PRODUCES_TOKENS_ONLY: 1 << 1,
  LARGER_IS_BETTER: 1 << 2,
  /** Exported but not shown in the console tables. */
  NO_CONSOLE: 1 << 3,
  /** Computed over error records rather than successful ones. */
  ERROR_ONLY: 1 << 4,
  SUPPORTS_REASONING: 1 << 5,
  /** Only computed when --goodput SLOs are configured. */
  GOODPUT: 1 << 6,
  /** Only computed when the transport recorded an HTTP trace. */
  HTTP_TRACE_ONLY: 1 << 7,
  /** Only computed when the server reported usage to compare with the client's counts. */
  USAGE_DIFF_ONLY: 1 << 8,
  /**
   * A per-token figure whose mean GuideLLM weights by output tokens (ITL, time per output token):
   * not one observation per request, so no confidence intervals (metrics/core/confidence.ts).
   */
  TOKEN_WEIGHTED: 1 << 9,
  /** Several values per request (one per chunk gap): no confidence intervals either. */
  PER_CHUNK: 1 << 10,
} as const;

/** Console tables, in display order. Later families add groups after DEFAULT's predecessors. */
export type ConsoleGroup =
  | 'effective'
  | 'active'
  | 'usage'
  | 'cache'
  | 'prediction'
  | 'audio'
  | 'reasoning'
  | 'default'
  | 'spec_decode'
  /** Shown only with --show-trace-timing. */
  | 'http_trace'
  | 'gpu_power_nvidia'
  | 'gpu_power_amd'
  | 'none';

interface MetricBase {
  tag: string;
  header: string;
  unit: BaseUnit;
  display: DisplayUnit;
  flags: number;
  group: ConsoleGroup;
  /** Tags this metric reads; they are computed first. */
  requires: string[];
}

/** Computed once per record; yields a distribution over records. */
export interface RecordMetricDef extends MetricBase {
  kind: 'record';
  /** Return undefined when the metric cannot be computed for this record ("no value", never 0). */
  compute(record: MetricRecord, values: ReadonlyMap<string, MetricValue>): MetricValue | undefined;
  /**
   * How many observations the record's (scalar) value stands for in the distribution, from the
   * record's metric values (GuideLLM weighs ITL and TPOT by tokens); absent or undefined: 1.
   */
  weight?(values: ReadonlyMap<string, MetricValue>): number | undefined;
  /**
   * An event-level metric under a measurement window (MetricOptions.measurement_window): the span
   * of the events it times; the value counts in the run's distribution when the span overlaps the
   * window (null: it never counts). Absent, or no window: it counts. The record keeps its value
   * either way (records.jsonl). A span, not a test, so a run can hold two stamps per record until
   * its window is known.
   */
  windowSpan?(record: ProcessedRecord): readonly [bigint, bigint] | null;
}

/**
 * A run metric's per-record step: every profiling record is added once, as it finishes, and the
 * run keeps no records; the metric's compute() reads the state back (RunMetricInput.folds). Its
 * memory per record is none, or a few numbers where the answer needs them (a sorted lag list).
 */
export interface RecordFold {
  add(record: ProcessedRecord): void;
}

/**
 * How a run metric's fold is made: once per run with the run's options (thresholds, SLOs; not the
 * network RTT or the window, known only at the end). Metrics that read the same state share a
 * spec (the same `key`), so it is made and fed once.
 */
export interface FoldSpec<F extends RecordFold = RecordFold> {
  key: string;
  create(options: MetricOptions): F;
}

/** Run-level inputs for aggregate and derived metrics. */
export interface RunMetricInput {
  /** Per-tag HDR histograms of the same values, with exact count/sum/mean/min/max/std; tags without values are absent. */
  histograms: ReadonlyMap<string, MetricHistogram>;
  /** Counts over profiling-phase records. */
  succeeded: number;
  errored: number;
  cancelled: number;
  /** min(start_ns) over profiling records that completed (ok or error). */
  min_start_ns: bigint | null;
  /** max(start_ns + request_latency) over successful profiling records with a latency (core/latency-end.ts). */
  max_response_ns: bigint | null;
  /** The run metrics' folds by FoldSpec key, each fed every profiling record (every status). */
  folds: ReadonlyMap<string, RecordFold>;
  /** Run settings the aggregates need (thresholds, SLOs, network RTT); absent means defaults. */
  options?: MetricOptions;
  /** GPU energy joined from telemetry over the profiling window (src/telemetry/join.ts); absent without --gpu-telemetry. */
  gpu_energy?: GpuEnergyInput;
}

/**
 * A run-level value. bigint only for absolute CLOCK_MONOTONIC stamps (min/max timestamps), which
 * can exceed 2^53 ns on a host with months of uptime and must be exported exactly.
 */
export type RunValue = number | bigint;

/** Computed once per run; yields a single value. */
export interface RunMetricDef extends MetricBase {
  kind: 'aggregate' | 'derived';
  /** `values` holds the run metrics computed so far (every run tag in `requires` has a value). */
  compute(run: RunMetricInput, values: ReadonlyMap<string, RunValue>): RunValue | undefined;
  /** For a metric that tests each record (goodput, mismatch counts): its per-record state. */
  fold?: FoldSpec;
}

/**
 * Computed once per run by the native sweep over the records' timestamps (src/metrics/core/timeweighted.ts);
 * yields time-weighted stats. `requires` names record metrics that some successful record must have.
 */
export interface TimeWeightedMetricDef extends MetricBase {
  kind: 'time_weighted';
  /** The step function it reports. */
  row: TimelineRow;
}

export type MetricDef = RecordMetricDef | RunMetricDef | TimeWeightedMetricDef;

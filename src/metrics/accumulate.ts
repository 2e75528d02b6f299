// The run summary, built a record at a time: each profiling record is added once, as it finishes,
// and leaves behind only histogram counts, the run metrics' folds and the sweep-line columns (five
// numbers per successful request), so a run holds no records for its summary. summarize() (at
// the end) feeds a list through the same path, so `analyze` rebuilds exactly what a run wrote.
import type { MetricValue, ProcessedRecord } from '../model/processed-record.js';
import { warnOnce } from '../warnings.js';
import { defaultRegistry } from './catalogue.js';
import type { MetricRegistry } from './core/registry.js';
import { histogramStats } from './core/stats.js';
import { DEFAULT_SIGNIFICANT_DIGITS, MetricHistogram, checkSignificantDigits } from './core/histogram.js';
import { forEachRecordValue } from './core/record-values.js';
import type { GpuEnergyInput } from './core/energy-input.js';
import type { DistributionResult, MetricResult, MetricsSummary } from './core/summary.js';
import { MetricFlag, type MetricDef, type RecordFold, type RecordMetricDef, type RunMetricInput, type RunValue } from './core/types.js';
import type { MeasurementWindow, MetricOptions } from './core/options.js';
import { finishSummary } from './summary-extras.js';
import { TimeWeightedIntake } from './core/timeweighted.js';
import { latencyEndNs } from './core/latency-end.js';
import { DEFAULT_CONFIDENCE, distributionIntervals, intervalsApply } from './core/confidence.js';
import { CONVENTION_NAMES, comparisonRegistry, registryFor, type ConventionName } from './conventions.js';
import { compareConventions, conventionMetrics } from './convention-summary.js';
import { overlapsWindow } from './families/guidellm-window.js';
import { AcceptancePool } from './families/spec-decode.js';

export interface SummarizeOptions {
  registry?: MetricRegistry;
  /** HDR histogram precision for every distribution, 1–5 (default 3: percentiles within 0.1 %). */
  significantDigits?: number;
  /** Thresholds, goodput SLOs and network RTT for the aggregates (defaults when absent). */
  metricOptions?: MetricOptions;
  /** GPU energy over the profiling window, for the GPU power efficiency metrics. */
  gpuEnergy?: GpuEnergyInput;
}

/** What only the run's end knows; each, when given, takes the place of the constructor's. */
export interface SummaryEnd {
  network_rtt_ns?: number | null;
  measurement_window?: MeasurementWindow | null;
  gpuEnergy?: GpuEnergyInput;
}

/** An event-level value held until the window is known: the value, its weight and its span. */
interface WindowedValue {
  value: MetricValue;
  weight: number | undefined;
  span: readonly [bigint, bigint] | null;
}

export class SummaryAccumulator {
  private readonly registry: MetricRegistry;
  private readonly digits: number;
  private readonly options: MetricOptions;
  private readonly defs: Map<string, RecordMetricDef>;
  private readonly errorOnly: Set<string>;
  private readonly histograms = new Map<string, MetricHistogram>();
  private readonly windowed = new Map<string, WindowedValue[]>();
  private readonly folds = new Map<string, RecordFold>();
  private readonly timeWeighted = new TimeWeightedIntake();
  private readonly pool = new AcceptancePool();
  /** --convention all: the same records under each tool's comparison registry. */
  private readonly conventions: Map<ConventionName, SummaryAccumulator> | null = null;
  private issued = 0;
  private succeeded = 0;
  private errored = 0;
  private cancelled = 0;
  private minStart: bigint | null = null;
  private maxResponse: bigint | null = null;
  private scheduled = false;

  constructor(private readonly opts: SummarizeOptions = {}) {
    this.options = opts.metricOptions ?? {};
    // --convention picks the registry (conventions.ts); an explicit one wins.
    const convention = this.options.convention;
    this.registry = opts.registry ?? (convention === undefined ? defaultRegistry() : registryFor(convention));
    this.digits = checkSignificantDigits(opts.significantDigits ?? DEFAULT_SIGNIFICANT_DIGITS, 'histogram significant digits');
    this.defs = new Map(this.registry.recordMetrics().map((d) => [d.tag, d]));
    this.errorOnly = new Set(
      this.registry
        .recordMetrics()
        .filter((d) => (d.flags & MetricFlag.ERROR_ONLY) !== 0)
        .map((d) => d.tag),
    );
    for (const def of this.registry.runMetrics()) {
      if (def.fold && !this.folds.has(def.fold.key)) this.folds.set(def.fold.key, def.fold.create(this.options));
    }
    if (convention === 'all') {
      // Each tool's definitions side by side, without the network shift or intervals of the main summary.
      this.conventions = new Map(
        CONVENTION_NAMES.map((name) => [
          name,
          new SummaryAccumulator({
            registry: comparisonRegistry(name),
            significantDigits: this.digits,
            metricOptions: { ...this.options, convention: name, confidence: null, network_rtt_ns: null },
          }),
        ]),
      );
    }
  }

  /** Adds one finished record; records of other phases than profiling are left out. */
  add(r: ProcessedRecord): void {
    if (r.raw.credit.phase !== 'profiling') return;
    this.issued++;
    if (r.raw.credit.targeted_start_ns !== null) this.scheduled = true;
    for (const f of this.folds.values()) f.add(r);
    this.timeWeighted.add(r);
    this.pool.add(r);
    if (this.conventions) {
      for (const [name, acc] of this.conventions) acc.add(name === 'aiperf' ? r : { ...r, metrics: conventionMetrics(r, name, 'aiperf') });
    }
    // The processed status, not the transport's: parsing can turn an 'ok' response into an error.
    const status = r.status;
    if (status === 'cancelled') {
      this.cancelled++;
      return;
    }
    // The reference's window: min(start) over the requests sent (ok or error), and
    // max(start + request_latency) over those with a latency, i.e. the successful ones.
    if (this.minStart === null || r.raw.start_ns < this.minStart) this.minStart = r.raw.start_ns;
    const end = latencyEndNs(r);
    if (end !== null && (this.maxResponse === null || end > this.maxResponse)) this.maxResponse = end;
    if (status === 'error') this.errored++;
    else this.succeeded++;
    forEachRecordValue(r, this.errorOnly, (tag, value) => this.addValue(tag, value, r));
  }

  /**
   * Every value of a successful record, and the ERROR_ONLY metrics of error records, into its tag's
   * histogram; an event-level metric's waits for the window, with its span.
   */
  private addValue(tag: string, value: MetricValue, r: ProcessedRecord): void {
    const def = this.defs.get(tag);
    if (!def) return;
    // A weighted declaration (a convention's token weighting) counts the value that many times.
    const weight = def.weight && typeof value === 'number' ? def.weight(r.metrics) : undefined;
    if (def.windowSpan) {
      let list = this.windowed.get(tag);
      if (!list) this.windowed.set(tag, (list = []));
      list.push({ value: typeof value === 'number' ? value : value.slice(), weight, span: def.windowSpan(r) });
      return;
    }
    this.histogramAdd(def, value, weight);
  }

  private histogramAdd(def: RecordMetricDef, value: MetricValue, weight: number | undefined): void {
    let h = this.histograms.get(def.tag);
    if (!h) {
      h = new MetricHistogram(def.unit, { significantDigits: this.digits });
      this.histograms.set(def.tag, h);
    }
    if (weight !== undefined && Number.isInteger(weight) && weight >= 0) h.addWeighted(value as number, weight);
    else if (typeof value === 'number') h.add(value);
    else for (const v of value) h.add(v);
  }

  /**
   * The summary of the records added. Distributions use the metrics already computed on each
   * successful record (the same values the records export shows); error and cancelled records are
   * counted but add no values. Run metrics follow, in dependency order; the result lists only
   * metrics with a value, in display order.
   */
  finish(end: SummaryEnd = {}): MetricsSummary {
    const options: MetricOptions = { ...this.options };
    if (end.network_rtt_ns !== undefined) options.network_rtt_ns = end.network_rtt_ns;
    if (end.measurement_window !== undefined) options.measurement_window = end.measurement_window;
    const window = options.measurement_window ?? null;
    for (const [tag, list] of this.windowed) {
      const def = this.defs.get(tag)!;
      // An event-level metric counts a record's value only when its span overlaps the window.
      for (const v of list)
        if (window === null || (v.span !== null && overlapsWindow(v.span[0], v.span[1], window))) this.histogramAdd(def, v.value, v.weight);
    }
    this.windowed.clear();
    for (const [tag, h] of this.histograms) {
      if (h.skipped > 0) {
        warnOnce(
          `histogram:${tag}`,
          `metric '${tag}': ${h.skipped} value(s) NaN, infinite or too large to record (2^62 once scaled) were left out of its distribution (warned once)`,
        );
      }
    }
    const confidence = options.confidence === undefined ? DEFAULT_CONFIDENCE : options.confidence;
    const run: RunMetricInput = {
      histograms: this.histograms,
      succeeded: this.succeeded,
      errored: this.errored,
      cancelled: this.cancelled,
      min_start_ns: this.minStart,
      max_response_ns: this.maxResponse,
      folds: this.folds,
      options,
    };
    const gpuEnergy = end.gpuEnergy ?? this.opts.gpuEnergy;
    if (gpuEnergy) run.gpu_energy = gpuEnergy;

    const results = new Map<string, MetricResult>();
    for (const def of this.registry.recordMetrics()) {
      const h = this.histograms.get(def.tag);
      const stats = h ? histogramStats(h) : undefined;
      if (!h || !stats) continue;
      const result: DistributionResult = { ...describe(def), kind: 'distribution', stats };
      // GuideLLM's intervals: none for token-weighted, per-chunk and rate metrics (confidence.ts).
      if (confidence !== null) result.intervals = intervalsApply(def) ? distributionIntervals(h, stats, confidence) : null;
      results.set(def.tag, result);
    }

    const values = new Map<string, RunValue>();
    for (const def of this.registry.runMetrics()) {
      // Run-level requirements must have values; record-level ones are read from the distributions.
      const ready = def.requires.every((tag) => this.registry.getMetric(tag)?.kind === 'record' || values.has(tag));
      if (!ready) continue;
      const v = def.compute(run, values);
      if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) continue;
      values.set(def.tag, v);
      const stats = typeof v === 'bigint' ? { avg: Number(v), exact: v } : { avg: v };
      results.set(def.tag, { ...describe(def), kind: 'single', stats });
    }
    // Effective / Active: one native sweep over the records' timestamps (src/metrics/core/timeweighted.ts).
    for (const m of this.timeWeighted.results(this.registry.timeWeightedMetrics())) results.set(m.tag, m);

    const metrics: MetricResult[] = [];
    for (const def of this.registry.declarationOrder()) {
      const m = results.get(def.tag);
      if (m) metrics.push(m);
    }
    const summary: MetricsSummary = {
      metrics,
      counts: { issued: this.issued, succeeded: this.succeeded, errored: this.errored, cancelled: this.cancelled },
      histogram_significant_digits: this.digits,
      histograms: this.histograms,
      confidence_level: confidence,
      arrival_schedule: this.scheduled,
    };
    if (this.conventions) {
      const byTool = new Map<ConventionName, MetricsSummary>();
      for (const [name, acc] of this.conventions) byTool.set(name, acc.finish({ measurement_window: window }));
      summary.conventions = compareConventions(byTool);
    }
    return finishSummary(summary, this.pool.result(), options);
  }
}

function describe(def: MetricDef) {
  return { tag: def.tag, header: def.header, unit: def.unit, display: def.display, group: def.group, flags: def.flags };
}

/** The run summary over profiling-phase records (warmup and cooldown excluded): a list through the accumulator. */
export function summarize(records: readonly ProcessedRecord[], opts: SummarizeOptions = {}): MetricsSummary {
  const acc = new SummaryAccumulator(opts);
  for (const r of records) acc.add(r);
  return acc.finish();
}

// Evaluates the registry: the run summary over the profiling phase (one record's metrics:
// record-metrics.ts). The metric functions stay pure; the gating rules live here, once.
import type { MetricValue, ProcessedRecord } from '../records/types.js';
import { warnOnce } from '../warnings.js';
import { defaultRegistry } from './catalogue.js';
import type { MetricRegistry } from './core/registry.js';
import { histogramStats } from './core/stats.js';
import { DEFAULT_SIGNIFICANT_DIGITS, MetricHistogram, checkSignificantDigits } from './core/histogram.js';
import { RecordValueLists, forEachRecordValue } from './core/record-values.js';
import type { GpuEnergyInput } from './core/energy-input.js';
import type { DistributionResult, MetricResult, MetricsSummary, RequestCounts } from './core/summary.js';
import { MetricFlag, type MetricDef, type RunMetricInput, type RunValue } from './core/types.js';
import type { MeasurementWindow, MetricOptions } from './core/options.js';
import { finishSummary } from './summary-extras.js';
import { summarizeTimeWeighted } from './core/timeweighted.js';
import { latencyEndNs } from './core/latency-end.js';
import { DEFAULT_CONFIDENCE, distributionIntervals, intervalsApply } from './core/confidence.js';
import { registryFor } from './conventions.js';
import { compareConventions } from './convention-summary.js';

export { computeRecordMetrics } from './record-metrics.js';

export interface SummarizeOptions {
  registry?: MetricRegistry;
  /** HDR histogram precision for every distribution, 1–5 (default 3: percentiles within 0.1 %). */
  significantDigits?: number;
  /** Thresholds, goodput SLOs and network RTT for the aggregates (defaults when absent). */
  metricOptions?: MetricOptions;
  /** GPU energy over the profiling window, for the GPU power efficiency metrics. */
  gpuEnergy?: GpuEnergyInput;
}

/**
 * The run summary over profiling-phase records (warmup excluded). Distributions use the metrics
 * already computed on each successful record (`record.metrics`, the same values the records export
 * shows); error and cancelled records (by the final `status`) are counted but add no values. Run metrics follow, in
 * dependency order; the result lists only metrics with a value, in display order.
 */
export function summarize(records: readonly ProcessedRecord[], opts: SummarizeOptions = {}): MetricsSummary {
  // --convention picks the registry (conventions.ts); an explicit one wins.
  const convention = opts.metricOptions?.convention;
  const registry = opts.registry ?? (convention === undefined ? defaultRegistry() : registryFor(convention));
  const confidence = opts.metricOptions?.confidence === undefined ? DEFAULT_CONFIDENCE : opts.metricOptions.confidence;
  const profiling = records.filter((r) => r.raw.credit.phase === 'profiling');
  const digits = checkSignificantDigits(opts.significantDigits ?? DEFAULT_SIGNIFICANT_DIGITS, 'histogram significant digits');
  const window = opts.metricOptions?.measurement_window ?? null;
  const run: RunMetricInput = { ...runInput(profiling, registry, digits, window), records: profiling, options: opts.metricOptions ?? {} };
  if (opts.gpuEnergy) run.gpu_energy = opts.gpuEnergy;

  const results = new Map<string, MetricResult>();
  for (const def of registry.recordMetrics()) {
    const h = run.histograms.get(def.tag);
    const stats = h ? histogramStats(h) : undefined;
    if (!h || !stats) continue;
    const result: DistributionResult = { ...describe(def), kind: 'distribution', stats };
    // GuideLLM's intervals: none for token-weighted, per-chunk and rate metrics (confidence.ts).
    if (confidence !== null) result.intervals = intervalsApply(def) ? distributionIntervals(h, stats, confidence) : null;
    results.set(def.tag, result);
  }

  const values = new Map<string, RunValue>();
  for (const def of registry.runMetrics()) {
    // Run-level requirements must have values; record-level ones are read from the distributions.
    const ready = def.requires.every((tag) => registry.getMetric(tag)?.kind === 'record' || values.has(tag));
    if (!ready) continue;
    const v = def.compute(run, values);
    if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) continue;
    values.set(def.tag, v);
    const stats = typeof v === 'bigint' ? { avg: Number(v), exact: v } : { avg: v };
    results.set(def.tag, { ...describe(def), kind: 'single', stats });
  }
  // Effective / Active: one native sweep over the records' timestamps (src/metrics/core/timeweighted.ts).
  for (const m of summarizeTimeWeighted(profiling, registry.timeWeightedMetrics())) results.set(m.tag, m);

  const metrics: MetricResult[] = [];
  for (const def of registry.declarationOrder()) {
    const m = results.get(def.tag);
    if (m) metrics.push(m);
  }
  const counts: RequestCounts = {
    issued: profiling.length,
    succeeded: run.succeeded,
    errored: run.errored,
    cancelled: run.cancelled,
  };
  const summary: MetricsSummary = {
    metrics,
    counts,
    histogram_significant_digits: digits,
    histograms: run.histograms,
    confidence_level: confidence,
    arrival_schedule: profiling.some((r) => r.raw.credit.targeted_start_ns !== null),
  };
  if (convention === 'all') {
    // Each tool's definitions side by side, without the network shift or intervals of the main summary.
    summary.conventions = compareConventions(profiling, 'aiperf', (recs, reg, name) =>
      summarize(recs, {
        registry: reg,
        significantDigits: digits,
        metricOptions: { ...opts.metricOptions, convention: name, confidence: null, network_rtt_ns: null },
      }),
    );
  }
  return finishSummary(summary, profiling, opts.metricOptions ?? {});
}

function describe(def: MetricDef) {
  return { tag: def.tag, header: def.header, unit: def.unit, display: def.display, group: def.group, flags: def.flags };
}

/**
 * Counts, the run window, and one histogram per record metric that has values: every value of a
 * successful record, and the ERROR_ONLY metrics of error records (record-values.ts). The raw
 * value lists are only built for a run metric that asks for one (`distributions`).
 */
function runInput(
  profiling: readonly ProcessedRecord[],
  registry: MetricRegistry,
  significantDigits: number,
  window: MeasurementWindow | null,
): RunMetricInput {
  const defs = new Map(registry.recordMetrics().map((d) => [d.tag, d]));
  const errorOnly = new Set(
    registry
      .recordMetrics()
      .filter((d) => (d.flags & MetricFlag.ERROR_ONLY) !== 0)
      .map((d) => d.tag),
  );
  const histograms = new Map<string, MetricHistogram>();
  let current: ProcessedRecord | null = null;
  const record = (tag: string, value: MetricValue): void => {
    let h = histograms.get(tag);
    const def = defs.get(tag);
    // An event-level metric counts a record's value only when its event falls in the window.
    if (window !== null && def?.inWindow && current && !def.inWindow(current, window)) return;
    if (!h) {
      if (!def) return;
      h = new MetricHistogram(def.unit, { significantDigits });
      histograms.set(tag, h);
    }
    // A weighted declaration (a convention's token weighting) counts the value that many times.
    const w = def?.weight && typeof value === 'number' && current ? def.weight(current.metrics) : undefined;
    if (w !== undefined && Number.isInteger(w) && w >= 0) h.addWeighted(value as number, w);
    else if (typeof value === 'number') h.add(value);
    else for (const v of value) h.add(v);
  };
  let succeeded = 0;
  let errored = 0;
  let cancelled = 0;
  let minStart: bigint | null = null;
  let maxResponse: bigint | null = null;
  for (const r of profiling) {
    // The processed status, not the transport's: parsing can turn an 'ok' response into an error.
    const status = r.status;
    if (status === 'cancelled') {
      cancelled++;
      continue;
    }
    // The reference's window: min(start) over the requests sent (ok or error), and
    // max(start + request_latency) over those with a latency, i.e. the successful ones.
    if (minStart === null || r.raw.start_ns < minStart) minStart = r.raw.start_ns;
    const end = latencyEndNs(r);
    if (end !== null && (maxResponse === null || end > maxResponse)) maxResponse = end;
    if (status === 'error') errored++;
    else succeeded++;
    current = r;
    forEachRecordValue(r, errorOnly, record);
  }
  for (const [tag, h] of histograms) {
    if (h.skipped > 0) {
      warnOnce(
        `histogram:${tag}`,
        `metric '${tag}': ${h.skipped} value(s) NaN, infinite or too large to record (2^62 once scaled) were left out of its distribution (warned once)`,
      );
    }
  }
  const distributions = new RecordValueLists(profiling, [...defs.keys()], errorOnly);
  return { distributions, histograms, succeeded, errored, cancelled, min_start_ns: minStart, max_response_ns: maxResponse };
}

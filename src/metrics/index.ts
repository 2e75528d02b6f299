// The metrics module's public surface.
export { computeRecordMetrics, summarize, type SummarizeOptions } from './compute.js';
export { defaultRegistry, defaultMetricDefs } from './catalogue.js';
export { MetricRegistry } from './registry.js';
export { distributionStats, histogramStats, percentileSorted, PERCENTILES, type PercentileKey } from './stats.js';
export { MetricHistogram, histogramScale, type HistogramExport, type MetricHistogramOptions } from './histogram.js';
export type {
  DistributionResult,
  DistributionStats,
  MetricResult,
  MetricsSummary,
  RequestCounts,
  SingleResult,
  SingleStats,
  TimeWeightedResult,
  TimeWeightedStats,
} from './summary.js';
export { findMetric } from './summary.js';
export { sweepLine, SWEEP_ROWS, type SweepColumns, type SweepResult, type SweepRow, type SweepRowStats } from './sweep.js';
export { summarizeTimeWeighted, timeWeightedWindow } from './timeweighted.js';
export * from './types.js';

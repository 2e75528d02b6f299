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
} from './summary.js';
export { findMetric } from './summary.js';
export * from './types.js';

// The metrics module's public surface.
export { computeRecordMetrics, summarize, type SummarizeOptions } from './compute.js';
export { defaultRegistry, defaultMetricDefs } from './catalogue.js';
export { MetricRegistry } from './core/registry.js';
export { distributionStats, histogramStats, percentileSorted, PERCENTILES, type PercentileKey } from './core/stats.js';
export { MetricHistogram, histogramScale, type HistogramExport, type MetricHistogramOptions } from './core/histogram.js';
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
} from './core/summary.js';
export { findMetric } from './core/summary.js';
export {
  timeline,
  TIMELINE_ROWS,
  type TimelineColumns,
  type TimelineResult,
  type TimelineRow,
  type TimelineRowStats,
} from './core/timeline.js';
export { summarizeTimeWeighted, timeWeightedWindow } from './core/timeweighted.js';
export * from './core/types.js';

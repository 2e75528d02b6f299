// The metric catalogue: every family's declarations in display order, and the default registry.
// New families (effective/active, usage, goodput, ...) are appended here.
import { MetricRegistry } from './registry.js';
import type { MetricDef } from './types.js';
import * as s from './streaming.js';
import * as t from './tokens.js';
import * as g from './general.js';
import * as r from './reasoning.js';
import * as usage from './usage.js';
import * as discrepancy from './usage-discrepancy.js';
import * as osl from './osl-mismatch.js';
import * as spec from './spec-decode.js';
import * as goodput from './goodput.js';
import * as errors from './error-metrics.js';
import * as network from './network.js';
import * as trace from './http-trace.js';
import * as sched from './scheduling.js';
import * as guide from './guidellm.js';
import { amdEnergyMetrics, nvidiaEnergyMetrics } from './energy.js';
import * as eff from './effective.js';

/** Declaration order is display order; evaluation order is worked out by the registry. */
export const defaultMetricDefs: readonly MetricDef[] = [
  s.timeToFirstToken,
  s.timeToSecondToken,
  s.timeToFirstOutputToken,
  g.requestLatency,
  eff.effectiveLatency,
  s.decodeDuration,
  s.interTokenLatency,
  guide.timePerOutputToken,
  s.interChunkLatency,
  s.outputTokenThroughputPerUser,
  s.prefillThroughputPerUser,
  t.e2eOutputTokenThroughput,
  t.outputTokenCount,
  r.reasoningTokenCount,
  t.outputSequenceLength,
  t.inputSequenceLength,
  t.outputTokenThroughput,
  t.totalTokenThroughput,
  g.requestThroughput,
  g.requestCount,
  g.errorRequestCount,
  g.requestErrorRate,
  g.benchmarkDuration,
  t.totalOutputTokens,
  r.totalReasoningTokens,
  t.totalOutputSequenceLength,
  t.totalInputSequenceLength,
  g.minRequestTimestamp,
  g.maxResponseTimestamp,
  // The rest of AIPerf's catalogue for chat/completions (issue 4); each family keeps its own order.
  ...goodput.goodputRunMetrics,
  ...guide.guidellmRunMetrics,
  network.networkRtt,
  ...usage.usageRecordMetrics,
  ...usage.usageRunMetrics,
  ...discrepancy.usageDiscrepancyRecordMetrics,
  ...discrepancy.usageDiscrepancyRunMetrics,
  ...osl.oslMismatchRecordMetrics,
  ...osl.oslMismatchRunMetrics,
  ...spec.specDecodeRecordMetrics,
  ...spec.specDecodeRunMetrics,
  ...errors.errorRecordMetrics,
  ...errors.errorRunMetrics,
  ...trace.httpTraceRecordMetrics,
  // Scheduling (issue 5): dispatch delay, replay schedule lag, context overflow.
  ...sched.schedulingRecordMetrics,
  // GuideLLM's scheduled latency and the two parts of the dispatch delay (issue 4).
  guide.requestScheduledLatency,
  guide.turnPredecessorDelay,
  guide.turnSchedulingDelay,
  ...sched.schedulingRunMetrics,
  // GPU power efficiency (their own console sections; values only with --gpu-telemetry).
  ...nvidiaEnergyMetrics,
  ...amdEnergyMetrics,
  // Effective / Active (issue 3): run-level, time-weighted over the run window.
  ...eff.effectiveTimeWeightedMetrics,
];

// Built at module load, so a bad declaration (duplicate, unknown requirement, cycle) fails at startup.
const shared = new MetricRegistry(defaultMetricDefs);

/** The registry of the default (AIPerf) definitions. */
export function defaultRegistry(): MetricRegistry {
  return shared;
}

// The metric catalogue: every family's declarations in display order, and the default registry.
// New families (effective/active, usage, goodput, ...) are appended here.
import { MetricRegistry } from './registry.js';
import type { MetricDef } from './types.js';
import * as s from './streaming.js';
import * as t from './tokens.js';
import * as g from './general.js';
import * as r from './reasoning.js';
import * as sched from './scheduling.js';
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
  // Scheduling (issue 5): dispatch delay, replay schedule lag, context overflow.
  ...sched.schedulingRecordMetrics,
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

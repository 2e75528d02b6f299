// The metric catalogue: every family's declarations in display order, and the default registry.
// New families (effective/active, usage, goodput, ...) are appended here.
import { MetricRegistry } from './core/registry.js';
import type { MetricDef } from './core/types.js';
import { displayFactor, type DisplayUnit } from './core/units.js';
import * as s from './families/streaming.js';
import * as t from './families/tokens.js';
import * as g from './families/general.js';
import * as r from './families/reasoning.js';
import * as usage from './families/usage.js';
import * as discrepancy from './families/usage-discrepancy.js';
import * as osl from './families/osl-mismatch.js';
import * as spec from './families/spec-decode.js';
import * as goodput from './families/goodput.js';
import * as errors from './families/error-metrics.js';
import * as network from './families/network.js';
import * as trace from './families/http-trace.js';
import * as sched from './families/scheduling.js';
import * as guide from './families/guidellm.js';
import { amdEnergyMetrics, nvidiaEnergyMetrics } from './families/energy.js';
import * as eff from './families/effective.js';
import { theoreticalPrefixCacheHitRate } from './families/prefix-cache.js';
import { mediaRecordMetrics } from './families/media.js';
import { realtimeRecordMetrics } from './families/realtime.js';

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
  theoreticalPrefixCacheHitRate,
  ...discrepancy.usageDiscrepancyRecordMetrics,
  ...discrepancy.usageDiscrepancyRunMetrics,
  ...osl.oslMismatchRecordMetrics,
  ...osl.oslMismatchRunMetrics,
  ...spec.specDecodeRecordMetrics,
  ...spec.specDecodeRunMetrics,
  ...errors.errorRecordMetrics,
  ...errors.errorRunMetrics,
  ...trace.httpTraceRecordMetrics,
  // Image, audio and video inputs and generation (issue 16).
  ...mediaRecordMetrics,
  // Scheduling (issue 5): dispatch delay, replay schedule lag, context overflow.
  ...sched.schedulingRecordMetrics,
  // GuideLLM's scheduled latency and the two parts of the dispatch delay (issue 4).
  guide.requestScheduledLatency,
  guide.turnPredecessorDelay,
  guide.turnSchedulingDelay,
  // GuideLLM's round trips of the realtime WebSocket endpoint (values only with --endpoint-type realtime).
  ...realtimeRecordMetrics,
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

/** A metric's display unit and its factor from the base unit, by tag (for per-record exports). */
export function displayUnitOf(tag: string, registry: MetricRegistry = defaultRegistry()): { unit: DisplayUnit; scale: number } | undefined {
  const def = registry.getMetric(tag);
  return def ? { unit: def.display, scale: displayFactor(def.unit, def.display) } : undefined;
}

// The per-record half of evaluating the registry (accumulate.ts has the run summary): one record's
// metrics in dependency order, with the gating rules applied once here.
import type { MetricRecord, MetricValue } from '../model/processed-record.js';
import { defaultRegistry } from './catalogue.js';
import type { MetricRegistry } from './core/registry.js';
import { MetricFlag, type RecordMetricDef } from './core/types.js';

/**
 * The per-record metrics of one record, in dependency order. A metric is skipped ("no value") when
 * it is streaming-only and the record is not streaming; when any required tag has no value; when it
 * is error-only and the record is valid (or the reverse); or when it returns a non-finite number.
 */
export function computeRecordMetrics(r: MetricRecord, registry: MetricRegistry = defaultRegistry()): Map<string, MetricValue> {
  const out = new Map<string, MetricValue>();
  for (const step of planOf(registry)) {
    if (step.errorOnly === r.valid) continue;
    if (step.streamingOnly && !r.streaming) continue;
    let ready = true;
    for (const tag of step.def.requires) if (!out.has(tag)) ready = false;
    if (!ready) continue;
    const value = step.def.compute(r, out);
    if (isUsable(value)) out.set(step.def.tag, value);
  }
  return out;
}

interface Step {
  def: RecordMetricDef;
  errorOnly: boolean;
  streamingOnly: boolean;
}

/** A registry's record metrics in evaluation order with their gates, worked out once (a registry never changes). */
const plans = new WeakMap<MetricRegistry, Step[]>();

function planOf(registry: MetricRegistry): Step[] {
  let plan = plans.get(registry);
  if (!plan) {
    plan = registry.recordMetrics().map((def) => ({
      def,
      errorOnly: (def.flags & MetricFlag.ERROR_ONLY) !== 0,
      streamingOnly: (def.flags & MetricFlag.STREAMING_ONLY) !== 0,
    }));
    plans.set(registry, plan);
  }
  return plan;
}

function isUsable(v: MetricValue | undefined): v is MetricValue {
  if (v === undefined) return false;
  if (typeof v === 'number') return Number.isFinite(v);
  if (v.length === 0) return false;
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
  return true;
}

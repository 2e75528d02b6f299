// The per-record half of evaluating the registry (compute.ts has the run summary): one record's
// metrics in dependency order, with the gating rules applied once here.
import type { MetricRecord, MetricValue } from '../records/types.js';
import { defaultRegistry } from './catalogue.js';
import type { MetricRegistry } from './core/registry.js';
import { MetricFlag } from './core/types.js';

/**
 * The per-record metrics of one record, in dependency order. A metric is skipped ("no value") when
 * it is streaming-only and the record is not streaming; when any required tag has no value; when it
 * is error-only and the record is valid (or the reverse); or when it returns a non-finite number.
 */
export function computeRecordMetrics(r: MetricRecord, registry: MetricRegistry = defaultRegistry()): Map<string, MetricValue> {
  const out = new Map<string, MetricValue>();
  for (const def of registry.recordMetrics()) {
    const errorOnly = (def.flags & MetricFlag.ERROR_ONLY) !== 0;
    if (errorOnly === r.valid) continue;
    if ((def.flags & MetricFlag.STREAMING_ONLY) !== 0 && !r.streaming) continue;
    if (!def.requires.every((tag) => out.has(tag))) continue;
    const value = def.compute(r, out);
    if (isUsable(value)) out.set(def.tag, value);
  }
  return out;
}

function isUsable(v: MetricValue | undefined): v is MetricValue {
  if (v === undefined) return false;
  if (typeof v === 'number') return Number.isFinite(v);
  return v.length > 0 && v.every(Number.isFinite);
}

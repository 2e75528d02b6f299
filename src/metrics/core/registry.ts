// One registry of metric declarations: validates them once at load and hands out
// evaluation order (requirements first) and display order (declaration order).
import type { MetricDef, RecordMetricDef, RunMetricDef, TimeWeightedMetricDef } from './types.js';

export class MetricRegistry {
  private readonly byTag = new Map<string, MetricDef>();
  /** Declaration order; what exports show. */
  private readonly declared: MetricDef[];
  /** Topological order; what computation follows. */
  private readonly ordered: MetricDef[];

  /** Throws on a duplicate tag, an unknown or ill-kinded requirement, or a cycle: all programming errors. */
  constructor(defs: readonly MetricDef[]) {
    for (const def of defs) {
      if (this.byTag.has(def.tag)) throw new Error(`metric registry: duplicate tag '${def.tag}'`);
      this.byTag.set(def.tag, def);
    }
    for (const def of defs) {
      for (const req of def.requires) {
        const dep = this.byTag.get(req);
        if (!dep) throw new Error(`metric registry: '${def.tag}' requires unknown tag '${req}'`);
        // A per-record metric sees only its own record, so it cannot read a run-level value.
        if (def.kind === 'record' && dep.kind !== 'record') {
          throw new Error(`metric registry: record metric '${def.tag}' cannot require run metric '${req}'`);
        }
      }
    }
    this.declared = [...defs];
    this.ordered = topoSort(this.declared, this.byTag);
  }

  getMetric(tag: string): MetricDef | undefined {
    return this.byTag.get(tag);
  }

  has(tag: string): boolean {
    return this.byTag.has(tag);
  }

  /** Per-record metrics in evaluation order. */
  recordMetrics(): RecordMetricDef[] {
    return this.ordered.filter((d): d is RecordMetricDef => d.kind === 'record');
  }

  /** Aggregate and derived metrics in evaluation order. */
  runMetrics(): RunMetricDef[] {
    return this.ordered.filter((d): d is RunMetricDef => d.kind === 'aggregate' || d.kind === 'derived');
  }

  /** Time-weighted metrics (one native sweep per run) in declaration order. */
  timeWeightedMetrics(): TimeWeightedMetricDef[] {
    return this.declared.filter((d): d is TimeWeightedMetricDef => d.kind === 'time_weighted');
  }

  /** Every metric in declaration order (the order exports list them). */
  declarationOrder(): MetricDef[] {
    return [...this.declared];
  }

  /** Every tag in evaluation order. */
  allTags(): string[] {
    return this.ordered.map((d) => d.tag);
  }
}

/**
 * Kahn's algorithm; among ready metrics the earliest declared goes first, so the order is
 * deterministic and stays close to declaration order.
 */
function topoSort(defs: readonly MetricDef[], byTag: ReadonlyMap<string, MetricDef>): MetricDef[] {
  const index = new Map(defs.map((d, i) => [d.tag, i] as const));
  const pending = new Map(defs.map((d) => [d.tag, new Set(d.requires)] as const));
  const dependents = new Map<string, string[]>();
  for (const d of defs) {
    for (const req of new Set(d.requires)) {
      const list = dependents.get(req) ?? [];
      list.push(d.tag);
      dependents.set(req, list);
    }
  }
  const ready = defs.filter((d) => d.requires.length === 0).map((d) => d.tag);
  const out: MetricDef[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => index.get(a)! - index.get(b)!);
    const tag = ready.shift()!;
    out.push(byTag.get(tag)!);
    for (const dep of dependents.get(tag) ?? []) {
      const waiting = pending.get(dep)!;
      waiting.delete(tag);
      if (waiting.size === 0) ready.push(dep);
    }
  }
  if (out.length !== defs.length) {
    const stuck = defs.filter((d) => !out.includes(d)).map((d) => d.tag);
    throw new Error(`metric registry: dependency cycle among ${stuck.join(', ')}`);
  }
  return out;
}

// Conventions: each tool's definitions of the metrics whose definitions differ, as declarations.
// A convention is a set of metric declarations that replace the default ones with the same tag
// (AIPerf's, the default registry), plus any metric only that tool defines; nothing else in the
// code asks which convention is active. `--convention all` keeps AIPerf's definitions for the
// run and adds a side-by-side comparison of every metric a convention touches.
import { defaultMetricDefs, defaultRegistry } from './catalogue.js';
import * as c from './families/convention-metrics.js';
import * as w from './families/guidellm-window.js';
import { MetricRegistry } from './core/registry.js';
import type { MetricDef } from './core/types.js';
import type { ConventionChoice, ConventionName } from './core/options.js';

export { CONVENTION_NAMES, CONVENTION_CHOICES, DEFAULT_CONVENTION, type ConventionName, type ConventionChoice } from './core/options.js';

export interface Convention {
  name: ConventionName;
  /** The tool's name as people write it. */
  title: string;
  /** Declarations that replace the default one with the same tag. */
  overrides: readonly MetricDef[];
  /** Metrics only this tool defines, each shown after an existing tag. */
  additions: readonly { def: MetricDef; after: string }[];
  /** Compared tags the tool does not define at all: its column in the comparison stays empty. */
  undefinedTags: readonly string[];
}

export const CONVENTIONS: Readonly<Record<ConventionName, Convention>> = {
  aiperf: {
    name: 'aiperf',
    title: 'AIPerf',
    overrides: [],
    additions: [],
    // servebench computes GuideLLM's time per output token under every convention; AIPerf has none.
    undefinedTags: ['time_per_output_token'],
  },
  guidellm: {
    name: 'guidellm',
    title: 'GuideLLM',
    // TTFT (first token of any kind) is GuideLLM's already; TPOT's definition too, but GuideLLM
    // weighs the ITL and TPOT distributions by tokens. Its request latency runs to request_end.
    // With a warmup or cooldown, TTFT, TTFOT, ITL and the token rates follow its measurement
    // window's event rules (families/guidellm-window.ts).
    overrides: [
      c.responseEndRequestLatency,
      w.guidellmTimeToFirstToken,
      w.guidellmTimeToFirstOutputToken,
      c.guidellmInterTokenLatency,
      c.guidellmTimePerOutputToken,
      w.guidellmOutputTokenThroughput,
      w.guidellmTotalTokenThroughput,
    ],
    additions: [],
    undefinedTags: [],
  },
  evalscope: {
    name: 'evalscope',
    title: 'EvalScope',
    overrides: [
      c.responseEndRequestLatency,
      c.evalscopeTimeToFirstToken,
      c.evalscopeInterTokenLatency,
      c.evalscopeTimePerOutputToken,
      c.evalscopeOutputSequenceLength,
      c.evalscopeInputSequenceLength,
      c.evalscopeOutputTokenThroughput,
      c.evalscopeTotalTokenThroughput,
    ],
    additions: [{ def: c.evalscopeInputTokenThroughput, after: 'total_token_throughput' }],
    undefinedTags: [],
  },
};

/** The default declarations with a convention's substituted and its own inserted. */
export function conventionDefs(conv: Convention): MetricDef[] {
  const byTag = new Map(conv.overrides.map((d) => [d.tag, d] as const));
  const out: MetricDef[] = [];
  for (const d of defaultMetricDefs) {
    out.push(byTag.get(d.tag) ?? d);
    for (const a of conv.additions) if (a.after === d.tag) out.push(a.def);
  }
  return out;
}

const registries = new Map<ConventionName, MetricRegistry>();

/** The registry of a convention's definitions (`all` runs on AIPerf's). Built once each. */
export function registryFor(choice: ConventionChoice | undefined): MetricRegistry {
  const name: ConventionName = choice === undefined || choice === 'all' ? 'aiperf' : choice;
  if (name === 'aiperf') return defaultRegistry();
  let reg = registries.get(name);
  if (!reg) {
    reg = new MetricRegistry(conventionDefs(CONVENTIONS[name]));
    registries.set(name, reg);
  }
  return reg;
}

/** Every tag some convention defines differently, in display order (additions after their anchor). */
export function comparedTags(): string[] {
  const touched = new Set<string>();
  for (const conv of Object.values(CONVENTIONS)) {
    for (const d of conv.overrides) touched.add(d.tag);
    for (const a of conv.additions) touched.add(a.def.tag);
    for (const t of conv.undefinedTags) touched.add(t);
  }
  const order: string[] = [];
  for (const d of defaultMetricDefs) {
    order.push(d.tag);
    for (const conv of Object.values(CONVENTIONS)) for (const a of conv.additions) if (a.after === d.tag) order.push(a.def.tag);
  }
  return order.filter((t) => touched.has(t));
}

const comparisons = new Map<ConventionName, MetricRegistry>();

/**
 * The part of a convention's registry that the comparison needs: the compared tags it defines
 * and everything they require. Used to compute each record's metrics under the other conventions.
 */
export function comparisonRegistry(name: ConventionName): MetricRegistry {
  let reg = comparisons.get(name);
  if (reg) return reg;
  const full = registryFor(name);
  const need = new Set<string>();
  const visit = (tag: string): void => {
    if (need.has(tag)) return;
    const def = full.getMetric(tag);
    if (!def) return;
    need.add(tag);
    for (const r of def.requires) visit(r);
  };
  for (const t of comparedTags()) if (!CONVENTIONS[name].undefinedTags.includes(t)) visit(t);
  reg = new MetricRegistry(full.declarationOrder().filter((d) => need.has(d.tag)));
  comparisons.set(name, reg);
  return reg;
}

// An endpoint's scrapes read as common concepts (vendors.ts), and every other series summarized
// by its type, over one window.
import type { SeriesTable } from './series.js';
import { CONCEPTS, detectVendor, type Concept, type ConceptKind, type ConceptSource, type Vendor } from './vendors.js';
import {
  counterStats,
  gaugeStats,
  histogramGroups,
  histogramStats,
  pointsOf,
  type CounterStats,
  type GaugeStats,
  type HistogramStats,
  type Window,
} from './window.js';

export interface ConceptSummary {
  concept: string;
  header: string;
  kind: ConceptKind;
  unit: Concept['unit'];
  vendor: Vendor;
  /** The server's metric it was read from (and the denominator of a ratio). */
  metric: string;
  denominator?: string;
  gauge?: GaugeStats;
  counter?: CounterStats;
  histogram?: HistogramStats;
  /** A ratio of counters over the window, in percent. */
  value?: number;
}

function sourceIds(table: SeriesTable, s: ConceptSource): number[] {
  return table.idsOf(s.metric);
}

/** The first source of a concept this endpoint serves, read over `w`; null when none is served or it has no data. */
export function readConcept(table: SeriesTable, c: Concept, w: Window): ConceptSummary | null {
  for (const s of c.sources) {
    const base = { concept: c.id, header: c.header, kind: c.kind, unit: c.unit, vendor: s.vendor, metric: s.metric };
    if (c.kind === 'histogram') {
      const groups = histogramGroups(table, s.metric);
      if (groups.length === 0) continue;
      const h = histogramStats(table, groups, w);
      return h ? { ...base, histogram: h } : null;
    }
    const ids = sourceIds(table, s);
    if (ids.length === 0) continue;
    if (c.kind === 'gauge' || s.as === 'gauge') {
      const g = gaugeStats(pointsOf(table, ids, c.agg, s.scale ?? 1), w);
      return g ? { ...base, kind: 'gauge', gauge: g } : null;
    }
    if (c.kind === 'counter') {
      const k = counterStats(table, ids, w);
      return k ? { ...base, counter: k } : null;
    }
    const den = table.idsOf(s.denominator!);
    const num = counterStats(table, ids, w);
    const d = den.length > 0 ? counterStats(table, den, w) : null;
    if (!num || !d) return null;
    return { ...base, denominator: s.denominator, value: d.increase > 0 ? (100 * num.increase) / d.increase : undefined };
  }
  return null;
}

export function readConcepts(table: SeriesTable, w: Window): ConceptSummary[] {
  const out: ConceptSummary[] = [];
  for (const c of CONCEPTS) {
    const r = readConcept(table, c, w);
    if (r) out.push(r);
  }
  return out;
}

export function endpointVendor(table: SeriesTable): Vendor | null {
  return detectVendor([...table.meta.map((m) => m.name), ...table.families.keys()]);
}

export interface InventoryEntry {
  family: string;
  type: string;
  help: string | null;
  series: number;
}

export function inventory(table: SeriesTable): InventoryEntry[] {
  const counts = new Map<string, number>();
  for (const m of table.meta) if (!m.name.endsWith('_bucket')) counts.set(m.family, (counts.get(m.family) ?? 0) + 1);
  return [...counts].map(([family, series]) => {
    const f = table.families.get(family);
    return { family, type: f?.type ?? 'untyped', help: f?.help ?? null, series };
  });
}

export interface TypedSummaries {
  gauges: ({ series: string } & GaugeStats)[];
  counters: ({ series: string } & CounterStats)[];
  histograms: ({ family: string; labels: string } & Omit<HistogramStats, 'buckets'>)[];
}

/** Every series, known or not, summarized by its type (summary quantiles as gauges, untyped as gauges). */
export function summarizeByType(table: SeriesTable, w: Window): TypedSummaries {
  const out: TypedSummaries = { gauges: [], counters: [], histograms: [] };
  const histFamilies = new Set<string>();
  table.meta.forEach((m, id) => {
    if (m.type === 'histogram' || m.type === 'gaugehistogram') {
      histFamilies.add(m.family);
      return;
    }
    const counterLike = m.type === 'counter' || (m.type === 'summary' && (m.name.endsWith('_sum') || m.name.endsWith('_count')));
    if (counterLike) {
      if (m.name.endsWith('_created')) return;
      const k = counterStats(table, [id], w);
      if (k) out.counters.push({ series: m.key, ...k });
    } else {
      const g = gaugeStats(pointsOf(table, [id], 'sum'), w);
      if (g) out.gauges.push({ series: m.key, ...g });
    }
  });
  for (const family of histFamilies) {
    for (const g of histogramGroups(table, family)) {
      const h = histogramStats(table, [g], w);
      if (!h) continue;
      const { buckets: _buckets, ...rest } = h;
      out.histograms.push({ family, labels: g.labels, ...rest });
    }
  }
  return out;
}

// `compare`: each chosen metric's value per run (the first run is the baseline), the change in %,
// and a verdict: better / worse / within noise (noise.ts decides), or inconclusive where no test
// applies, or not comparable where a run lacks the metric. Runs of different configs are compared
// all the same; the config keys that differ are listed first.
import { InvalidFileError } from '../errors.js';
import type { RunExports } from '../export/read-run.js';
import { noiseTest, type Noise } from './noise.js';
import type { MetricChoice } from './select.js';

export type Verdict = 'better' | 'worse' | 'within noise' | 'inconclusive' | 'not comparable';

export interface CompareOptions {
  /**
   * Changes smaller than this (in %) are within noise whatever the test says: a run's own
   * intervals measure its sampling noise, not the drift between runs on one host (0 turns it off).
   */
  noiseFloorPct: number;
  /** --fail-on-regression: a worse verdict beyond this many % is a regression. */
  failOnRegressionPct: number | null;
}

export interface RunCell {
  value: number | null;
  /** Against the baseline; null for the baseline itself or a zero baseline. */
  delta_pct: number | null;
  verdict: Verdict | null;
  test: string | null;
  detail: string | null;
}

export interface MetricRow {
  metric: string;
  tag: string;
  stat: string;
  header: string;
  unit: string;
  larger_is_better: boolean;
  cells: RunCell[];
}

export interface ConfigDifference {
  key: string;
  /** Per run, JSON text of the value (absent: "—"). */
  values: string[];
}

export interface Comparison {
  runs: Array<{ label: string; dir: string; servebench_version: string | null; counts: RunExports['profile']['counts'] }>;
  config_differences: ConfigDifference[];
  rows: MetricRow[];
  noise_floor_pct: number;
  /** Rows and runs that regressed beyond --fail-on-regression (and beyond noise). */
  regressions: Array<{ metric: string; run: string; delta_pct: number }>;
}

/** The value of one statistic of a metric's export entry, or null when the run has none. */
export function statValue(run: RunExports, c: MetricChoice): { value: number; unit: string } | null {
  const e = run.profile.metrics[c.tag] as unknown as Record<string, unknown> | undefined;
  if (!e) return null;
  const key = c.stat === 'value' ? 'avg' : c.stat;
  const v = e[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) return null;
  return { value: v, unit: typeof e.unit === 'string' ? e.unit : '' };
}

/** Dotted keys of a config object; arrays and scalars as JSON text. */
export function flattenConfig(v: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) flattenConfig(x, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out.set(prefix, JSON.stringify(v));
  }
  return out;
}

/** Keys whose values always differ between runs and say nothing about them. */
const IGNORED_KEYS = new Set(['artifact_dir']);

function runFacts(run: RunExports): Map<string, string> {
  const m = flattenConfig(run.profile.config ?? {});
  // The built-in mock listens on a fresh port each run: its URL says nothing about the run.
  if (m.get('url') === 'null') m.delete('resolved_url');
  for (const k of ['servebench_version', 'transport', 'tokenizer', 'load_mode']) {
    const v = run.profile[k];
    if (v !== undefined) m.set(`(${k})`, JSON.stringify(v));
  }
  return m;
}

export function configDifferences(runs: readonly RunExports[]): ConfigDifference[] {
  const facts = runs.map(runFacts);
  const keys = new Set(facts.flatMap((f) => [...f.keys()]));
  const out: ConfigDifference[] = [];
  for (const key of keys) {
    if (IGNORED_KEYS.has(key)) continue;
    const values = facts.map((f) => f.get(key) ?? '—');
    if (values.some((v) => v !== values[0])) out.push({ key, values });
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

function verdictOf(c: MetricChoice, delta: number | null, diff: number, noise: Noise, floor: number): Verdict {
  if (delta !== null && Math.abs(delta) < floor) return 'within noise';
  if (noise.beyond === null) return diff === 0 ? 'within noise' : 'inconclusive';
  if (!noise.beyond || diff === 0) return 'within noise';
  return diff > 0 === c.largerIsBetter ? 'better' : 'worse';
}

/** Runs of different export schemas are not comparable: one line, exit 2. */
export function checkComparable(runs: readonly RunExports[]): void {
  const base = runs[0].profile.schema_version;
  const other = runs.find((r) => r.profile.schema_version !== base);
  if (other) {
    throw new InvalidFileError(
      `not comparable: ${runs[0].label} has export schema ${base}, ${other.label} has ${other.profile.schema_version}; re-export one with \`servebench analyze\``,
    );
  }
}

export function compareRuns(runs: readonly RunExports[], choices: readonly MetricChoice[], opts: CompareOptions): Comparison {
  checkComparable(runs);
  const base = runs[0];
  const regressions: Comparison['regressions'] = [];
  const rows: MetricRow[] = choices.map((c) => {
    const b = statValue(base, c);
    const cells: RunCell[] = runs.map((run, i) => {
      const v = statValue(run, c);
      if (i === 0) return { value: b?.value ?? null, delta_pct: null, verdict: null, test: null, detail: null };
      if (!b || !v) {
        const who = !b ? base.label : run.label;
        return { value: v?.value ?? null, delta_pct: null, verdict: 'not comparable', test: null, detail: `${who} has no ${c.name}` };
      }
      if (b.unit !== v.unit) {
        return { value: v.value, delta_pct: null, verdict: 'not comparable', test: null, detail: `units differ (${b.unit} vs ${v.unit})` };
      }
      const diff = v.value - b.value;
      const delta = b.value === 0 ? null : (diff / Math.abs(b.value)) * 100;
      const noise = noiseTest(base, run, c);
      const verdict = verdictOf(c, delta, diff, noise, opts.noiseFloorPct);
      const worsePct = delta === null ? null : c.largerIsBetter ? -delta : delta;
      if (verdict === 'worse' && opts.failOnRegressionPct !== null && worsePct !== null && worsePct > opts.failOnRegressionPct) {
        regressions.push({ metric: c.name, run: run.label, delta_pct: delta! });
      }
      return { value: v.value, delta_pct: delta, verdict, test: noise.test, detail: noise.detail };
    });
    const unit = b?.unit ?? runs.map((r) => statValue(r, c)?.unit).find((u) => u !== undefined) ?? c.def.display;
    return { metric: c.name, tag: c.tag, stat: c.stat, header: c.def.header, unit, larger_is_better: c.largerIsBetter, cells };
  });
  return {
    runs: runs.map((r) => ({
      label: r.label,
      dir: r.dir,
      servebench_version: typeof r.profile.servebench_version === 'string' ? r.profile.servebench_version : null,
      counts: r.profile.counts,
    })),
    config_differences: configDifferences(runs),
    rows,
    noise_floor_pct: opts.noiseFloorPct,
    regressions,
  };
}

// The flags that search for a server's capacity (its "limits" in the docs; not the size caps of
// transport/types.ts): --search max-rate|max-concurrency (run/series/search.ts walks
// the points, run/series/search-plan.ts picks them) and --stop-on-over-saturation (run/single/over-saturation.ts).
// Parsed and cross-checked here, so every conflict is one line naming the flag (exit code 2).
import { badFlag as bad } from '../errors.js';
import type { LoadConfig } from './config.js';

export type SearchKind = 'max-rate' | 'max-concurrency';
export const SEARCH_KINDS: readonly SearchKind[] = ['max-rate', 'max-concurrency'];

export interface SearchConfig {
  readonly kind: SearchKind;
  /** The first load tried: requests/s, or requests in flight. */
  readonly start: number;
  /** Stop once the bracket [last pass, first fail] is no wider than this fraction of its lower end. */
  readonly tolerance: number;
  /** At most this many runs, re-measurements included. */
  readonly max_points: number;
  /** Share of requests that must meet the --goodput SLOs (--slo-attainment-fraction). */
  readonly fraction: number;
}

export interface OverSaturationConfig {
  /** No verdict before this many seconds of the profiling phase. */
  readonly min_duration_s: number;
  /** No verdict before this many requests had a first token in the test window (and this many started). */
  readonly min_samples: number;
  /** The slopes are fitted over the last this many seconds. */
  readonly window_s: number;
  /** One-sided significance level of each slope's t-test. */
  readonly alpha: number;
}

export const SEARCH_DEFAULTS = {
  search_tolerance_pct: 5,
  search_max_points: 12,
  search_start_rate: 1,
  search_start_concurrency: 1,
  over_saturation_min_duration_s: 30,
  over_saturation_min_samples: 20,
  over_saturation_window_s: 120,
  over_saturation_alpha: 0.001,
};

export interface SearchFlags {
  search?: string;
  'search-tolerance'?: number;
  'search-max-points'?: number;
  'search-start'?: number;
  'stop-on-over-saturation'?: boolean;
  'over-saturation-min-duration'?: number;
  'over-saturation-min-samples'?: number;
  'over-saturation-window'?: number;
  'over-saturation-alpha'?: number;
}

function number(flag: string, v: unknown, ok: (n: number) => boolean, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(flag, `expected a number, got ${String(v)}`);
  if (!ok(v)) bad(flag, `${what}, got ${v}`);
  return v;
}

/** What the search needs from the rest of the flags. */
export interface SearchFlagContext {
  load: LoadConfig;
  /** --concurrency was given (one value). */
  concurrencyGiven: boolean;
  goodputSlos: number;
  numProfileRuns: number;
}

export function parseSearchFlags(f: SearchFlags, ctx: SearchFlagContext): SearchConfig | null {
  const searchOnly = ['search-tolerance', 'search-max-points', 'search-start'] as const;
  if (f.search === undefined) {
    for (const k of searchOnly) if (f[k] !== undefined) bad(k, 'needs --search max-rate|max-concurrency');
    return null;
  }
  if (!SEARCH_KINDS.includes(f.search as SearchKind))
    bad('search', `expected one of ${SEARCH_KINDS.join(', ')}, got ${JSON.stringify(f.search)}`);
  const kind = f.search as SearchKind;
  const l = ctx.load;
  if (ctx.goodputSlos === 0) bad('search', 'needs --goodput (the SLOs a load must meet)');
  if (l.slo_attainment_fraction === null) bad('search', 'needs --slo-attainment-fraction (the share of requests that must meet the SLOs)');
  if (l.sweep !== null) bad('search', 'picks its own points; it cannot be combined with a sweep (--profile sweep or a list of values)');
  if (l.sweep_stop_on_slo) bad('sweep-stop-on-slo', 'cannot be combined with --search');
  if (l.fixed_schedule === true) bad('search', 'cannot be combined with --fixed-schedule');
  if (l.request_rate !== null)
    bad('request-rate', `cannot be combined with --search ${kind} (the search picks the ${kind === 'max-rate' ? 'rates' : 'load'})`);
  if (kind === 'max-concurrency' && ctx.concurrencyGiven)
    bad('concurrency', 'cannot be combined with --search max-concurrency (the search picks it)');
  if (ctx.numProfileRuns > 1) bad('num-profile-runs', 'cannot be combined with --search');
  const tolPct =
    f['search-tolerance'] === undefined
      ? SEARCH_DEFAULTS.search_tolerance_pct
      : number('search-tolerance', f['search-tolerance'], (n) => n > 0 && n <= 100, 'must be a percentage in (0, 100]');
  const maxPoints =
    f['search-max-points'] === undefined
      ? SEARCH_DEFAULTS.search_max_points
      : number(
          'search-max-points',
          f['search-max-points'],
          (n) => Number.isInteger(n) && n >= 2 && n <= 1000,
          'must be an integer from 2 to 1000',
        );
  const dflt = kind === 'max-rate' ? SEARCH_DEFAULTS.search_start_rate : SEARCH_DEFAULTS.search_start_concurrency;
  const start =
    f['search-start'] === undefined
      ? dflt
      : kind === 'max-rate'
        ? number('search-start', f['search-start'], (n) => n > 0, 'must be a rate greater than 0')
        : number('search-start', f['search-start'], (n) => Number.isInteger(n) && n >= 1, 'must be an integer concurrency of at least 1');
  return Object.freeze({ kind, start, tolerance: tolPct / 100, max_points: maxPoints, fraction: l.slo_attainment_fraction });
}

export function parseOverSaturationFlags(f: SearchFlags): OverSaturationConfig | null {
  const only = ['over-saturation-min-duration', 'over-saturation-min-samples', 'over-saturation-window', 'over-saturation-alpha'] as const;
  if (f['stop-on-over-saturation'] !== true) {
    for (const k of only) if (f[k] !== undefined) bad(k, 'needs --stop-on-over-saturation');
    return null;
  }
  const d = SEARCH_DEFAULTS;
  const min_duration_s =
    f['over-saturation-min-duration'] === undefined
      ? d.over_saturation_min_duration_s
      : number('over-saturation-min-duration', f['over-saturation-min-duration'], (n) => n > 0, 'must be greater than 0 seconds');
  const min_samples =
    f['over-saturation-min-samples'] === undefined
      ? d.over_saturation_min_samples
      : number(
          'over-saturation-min-samples',
          f['over-saturation-min-samples'],
          (n) => Number.isInteger(n) && n >= 5,
          'must be an integer of at least 5',
        );
  const window_s =
    f['over-saturation-window'] === undefined
      ? Math.max(d.over_saturation_window_s, min_duration_s)
      : number('over-saturation-window', f['over-saturation-window'], (n) => n > 0, 'must be greater than 0 seconds');
  const alpha =
    f['over-saturation-alpha'] === undefined
      ? d.over_saturation_alpha
      : number('over-saturation-alpha', f['over-saturation-alpha'], (n) => n > 0 && n < 0.5, 'must be in (0, 0.5)');
  return Object.freeze({ min_duration_s, min_samples, window_s, alpha });
}

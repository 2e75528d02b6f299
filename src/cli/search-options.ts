// The flags that search for a server's capacity (parsed by load/search-flags.ts): --search and the over-saturation stop.
import type { Options } from 'yargs';
import { SEARCH_DEFAULTS } from '../load/search-flags.js';

const G_SEARCH = 'Search for the maximum load (see docs/load.md):';
const d = SEARCH_DEFAULTS;

export const searchOptions: Record<string, Options> = {
  search: {
    type: 'string',
    group: G_SEARCH,
    describe:
      'max-rate | max-concurrency: the largest load whose good-request fraction (--goodput) reaches --slo-attainment-fraction; doubles, then bisects',
  },
  'search-tolerance': {
    type: 'number',
    group: G_SEARCH,
    describe: `stop once the last passing and first failing loads are within this many % of each other (default ${d.search_tolerance_pct})`,
  },
  'search-max-points': {
    type: 'number',
    group: G_SEARCH,
    describe: `at most this many runs, re-measurements included (default ${d.search_max_points})`,
  },
  'search-start': {
    type: 'number',
    group: G_SEARCH,
    describe: `the first load tried: req/s or concurrency (default ${d.search_start_rate})`,
  },
  'stop-on-over-saturation': {
    type: 'boolean',
    group: G_SEARCH,
    describe:
      'end a run (a sweep or search point) once concurrency and TTFT both trend up significantly (one-sided t-tests on their slopes)',
  },
  'over-saturation-min-duration': {
    type: 'number',
    group: G_SEARCH,
    describe: `no over-saturation verdict before this many seconds of profiling (default ${d.over_saturation_min_duration_s})`,
  },
  'over-saturation-min-samples': {
    type: 'number',
    group: G_SEARCH,
    describe: `… nor before this many requests started and had their first token in the window (default ${d.over_saturation_min_samples})`,
  },
  'over-saturation-window': {
    type: 'number',
    group: G_SEARCH,
    describe: `fit the slopes over the last this many seconds (default ${d.over_saturation_window_s})`,
  },
  'over-saturation-alpha': {
    type: 'number',
    group: G_SEARCH,
    describe: `significance level of each one-sided slope test (default ${d.over_saturation_alpha})`,
  },
};

// --search and --stop-on-over-saturation flags: what they become, and each bad use as one line naming the flag.
import { describe, expect, it } from 'vitest';
import { buildRunConfig, type ProfileFlags } from '../../../src/config/validate.js';
import { InvalidArgumentError } from '../../../src/errors.js';

const slo: ProfileFlags = { goodput: ['time_to_first_token:200'], 'slo-attainment-fraction': 0.99 };

describe('--search flags', () => {
  it('defaults and given values', () => {
    expect(buildRunConfig({ ...slo, search: 'max-rate' }, {}).search).toEqual({
      kind: 'max-rate',
      start: 1,
      tolerance: 0.05,
      max_points: 12,
      fraction: 0.99,
    });
    const c = buildRunConfig({ ...slo, search: 'max-concurrency', 'search-start': 4, 'search-tolerance': 10, 'search-max-points': 6 }, {});
    expect(c.search).toEqual({ kind: 'max-concurrency', start: 4, tolerance: 0.1, max_points: 6, fraction: 0.99 });
    // --arrival-pattern is a rate flag, and a max-rate search drives the rate.
    expect(buildRunConfig({ ...slo, search: 'max-rate', 'arrival-pattern': 'constant' }, {}).load.arrival_pattern).toBe('constant');
    expect(buildRunConfig({}, {}).search).toBeNull();
  });

  it.each<[ProfileFlags, string]>([
    [{ search: 'max-rate', 'slo-attainment-fraction': 0.9 }, '--search: needs --goodput'],
    [{ search: 'max-rate', goodput: ['time_to_first_token:200'] }, '--search: needs --slo-attainment-fraction'],
    [{ ...slo, search: 'fastest' }, '--search: expected one of max-rate, max-concurrency, got "fastest"'],
    [{ ...slo, search: 'max-rate', 'request-rate': '10' }, '--request-rate: cannot be combined with --search max-rate'],
    [{ ...slo, search: 'max-concurrency', concurrency: '4' }, '--concurrency: cannot be combined with --search max-concurrency'],
    [{ ...slo, search: 'max-rate', profile: 'sweep' }, '--search: picks its own points'],
    [{ ...slo, search: 'max-rate', 'num-profile-runs': 3 }, '--num-profile-runs: cannot be combined with --search'],
    [{ ...slo, search: 'max-rate', 'search-tolerance': 0 }, '--search-tolerance: must be a percentage in (0, 100], got 0'],
    [{ ...slo, search: 'max-rate', 'search-max-points': 1 }, '--search-max-points: must be an integer from 2 to 1000, got 1'],
    [{ ...slo, search: 'max-concurrency', 'search-start': 1.5 }, '--search-start: must be an integer concurrency of at least 1, got 1.5'],
    [{ 'search-max-points': 5 }, '--search-max-points: needs --search'],
  ])('%j → %s', (flags, msg) => {
    expect(() => buildRunConfig(flags, {})).toThrow(InvalidArgumentError);
    expect(() => buildRunConfig(flags, {})).toThrow(msg);
  });
});

describe('--stop-on-over-saturation flags', () => {
  it('defaults and given values', () => {
    expect(buildRunConfig({ 'stop-on-over-saturation': true }, {}).over_saturation).toEqual({
      min_duration_s: 30,
      min_samples: 20,
      window_s: 120,
      alpha: 0.001,
    });
    const c = buildRunConfig(
      {
        'stop-on-over-saturation': true,
        'over-saturation-min-duration': 5,
        'over-saturation-min-samples': 50,
        'over-saturation-window': 60,
        'over-saturation-alpha': 0.01,
      },
      {},
    );
    expect(c.over_saturation).toEqual({ min_duration_s: 5, min_samples: 50, window_s: 60, alpha: 0.01 });
    expect(buildRunConfig({}, {}).over_saturation).toBeNull();
  });

  it.each<[ProfileFlags, string]>([
    [{ 'over-saturation-alpha': 0.01 }, '--over-saturation-alpha: needs --stop-on-over-saturation'],
    [{ 'stop-on-over-saturation': true, 'over-saturation-alpha': 0.7 }, '--over-saturation-alpha: must be in (0, 0.5), got 0.7'],
    [
      { 'stop-on-over-saturation': true, 'over-saturation-min-samples': 2 },
      '--over-saturation-min-samples: must be an integer of at least 5',
    ],
    [{ 'stop-on-over-saturation': true, 'over-saturation-min-duration': Number.NaN }, '--over-saturation-min-duration: expected a number'],
  ])('%j → %s', (flags, msg) => {
    expect(() => buildRunConfig(flags, {})).toThrow(msg);
  });
});

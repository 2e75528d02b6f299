// --confidence, --convention, --num-profile-runs and --profile-run-cooldown-seconds in the run config.
import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { InvalidArgumentError } from '../../../src/errors.js';

function fails(flags: Parameters<typeof buildRunConfig>[0]): string {
  try {
    buildRunConfig(flags, {});
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('expected an InvalidArgumentError');
}

describe('statistics settings', () => {
  it('defaults: 95 % intervals, AIPerf definitions, one run', () => {
    expect(buildRunConfig({}, {}).statistics).toEqual({
      confidence: 0.95,
      convention: 'aiperf',
      num_profile_runs: 1,
      profile_run_cooldown_s: 0,
    });
  });
  it('takes the flags', () => {
    const s = buildRunConfig(
      { confidence: '0.99', convention: 'evalscope', 'num-profile-runs': 10, 'profile-run-cooldown-seconds': 2.5 },
      {},
    ).statistics;
    expect(s).toEqual({ confidence: 0.99, convention: 'evalscope', num_profile_runs: 10, profile_run_cooldown_s: 2.5 });
    expect(buildRunConfig({ confidence: 'none' }, {}).statistics.confidence).toBeNull();
    expect(buildRunConfig({ convention: 'all' }, {}).statistics.convention).toBe('all');
  });
  it('refuses a confidence outside (0, 1) that is not none', () => {
    for (const c of ['0', '1', '2', '-0.5', 'high']) expect(fails({ confidence: c })).toMatch(/^--confidence: /);
  });
  it('refuses --num-profile-runs 0, 11, or a fraction', () => {
    expect(fails({ 'num-profile-runs': 0 })).toMatch(/^--num-profile-runs: expected an integer from 1 to 10, got 0/);
    expect(fails({ 'num-profile-runs': 11 })).toMatch(/got 11/);
    expect(fails({ 'num-profile-runs': 2.5 })).toMatch(/got 2.5/);
    expect(fails({ 'num-profile-runs': Number.NaN })).toMatch(/--num-profile-runs/);
  });
  it('refuses a negative cooldown, an unknown convention, and repeated sweeps', () => {
    expect(fails({ 'profile-run-cooldown-seconds': -1 })).toMatch(/^--profile-run-cooldown-seconds: /);
    expect(fails({ convention: 'vllm' })).toMatch(/^--convention: expected one of aiperf, guidellm, evalscope, all, got "vllm"/);
    expect(fails({ 'num-profile-runs': 2, concurrency: '1,4' })).toMatch(/^--num-profile-runs: cannot be combined with a sweep/);
  });
});

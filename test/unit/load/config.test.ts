// Scheduling flags: parsing, defaults and the conflicts that are bad input (one line naming both flags).
import { describe, expect, it } from 'vitest';
import { buildRunConfig, resolveArtifactDir } from '../../../src/config/validate.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { parseGrace, parseList, parseLoadFlags, type LoadFlags } from '../../../src/load/config.js';

const load = (f: LoadFlags) => parseLoadFlags(f).load;

describe('parseLoadFlags', () => {
  it('defaults: closed loop, poisson, grace 30 s, no sweep, auto fixed schedule', () => {
    const l = load({});
    expect(l).toMatchObject({
      request_rate: null,
      concurrency_cap: null,
      arrival_pattern: 'poisson',
      arrival_smoothness: 1,
      grace_period_s: 30,
      cancellation_rate: 0,
      fixed_schedule: null,
      sweep: null,
    });
  });

  it('a rate with a concurrency: the concurrency caps', () => {
    const r = parseLoadFlags({ 'request-rate': '50', concurrency: '8' });
    expect(r.load.request_rate).toBe(50);
    expect(r.load.concurrency_cap).toBe(8);
    expect(r.concurrency).toBe(8);
  });

  it('lists make sweeps', () => {
    expect(load({ concurrency: '1,4,16,64' }).sweep).toEqual({ kind: 'concurrency', values: [1, 4, 16, 64] });
    expect(load({ 'request-rate': '10, 20,40' }).sweep).toEqual({ kind: 'rate', values: [10, 20, 40] });
    expect(load({ concurrency: ['2', '3'] }).sweep).toEqual({ kind: 'concurrency', values: [2, 3] });
    expect(load({ profile: 'sweep' }).sweep).toEqual({ kind: 'auto', size: 10 });
    expect(load({ profile: 'sweep', 'sweep-size': 4, concurrency: 32 })).toMatchObject({
      sweep: { kind: 'auto', size: 4 },
      concurrency_cap: 32,
    });
  });

  it('a smoothness alone picks gamma; "inf" grace is no limit', () => {
    expect(load({ 'request-rate': 5, 'arrival-smoothness': 4 }).arrival_pattern).toBe('gamma');
    expect(parseGrace('inf')).toBeNull();
    expect(parseGrace('2.5')).toBe(2.5);
    expect(parseGrace(undefined)).toBe(30);
    expect(parseList('x', 3, (_f, v) => Number(v))).toEqual([3]);
  });

  it.each([
    [{ 'request-rate': 0 }, /^--request-rate: must be greater than 0/],
    [{ 'request-rate': '-5' }, /^--request-rate: must be greater than 0/],
    [{ 'request-rate': 'fast' }, /^--request-rate: expected a number/],
    [{ 'request-rate': '10,' }, /^--request-rate: expected a number or a comma-separated list/],
    [{ concurrency: '4,x' }, /^--concurrency: expected an integer, got x/],
    [{ 'fixed-schedule': true, 'request-rate': 10 }, /^--fixed-schedule: cannot be combined with --request-rate$/],
    [{ 'fixed-schedule': true, concurrency: '1,2' }, /^--fixed-schedule: .*--concurrency/],
    [{ 'sweep-size': 4 }, /^--sweep-size: needs --profile sweep$/],
    [{ profile: 'sweep', 'request-rate': 5 }, /^--profile sweep: .*--request-rate/],
    [{ profile: 'sweep', concurrency: '1,2' }, /^--profile sweep: cannot be combined with a list --concurrency/],
    [{ profile: 'sweep', 'sweep-size': 1 }, /^--sweep-size: must be at least 2/],
    [{ profile: 'grid' }, /^--profile: expected sweep/],
    [{ concurrency: '1,2', 'request-rate': '3,4' }, /^--concurrency: .*--request-rate/],
    [{ concurrency: '1,2', 'request-rate': 3 }, /^--concurrency: .*--request-rate/],
    [{ 'arrival-pattern': 'gamma' }, /^--arrival-pattern: needs --request-rate$/],
    [{ 'request-rate': 1, 'arrival-pattern': 'uniform' }, /^--arrival-pattern: expected one of constant, poisson, gamma/],
    [{ 'request-rate': 1, 'arrival-pattern': 'poisson', 'arrival-smoothness': 2 }, /^--arrival-smoothness: .*--arrival-pattern poisson/],
    [{ 'request-rate': 1, 'arrival-smoothness': 0 }, /^--arrival-smoothness: must be greater than 0/],
    [{ 'request-rate-ramp-duration': 5 }, /^--request-rate-ramp-duration: needs --request-rate$/],
    [{ 'request-rate': 5, 'request-rate-ramp-duration': -1 }, /^--request-rate-ramp-duration: must be greater than 0/],
    [{ 'concurrency-ramp-duration': 0 }, /^--concurrency-ramp-duration: must be greater than 0/],
    [{ 'request-rate': 5, 'concurrency-ramp-duration': 2 }, /^--concurrency-ramp-duration: with --request-rate needs --concurrency$/],
    [{ 'warmup-duration': -3 }, /^--warmup-duration: must be greater than 0/],
    [{ 'warmup-concurrency': 2 }, /^--warmup-concurrency: needs --warmup-request-count or --warmup-duration$/],
    [{ 'warmup-request-rate': 2 }, /^--warmup-request-rate: needs --warmup-request-count or --warmup-duration$/],
    [{ 'cooldown-duration': -1 }, /^--cooldown-duration: must be greater than 0/],
    [{ 'benchmark-grace-period': '-1' }, /^--benchmark-grace-period: must be at least 0/],
    [{ 'benchmark-grace-period': 'soon' }, /^--benchmark-grace-period: expected a number/],
    [{ 'request-cancellation-rate': 1.5 }, /^--request-cancellation-rate: must be in \[0, 1\]/],
    [{ 'request-cancellation-rate': -0.1 }, /^--request-cancellation-rate: must be in \[0, 1\]/],
    [{ 'request-cancellation-delay': 1 }, /^--request-cancellation-delay: needs --request-cancellation-rate$/],
    [{ 'request-cancellation-rate': 0.1, 'request-cancellation-delay': -1 }, /^--request-cancellation-delay: must be at least 0/],
    [
      { 'fixed-schedule': false, 'fixed-schedule-start-offset': 5 },
      /^--fixed-schedule-start-offset: cannot be combined with --no-fixed-schedule$/,
    ],
    [
      { 'fixed-schedule-auto-offset': true, 'fixed-schedule-start-offset': 5 },
      /^--fixed-schedule-auto-offset: cannot be combined with --fixed-schedule-start-offset$/,
    ],
    [{ 'fixed-schedule-start-offset': 50, 'fixed-schedule-end-offset': 10 }, /^--fixed-schedule-end-offset: must not be below/],
    [{ 'sweep-stop-on-slo': true }, /^--sweep-stop-on-slo: needs --profile sweep/],
    [{ profile: 'sweep', 'sweep-stop-on-slo': true }, /^--sweep-stop-on-slo: needs --slo-attainment-fraction$/],
    [{ 'slo-attainment-fraction': 0 }, /^--slo-attainment-fraction: must be in \(0, 1\]/],
  ] as [LoadFlags, RegExp][])('%j is bad input', (flags, re) => {
    expect(() => parseLoadFlags(flags)).toThrow(InvalidArgumentError);
    expect(() => parseLoadFlags(flags)).toThrow(re);
  });
});

describe('buildRunConfig with scheduling flags', () => {
  it('keeps --concurrency as the closed-loop count and names the artifact folder after the mode', () => {
    expect(buildRunConfig({ concurrency: '12' }, {}).concurrency).toBe(12);
    const rate = buildRunConfig({ 'request-rate': '20' }, {});
    expect(rate.load.request_rate).toBe(20);
    expect(Object.isFrozen(rate.load)).toBe(true);
    const when = new Date(2026, 0, 2, 3, 4, 5);
    expect(resolveArtifactDir(rate, when)).toMatch(/-chat-rate20-20260102-030405$/);
    expect(resolveArtifactDir(buildRunConfig({ concurrency: '1,2' }, {}), when)).toMatch(/-sweep-concurrency-/);
    expect(resolveArtifactDir(buildRunConfig({ concurrency: '3' }, {}), when)).toMatch(/-concurrency3-/);
  });

  it('the old number form of --concurrency still gives the old messages', () => {
    expect(() => buildRunConfig({ concurrency: 0 }, {})).toThrow(/--concurrency: must be at least 1/);
    expect(() => buildRunConfig({ concurrency: 1.5 }, {})).toThrow(/--concurrency: expected an integer/);
  });
});

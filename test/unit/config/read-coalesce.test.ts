// --read-coalesce-us: an integer number of µs in [0, 10000]; anything else is one line naming the flag.
import { describe, expect, it } from 'vitest';
import { DEFAULTS, MAX_READ_COALESCE_US } from '../../../src/config/defaults.js';
import { buildRunConfig } from '../../../src/config/validate.js';
import { InvalidArgumentError } from '../../../src/errors.js';

describe('--read-coalesce-us', () => {
  it('defaults to eager (0: measured on the whole command, a window cost more than it saved), and takes 0 to the maximum', () => {
    expect(buildRunConfig({}, {}).read_coalesce_us).toBe(DEFAULTS.read_coalesce_us);
    expect(DEFAULTS.read_coalesce_us).toBe(0);
    for (const v of [0, 1, 250, MAX_READ_COALESCE_US]) expect(buildRunConfig({ 'read-coalesce-us': v }, {}).read_coalesce_us).toBe(v);
  });

  it.each([
    [-1, /^--read-coalesce-us: must be at least 0, got -1$/],
    [MAX_READ_COALESCE_US + 1, /^--read-coalesce-us: must be at most 10000, got 10001$/],
    [2.5, /^--read-coalesce-us: expected an integer, got 2\.5$/],
    [Number.NaN, /^--read-coalesce-us: expected an integer, got NaN$/],
  ])('refuses %s', (v, msg) => {
    const run = () => buildRunConfig({ 'read-coalesce-us': v }, {});
    expect(run).toThrow(InvalidArgumentError);
    expect(run).toThrow(msg);
  });
});

describe('--kernel-stamps', () => {
  it('is off by default (stamps when recv() returns), and --kernel-stamps turns it on', () => {
    expect(DEFAULTS.kernel_stamps).toBe(false);
    expect(buildRunConfig({}, {}).kernel_stamps).toBe(false);
    expect(buildRunConfig({ 'kernel-stamps': true }, {}).kernel_stamps).toBe(true);
  });
});

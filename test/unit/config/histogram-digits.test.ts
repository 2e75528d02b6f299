// --histogram-significant-digits: 1–5, default 3; anything else is bad input (exit code 2).
import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { InvalidArgumentError } from '../../../src/errors.js';

describe('--histogram-significant-digits', () => {
  it('defaults to 3 and accepts 1 to 5', () => {
    expect(buildRunConfig({}, {}).histogram_significant_digits).toBe(3);
    for (const d of [1, 2, 3, 4, 5]) expect(buildRunConfig({ 'histogram-significant-digits': d }, {}).histogram_significant_digits).toBe(d);
  });

  it('refuses 0, 6, fractions and non-numbers with an InvalidArgumentError naming the flag', () => {
    for (const bad of [0, 6, 2.5, NaN, -1]) {
      let err: unknown;
      try {
        buildRunConfig({ 'histogram-significant-digits': bad }, {});
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as InvalidArgumentError).exitCode).toBe(2);
      expect((err as Error).message).toMatch(/^--histogram-significant-digits: /);
    }
  });
});

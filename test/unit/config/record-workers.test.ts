// --record-workers: an integer from 1 to 64, default the cores less one (at least 1); else exit code 2.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildRunConfig, defaultRecordWorkers } from '../../../src/config/validate.js';
import { InvalidArgumentError } from '../../../src/errors.js';

describe('--record-workers', () => {
  it('defaults to the cores to spare, at least one', () => {
    expect(defaultRecordWorkers()).toBe(Math.min(64, Math.max(1, os.availableParallelism() - 1)));
    expect(buildRunConfig({}, {}).record_workers).toBe(defaultRecordWorkers());
  });

  it('accepts 1 to 64', () => {
    for (const n of [1, 2, 7, 64]) expect(buildRunConfig({ 'record-workers': n }, {}).record_workers).toBe(n);
  });

  it('refuses 0, 65, fractions and non-numbers with one line naming the flag', () => {
    for (const bad of [0, 65, 1.5, NaN, -2]) {
      let err: unknown;
      try {
        buildRunConfig({ 'record-workers': bad }, {});
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as InvalidArgumentError).exitCode).toBe(2);
      expect((err as Error).message).toMatch(/^--record-workers: [^\n]+$/);
    }
  });
});

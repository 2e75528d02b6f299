// The shared-measurement helper the timing tests use: a failed attempt makes its retry measure afresh,
// and a passing test leaves the measurement shared.
import { describe, expect, it } from 'vitest';
import { remeasured } from '../../helpers/remeasure.js';

describe('remeasured', () => {
  let taken = 0;
  const m = remeasured(async () => ++taken);

  it('shares one measurement between tests that pass', async () => {
    expect(await m.prime()).toBe(1);
    expect(await m.get()).toBe(1);
    expect(await m.get()).toBe(1);
  });

  // The first attempt sees measurement 1 and fails on purpose; its retry must see a new one.
  it('measures again before the retry of a failed test', { retry: 1 }, async () => {
    expect(await m.get()).toBe(2);
  });

  it('keeps the measurement the retry took', async () => {
    expect(await m.get()).toBe(2);
    expect(taken).toBe(2);
  });
});

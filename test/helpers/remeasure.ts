// A measurement that a file's tests share, taken again before a failed test's retry. vitest's retry
// re-runs only the test body, so a wall-clock bound checked on data taken once in beforeAll would
// retry on the very sample that one burst of host load spoiled, and fail again.
import { onTestFailed } from 'vitest';

export interface Remeasured<T> {
  /** Takes the measurement now (for beforeAll, so the first test's time is its own). */
  prime(): Promise<T>;
  /** The current measurement, inside a test: if that test fails, the next get() measures afresh. */
  get(): Promise<T>;
}

export function remeasured<T>(measure: () => Promise<T>): Remeasured<T> {
  let current: Promise<T> | undefined;
  const take = () => (current ??= measure());
  return {
    prime: take,
    get() {
      onTestFailed(() => {
        current = undefined;
      });
      return take();
    },
  };
}

// Collects the warnings each test emits (src/warnings.ts), starting every test with none.
import { afterEach, beforeEach } from 'vitest';
import { resetWarnings, setWarningSink } from '../../src/warnings.js';

/** Call at the top of a test file or describe; the returned array holds the current test's warnings. */
export function captureWarnings(): string[] {
  const warnings: string[] = [];
  let restore = (): void => {};
  beforeEach(() => {
    warnings.length = 0;
    resetWarnings();
    restore = setWarningSink((l) => warnings.push(l));
  });
  afterEach(() => restore());
  return warnings;
}

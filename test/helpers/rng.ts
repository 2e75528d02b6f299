// One seeded generator for tests that need many reproducible random values.
import { createRng, unit } from '../../src/mock/text.js';

/** Uniform floats in [0, 1), the same every run (mulberry32: the mock's generator, and bench/lib.js's `rng`). */
export function rng(seed: number): () => number {
  const next = createRng(seed);
  return () => unit(next);
}

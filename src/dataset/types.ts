// What every dataset gives the scheduler. Synthetic today; JSONL, traces and ShareGPT
// (issue 5) implement the same interface.

import type { Turn } from '../records/types.js';

export interface Dataset {
  /** Short name for logs and the exported config (e.g. 'synthetic'). */
  readonly kind: string;
  /**
   * Number of distinct turns for a finite dataset, null for an endless generator.
   * next() never runs out: a finite dataset starts again from its first turn.
   */
  readonly size: number | null;
  next(): Turn;
}

/** Synthetic prompts with normally distributed input and output lengths. */
export interface SyntheticConfig {
  /** Mean prompt length in tokens (--isl); a positive integer. */
  isl_mean: number;
  /** Standard deviation of the prompt length (--isl-stddev); 0 gives every prompt isl_mean tokens. */
  isl_stddev: number;
  /** Mean requested output length (--osl, sent as max_tokens); null lets the server decide. */
  osl_mean: number | null;
  osl_stddev: number;
  /** --random-seed: the same seed and config give the same turns, run after run. */
  seed: number;
  /** Distinct turns to generate, then repeat (finite dataset); undefined: a fresh turn every time. */
  count?: number;
}

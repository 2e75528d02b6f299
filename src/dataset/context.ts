// What every file loader is given: the file, the run's tokenizer and seed, and the run-wide
// settings a file can leave out (output length, system prompt).

import type { TextTokenizer } from '../tokenizer/types.js';
import type { Warn } from './entries.js';
import { Rng } from '../model/rng.js';
import { IndexSampler, type SamplingStrategy } from './sampling.js';
import { sampleLength } from './synthetic.js';

export interface LoadContext {
  file: string;
  tokenizer: TextTokenizer;
  seed: number;
  sampling: SamplingStrategy;
  /** --osl / --osl-stddev: max_tokens for entries that give none (null mean: let the server decide). */
  osl: { mean: number | null; stddev: number };
  /** --shared-system-prompt-length, already synthesized; null when off. */
  systemPrompt: string | null;
  warn: Warn;
  /** The run's --model names (a trace's model column picks among them); absent or empty: one model. */
  models?: readonly string[];
}

export function samplerFor(ctx: LoadContext, size: number): IndexSampler {
  return new IndexSampler(size, ctx.sampling, new Rng(ctx.seed).fork('sampling'));
}

/**
 * max_tokens for an entry without one, drawn from --osl per entry `key` (e.g. its line), so an
 * entry keeps its value whatever order entries are drawn in.
 */
export function fallbackMaxTokens(ctx: LoadContext, key: string): number | null {
  const { mean, stddev } = ctx.osl;
  if (mean === null) return null;
  return stddev === 0 ? mean : sampleLength(new Rng(ctx.seed).fork(`osl/${key}`), mean, stddev);
}

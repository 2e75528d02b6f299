// The synthetic dataset: prompts of exact, normally distributed token lengths and a
// normally distributed max_tokens, all from one seed.

import { InvalidArgumentError } from '../errors.js';
import type { Turn } from '../model/turn.js';
import { PromptSynthesizer } from '../tokenizer/synthesize.js';
import type { TextTokenizer } from '../tokenizer/types.js';
import { Rng } from '../model/rng.js';
import type { Dataset, SyntheticConfig } from './types.js';

function requireNumber(value: unknown, flag: string, rule: string, ok: (v: number) => boolean): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
    throw new InvalidArgumentError(`${flag} must be ${rule}, got ${String(value)}`);
  }
}

/** Checks a config before any prompt is made; throws InvalidArgumentError naming the flag. */
export function validateSyntheticConfig(config: SyntheticConfig): void {
  requireNumber(config.isl_mean, '--isl', 'an integer >= 1', (v) => Number.isInteger(v) && v >= 1);
  requireNumber(config.isl_stddev, '--isl-stddev', 'a number >= 0', (v) => v >= 0);
  if (config.osl_mean !== null) {
    requireNumber(config.osl_mean, '--osl', 'a number >= 1 (or unset)', (v) => v >= 1);
  }
  requireNumber(config.osl_stddev, '--osl-stddev', 'a number >= 0', (v) => v >= 0);
  requireNumber(config.seed, '--random-seed', 'an integer', (v) => Number.isInteger(v));
  if (config.count !== undefined) {
    requireNumber(config.count, 'synthetic dataset count', 'an integer >= 1', (v) => Number.isInteger(v) && v >= 1);
  }
}

/** A normal sample rounded to an integer and clamped to >= 1 (a length of 0 is not a request). */
export function sampleLength(rng: Rng, mean: number, stddev: number): number {
  const v = stddev === 0 ? mean : rng.normal(mean, stddev);
  return Math.max(1, Math.round(v));
}

export class SyntheticDataset implements Dataset {
  readonly kind = 'synthetic';
  readonly size: number | null;
  private readonly config: SyntheticConfig;
  // Separate streams, so changing --osl leaves prompts and ISLs as they were, and so on.
  private readonly islRng: Rng;
  private readonly oslRng: Rng;
  private readonly prompts: PromptSynthesizer;
  private readonly made: Turn[] = [];
  private cursor = 0;

  /** Validates the config; builds the tokenizer's prompt pool on first use (~0.1–0.2 s). */
  constructor(config: SyntheticConfig, tokenizer: TextTokenizer) {
    validateSyntheticConfig(config);
    this.config = { ...config };
    this.size = config.count ?? null;
    const root = new Rng(config.seed);
    this.islRng = root.fork('isl');
    this.oslRng = root.fork('osl');
    this.prompts = new PromptSynthesizer(tokenizer, root.fork('prompt'));
  }

  next(): Turn {
    if (this.size === null) return this.make();
    // Finite: generate lazily, then replay in order (a long run repeats prompts verbatim).
    if (this.made.length < this.size) {
      const turn = this.make();
      this.made.push(turn);
      return turn;
    }
    const turn = this.made[this.cursor];
    this.cursor = (this.cursor + 1) % this.size;
    return turn;
  }

  private make(): Turn {
    const { isl_mean, isl_stddev, osl_mean, osl_stddev } = this.config;
    const isl = sampleLength(this.islRng, isl_mean, isl_stddev);
    const max_tokens = osl_mean === null ? null : sampleLength(this.oslRng, osl_mean, osl_stddev);
    return { prompt: this.prompts.next(isl), isl, max_tokens };
  }
}

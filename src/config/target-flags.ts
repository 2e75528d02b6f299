// Several targets in one run: --url A --url B (with --url-weights), --model a,b (with
// --model-selection-strategy and --model-weights). Parsed here; the selection itself is load/target-choice.ts.
import { badFlag as bad } from '../errors.js';
import { MODEL_SELECTION_STRATEGIES, type ModelSelectionStrategy } from '../load/target-choice.js';

/** One --url: the base URL without credentials, and its credentials apart (sent as Basic auth). */
export interface TargetUrl {
  readonly url: string;
  /** As RunConfig.url_credentials (a structural copy: types.ts imports this file). */
  readonly credentials: { readonly username: string; readonly password: string } | null;
}

export interface TargetsConfig {
  /** Every --url in order; empty: the built-in mock. */
  readonly urls: readonly TargetUrl[];
  /** --url-weights, one per URL (smooth weighted round robin); null: plain round robin. */
  readonly url_weights: readonly number[] | null;
  /** Every --model in order (a comma list); empty: the server's first model. */
  readonly models: readonly string[];
  readonly model_selection_strategy: ModelSelectionStrategy;
  /** --model-weights, one per model (strategy weighted); null otherwise. */
  readonly model_weights: readonly number[] | null;
}

/** A repeatable string flag as a list: yargs gives a string, an array, or nothing. */
export function listOf(v: string | readonly string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/** "3,1" (or repeated flags) → positive finite numbers, exactly `count` of them. */
export function parseWeights(flag: string, raw: string | readonly string[] | undefined, count: number, what: string): number[] | null {
  const items = listOf(raw).flatMap((s) => s.split(','));
  if (items.length === 0) return null;
  const out = items.map((s) => {
    const t = s.trim();
    const n = t === '' ? NaN : Number(t);
    if (!Number.isFinite(n) || n < 0) bad(flag, `expected non-negative numbers separated by commas, got ${JSON.stringify(t)}`);
    return n;
  });
  if (out.length !== count) bad(flag, `expected ${count} weights (one per ${what}), got ${out.length}`);
  if (!out.some((w) => w > 0)) bad(flag, 'at least one weight must be positive');
  return out;
}

/** --model a,b: names separated by commas, none empty. */
export function parseModels(raw: string | readonly string[] | undefined): string[] {
  const items = listOf(raw).flatMap((s) => s.split(','));
  if (items.length === 0) return [];
  return items.map((s) => {
    const t = s.trim();
    if (t === '') bad('model', 'must not be empty (nor hold an empty name between commas)');
    return t;
  });
}

export interface TargetFlags {
  'url-weights'?: string | string[];
  'model-selection-strategy'?: string;
  'model-weights'?: string | string[];
}

/** The targets of a run from already-parsed URLs and models; weights that do not parse are bad input. */
export function parseTargets(urls: TargetUrl[], models: string[], f: TargetFlags): TargetsConfig {
  const url_weights = parseWeights('url-weights', f['url-weights'], urls.length, '--url');
  if (url_weights !== null && urls.length === 0) bad('url-weights', 'needs --url');
  const strategyRaw = f['model-selection-strategy'];
  if (strategyRaw !== undefined && !(MODEL_SELECTION_STRATEGIES as readonly string[]).includes(strategyRaw))
    bad('model-selection-strategy', `expected one of ${MODEL_SELECTION_STRATEGIES.join(', ')}, got ${JSON.stringify(strategyRaw)}`);
  const model_weights = parseWeights('model-weights', f['model-weights'], models.length, 'model in --model');
  const model_selection_strategy = (strategyRaw ?? (model_weights !== null ? 'weighted' : 'round_robin')) as ModelSelectionStrategy;
  if (model_selection_strategy === 'weighted' && model_weights === null)
    bad('model-selection-strategy', 'weighted needs --model-weights (one weight per model)');
  if (model_selection_strategy !== 'weighted' && model_weights !== null)
    bad('model-weights', `only applies with --model-selection-strategy weighted, not ${model_selection_strategy}`);
  return Object.freeze({ urls, url_weights, models, model_selection_strategy, model_weights });
}

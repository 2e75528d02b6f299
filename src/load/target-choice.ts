// Which URL and which model each request goes to (--url ... --url-weights, --model a,b
// --model-selection-strategy). Weighted choices use smooth weighted round robin (nginx's): the split
// is exact over every window of sum(weights) picks, so a short run is not left to chance.
import { Rng } from '../model/rng.js';

/** --model-selection-strategy. */
export const MODEL_SELECTION_STRATEGIES = ['round_robin', 'random', 'weighted'] as const;
export type ModelSelectionStrategy = (typeof MODEL_SELECTION_STRATEGIES)[number];

/** Smooth weighted round robin over indices 0..n-1; equal weights give plain round robin. */
export class WeightedRoundRobin {
  private readonly current: number[];
  private readonly total: number;

  constructor(private readonly weights: readonly number[]) {
    if (weights.length === 0) throw new RangeError('WeightedRoundRobin: no weights');
    this.current = weights.map(() => 0);
    this.total = weights.reduce((a, b) => a + b, 0);
  }

  next(): number {
    let best = 0;
    for (let i = 0; i < this.weights.length; i++) {
      this.current[i] += this.weights[i];
      if (this.current[i] > this.current[best]) best = i;
    }
    this.current[best] -= this.total;
    return best;
  }
}

export interface TargetChoice {
  /** Index into the run's URLs. */
  url: number;
  model: string;
}

export interface TargetSelectorOptions {
  urlCount: number;
  urlWeights: readonly number[] | null;
  models: readonly string[];
  strategy: ModelSelectionStrategy;
  modelWeights: readonly number[] | null;
  seed: number;
}

/** One pick per request, in issue order. URL and model are chosen independently. */
export class TargetSelector {
  private readonly urls: WeightedRoundRobin;
  private readonly models: WeightedRoundRobin | null;
  private readonly rng: Rng;

  constructor(private readonly o: TargetSelectorOptions) {
    this.urls = new WeightedRoundRobin(o.urlWeights ?? new Array<number>(Math.max(1, o.urlCount)).fill(1));
    this.models =
      o.strategy === 'random' || o.models.length === 0
        ? null
        : new WeightedRoundRobin(o.modelWeights ?? new Array<number>(o.models.length).fill(1));
    this.rng = new Rng(`${o.seed}:model-selection`);
  }

  next(): TargetChoice {
    const url = this.urls.next();
    const m = this.o.models;
    if (m.length <= 1) return { url, model: m[0] ?? '' };
    const i = this.models === null ? this.rng.int(0, m.length - 1) : this.models.next();
    return { url, model: m[i] };
  }
}

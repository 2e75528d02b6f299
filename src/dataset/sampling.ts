// Which entry of a finite dataset comes next: in file order, drawn at random (with
// replacement), or in a fresh random permutation every pass. Seeded by --random-seed.

import type { Rng } from '../model/rng.js';

export type SamplingStrategy = 'sequential' | 'random' | 'shuffle';
export const SAMPLING_STRATEGIES: readonly SamplingStrategy[] = ['sequential', 'random', 'shuffle'];

export class IndexSampler {
  private order: number[] = [];
  private pos = 0;

  constructor(
    readonly size: number,
    readonly strategy: SamplingStrategy,
    private readonly rng: Rng,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`IndexSampler: size must be a positive integer, got ${size}`);
  }

  next(): number {
    switch (this.strategy) {
      case 'sequential': {
        const i = this.pos;
        this.pos = (this.pos + 1) % this.size;
        return i;
      }
      case 'random':
        return this.rng.int(0, this.size - 1);
      case 'shuffle': {
        // Every pass is a permutation: each entry once before any entry twice.
        if (this.pos === 0) this.order = this.rng.shuffle(Array.from({ length: this.size }, (_, i) => i));
        const i = this.order[this.pos];
        this.pos = (this.pos + 1) % this.size;
        return i;
      }
    }
  }
}

// The flags of several targets in one run (config/target-flags.ts): URL weights, model selection.
import type { Options } from 'yargs';
import { MODEL_SELECTION_STRATEGIES } from '../load/target-choice.js';

const G_ENDPOINT = 'Endpoint:';

export const targetOptions: Record<string, Options> = {
  'url-weights': {
    type: 'string',
    group: G_ENDPOINT,
    describe: 'relative share of requests per --url, in --url order, e.g. 3,1 (smooth weighted round robin)',
  },
  'model-selection-strategy': {
    type: 'string',
    choices: [...MODEL_SELECTION_STRATEGIES],
    group: G_ENDPOINT,
    describe: 'with --model a,b: round_robin (default), random (seeded by --random-seed), or weighted (by --model-weights)',
  },
  'model-weights': {
    type: 'string',
    group: G_ENDPOINT,
    describe: 'relative share of requests per model of --model, e.g. 2,1 (implies --model-selection-strategy weighted)',
  },
};

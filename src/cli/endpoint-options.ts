// The flags of the embeddings, rankings and Anthropic Messages endpoint types (endpoints/settings.ts).
import type { Options } from 'yargs';
import { ENDPOINT_DEFAULTS, RANKINGS_FLAVORS } from '../endpoints/settings.js';

export function endpointTypeOptions(group: string): Record<string, Options> {
  const d = ENDPOINT_DEFAULTS;
  return {
    'batch-size-text': { type: 'number', group, describe: `embeddings: inputs per request (default ${d.batch_size_text})` },
    'rankings-flavor': {
      type: 'string',
      choices: [...RANKINGS_FLAVORS],
      group,
      describe: `rankings API: cohere (/v1/rerank, Jina too), vllm-rerank (/rerank), vllm-score (/score), tei (/rerank) (default ${d.rankings_flavor})`,
    },
    'rankings-passages': { type: 'number', group, describe: `rankings: passages per query (default ${d.rankings_passages})` },
    'rankings-passage-length': {
      type: 'number',
      group,
      describe: `rankings: tokens per synthetic passage (default ${d.rankings_passage_length})`,
    },
    'anthropic-version': {
      type: 'string',
      group,
      describe: `messages: the anthropic-version header (default ${d.anthropic_version}); the key goes as x-api-key`,
    },
  };
}

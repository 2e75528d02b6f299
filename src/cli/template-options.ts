// The flags of --endpoint-type template (endpoints/template-config.ts).
import type { Options } from 'yargs';

const G_ENDPOINT = 'Endpoint:';
const PATHS = 'dot-separated keys, key[*] for each array element, (a|b) for the first non-null';

export const templateOptions: Record<string, Options> = {
  'template-file': {
    type: 'string',
    group: G_ENDPOINT,
    describe: 'template: the JSON request body with {{prompt}}, {{max_tokens}}, {{model}}, {{stream}}, {{messages}}',
  },
  'response-content-path': {
    type: 'string',
    group: G_ENDPOINT,
    describe: `template: where an SSE event or body holds the output text (default text; ${PATHS})`,
  },
  'response-reasoning-path': { type: 'string', group: G_ENDPOINT, describe: 'template: where it holds reasoning text (default: none)' },
  'response-usage-path': { type: 'string', group: G_ENDPOINT, describe: 'template: where it holds the usage object (default usage)' },
  'response-error-path': { type: 'string', group: G_ENDPOINT, describe: 'template: where it holds an error (default error)' },
  'response-finish-path': {
    type: 'string',
    group: G_ENDPOINT,
    describe: 'template: where it holds why the response ended, for records.jsonl (default: none)',
  },
};

// From the dataset config to what loadPublicSource reads: a registry entry as declared, with the
// --hf-subset/--hf-split/--hf-revision overrides, or any Hub dataset by --hf-dataset.

import type { DatasetConfig } from '../config.js';
import { publicDataset } from './registry.js';
import type { PublicSourceSpec } from './source.js';

export function publicSourceSpec(d: DatasetConfig): PublicSourceSpec & { host: 'hub' | 'github' } {
  const entry = d.public_dataset === null ? undefined : publicDataset(d.public_dataset);
  const hf = d.hf;
  if (entry !== undefined) {
    const data = hf === null || 'file' in entry.data ? entry.data : { subset: hf.subset, split: hf.split };
    return {
      kind: `public:${entry.name}`,
      repo: entry.repo,
      revision: hf?.revision ?? entry.revision,
      data,
      mapping: entry.rows,
      flagOf: () => null,
      host: entry.host ?? 'hub',
    };
  }
  if (hf === null) throw new Error('publicSourceSpec: neither --public-dataset nor --hf-dataset');
  const flags: Record<string, string> = {};
  if (hf.prompt_column !== null) flags[hf.prompt_column] = 'hf-prompt-column';
  if (hf.output_len_column !== null) flags[hf.output_len_column] = 'hf-output-len-column';
  return {
    kind: `hf:${hf.repo}`,
    repo: hf.repo,
    revision: hf.revision,
    data: { subset: hf.subset, split: hf.split },
    mapping: { kind: 'columns', prompt: hf.prompt_column, outputLen: hf.output_len_column },
    flagOf: (c) => flags[c] ?? null,
    host: 'hub',
  };
}

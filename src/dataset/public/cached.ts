// Whether a registry entry's files are in the local cache, looked up without any network: the
// Hugging Face cache (its revision's snapshot, or the converted Parquet branch's), or the GitHub
// file kept under $HF_HOME/servebench/github.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { cachedSnapshot, CONVERTED_PARQUET, ownSplitFiles, walk } from './locate.js';
import type { PublicDataset } from './registry.js';

export function isCached(d: PublicDataset, env: NodeJS.ProcessEnv = process.env): boolean {
  if (d.host === 'github') {
    if (!('file' in d.data)) return false;
    const home = env.HF_HOME ? resolve(env.HF_HOME) : join(homedir(), '.cache', 'huggingface');
    return existsSync(join(home, 'servebench', 'github', d.repo.split('/').join('--'), d.revision, ...d.data.file.split('/')));
  }
  const snap = cachedSnapshot(d.repo, d.revision, env);
  if ('file' in d.data) return snap !== null && existsSync(join(snap, d.data.file));
  if (snap !== null && ownSplitFiles(walk(snap), d.data.subset, d.data.split).length > 0) return true;
  const conv = cachedSnapshot(d.repo, CONVERTED_PARQUET, env);
  return conv !== null && existsSync(join(conv, d.data.subset ?? 'default', d.data.split));
}

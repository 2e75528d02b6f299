// Whether a registry entry's files are in the local cache, looked up without any network: the
// Hugging Face cache (its revision's snapshot, or the converted Parquet branch's), or the GitHub
// file kept under $HF_HOME/servebench/github.

import { existsSync } from 'node:fs';
import { cachedFile, cachedSnapshotFiles, hfHubCache } from '../../hub/index.js';
import { githubFilePath } from './hub-files.js';
import { CONVERTED_PARQUET, ownSplitFiles } from './locate.js';
import type { PublicDataset } from './registry.js';

export function isCached(d: PublicDataset, env: NodeJS.ProcessEnv = process.env): boolean {
  if ('file' in d.data) {
    if (d.host === 'github') return existsSync(githubFilePath(d.repo, d.revision, d.data.file, env));
    return cachedFile('dataset', d.repo, d.revision, d.data.file, hfHubCache(env)) !== null;
  }
  const { subset, split } = d.data;
  const own = cachedSnapshotFiles('dataset', d.repo, d.revision, hfHubCache(env));
  if (own !== null && ownSplitFiles(own, subset, split).length > 0) return true;
  const converted = cachedSnapshotFiles('dataset', d.repo, CONVERTED_PARQUET, hfHubCache(env));
  return converted !== null && converted.some((p) => p.startsWith(`${subset ?? 'default'}/${split}/`));
}

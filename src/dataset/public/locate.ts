// Which local files hold a dataset's rows: one named file, or the files of a subset/split: the
// repo's own data files for that split when it ships them, else the Hub's converted Parquet branch
// (refs/convert/parquet, files {subset}/{split}/*.parquet, subset "default" when the repo has
// one), as the Hub's dataset viewer converts every public dataset. Files come through a HubFiles
// (hub-files.ts: src/hub's downloads into the Hugging Face cache).

import { InvalidArgumentError } from '../../errors.js';
import type { DataFiles } from './registry.js';
import { formatOf, type RowFormat } from './rows.js';

export const CONVERTED_PARQUET = 'refs/convert/parquet';

/** What a dataset needs of the Hub: a file of a revision (downloaded if need be) and a revision's file list. */
export interface HubFiles {
  file(repo: string, revision: string, path: string): Promise<string>;
  list(repo: string, revision: string): Promise<string[]>;
}

export interface LocatedFiles {
  /** The local files in order, each downloaded when the reader gets to it (a later shard may never be needed). */
  files: () => AsyncGenerator<string>;
  format: RowFormat;
  /** Where the rows come from, for messages: "org/name@rev:path" or "org/name@refs/convert/parquet:default/train". */
  where: string;
}

/** The repo's own data files of a split, by the Hub's file-naming conventions: `{split}-*`, `{split}.*` or a `{split}/` folder, in the subset's folder when one is named. */
export function ownSplitFiles(paths: readonly string[], subset: string | null, split: string): string[] {
  const splitName = new RegExp(`^${split.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([-_.]|$)`);
  return paths
    .filter((p) => formatOf(p) !== null)
    .filter((p) => {
      const parts = p.split('/');
      const base = parts[parts.length - 1];
      const dirs = parts.slice(0, -1);
      if (subset !== null && subset !== 'default' && !dirs.includes(subset)) return false;
      return splitName.test(base) || dirs.includes(split);
    })
    .sort();
}

function oneFormat(files: string[], where: string): RowFormat {
  const formats = new Set(files.map((f) => formatOf(f)));
  const [format] = formats;
  if (formats.size !== 1 || format === null || format === undefined)
    throw new InvalidArgumentError(`${where}: its data files mix formats (${[...formats].join(', ')})`);
  return format;
}

function lazily(hub: HubFiles, repo: string, revision: string, paths: readonly string[]): () => AsyncGenerator<string> {
  return async function* () {
    for (const p of paths) yield await hub.file(repo, revision, p);
  };
}

/** The local files of `data` in `repo` at `revision`, downloaded through `hub` as they are read. */
export async function locateFiles(hub: HubFiles, repo: string, revision: string, data: DataFiles): Promise<LocatedFiles> {
  if ('file' in data) {
    const format = formatOf(data.file);
    if (format === null) throw new InvalidArgumentError(`${repo}: ${data.file} is not Parquet, JSON, JSONL or CSV`);
    // Fetched now, so a missing file is an error before the run, not while it reads.
    const file = await hub.file(repo, revision, data.file);
    return {
      files: async function* () {
        yield file;
      },
      format,
      where: `${repo}@${revision}:${data.file}`,
    };
  }
  // A cache filled with the converted files alone has no snapshot of the revision: then the
  // converted branch answers, and the revision's error is kept for when it does not either.
  let ownError: unknown = null;
  const own = await hub.list(repo, revision).then(
    (paths) => ownSplitFiles(paths, data.subset, data.split),
    (err: unknown) => {
      ownError = err;
      return [];
    },
  );
  if (own.length > 0) {
    const where = `${repo}@${revision}:${data.subset === null ? '' : `${data.subset}/`}${data.split}`;
    return { files: lazily(hub, repo, revision, own), format: oneFormat(own, where), where };
  }
  const subset = data.subset ?? 'default';
  let converted: string[];
  try {
    converted = await hub.list(repo, CONVERTED_PARQUET);
  } catch (err) {
    throw ownError ?? err;
  }
  const prefix = `${subset}/${data.split}/`;
  const files = converted.filter((p) => p.startsWith(prefix) && p.endsWith('.parquet')).sort();
  if (files.length === 0) {
    const splits = [...new Set(converted.filter((p) => p.endsWith('.parquet')).map((p) => p.split('/').slice(0, 2).join('/')))];
    throw new InvalidArgumentError(
      `${repo}: no ${subset}/${data.split} in its own files or its converted Parquet; there are: ${splits.join(', ') || 'none'}`,
    );
  }
  return {
    files: lazily(hub, repo, CONVERTED_PARQUET, files),
    format: 'parquet',
    where: `${repo}@${CONVERTED_PARQUET}:${subset}/${data.split}`,
  };
}

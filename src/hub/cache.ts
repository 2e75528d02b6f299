// The cache layout Python's huggingface_hub writes and reads (its `file_download.py`, documented in
// "Manage the cache" of its guides), the one implementation of it in servebench:
//   <cache>/models--org--name/  (datasets--org--name/ for datasets)
//     blobs/<etag>                       the file's bytes, named by the Hub's ETag (sha256 for LFS, git oid else)
//     snapshots/<commit>/<path>          a relative symlink to ../../blobs/<etag> (nested paths: more ../)
//     refs/<revision>                    the commit a branch or tag resolved to, no newline
// A file counts as cached once its snapshot link resolves; blobs are written under a temporary name and
// renamed, so an interrupted download never leaves a snapshot link to a partial blob.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { hfHubCache } from './env.js';

export type RepoType = 'model' | 'dataset';

export const COMMIT_HASH = /^[0-9a-f]{40}$/;
// A Hub repo id: `name` or `org/name` (huggingface_hub's validate_repo_id, less its length limit).
const REPO_ID = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** True for a string huggingface_hub accepts as a repo id (`name` or `org/name`). */
export function isRepoId(id: string): boolean {
  return REPO_ID.test(id) && !id.includes('..') && !id.includes('--');
}

/** A path inside a repo that cannot leave the snapshot folder (no absolute path, no `..`, no empty part). */
export function isSafeRepoPath(p: string): boolean {
  return p !== '' && !p.startsWith('/') && !p.includes('\\') && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** A revision (branch, tag, `refs/pr/1`, or a commit) that is safe as a path under refs/. */
export function isSafeRevision(r: string): boolean {
  return isSafeRepoPath(r);
}

/** `models--org--name` / `datasets--org--name`. */
export function repoFolderName(type: RepoType, repo: string): string {
  return [`${type}s`, ...repo.split('/')].join('--');
}

export function repoCacheDir(type: RepoType, repo: string, cache: string = hfHubCache()): string {
  return join(cache, repoFolderName(type, repo));
}

export function blobPath(storage: string, etag: string): string {
  return join(storage, 'blobs', etag);
}

export function snapshotPath(storage: string, commit: string, path: string): string {
  return join(storage, 'snapshots', commit, ...path.split('/'));
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The commit a revision names in the cache: refs/<revision>, or the revision itself when it is a commit hash. */
export function cachedCommit(storage: string, revision: string): string | null {
  if (isSafeRevision(revision)) {
    try {
      const commit = readFileSync(join(storage, 'refs', ...revision.split('/')), 'utf8').trim();
      if (COMMIT_HASH.test(commit)) return commit;
    } catch {
      // no ref: maybe the revision is a commit
    }
  }
  return COMMIT_HASH.test(revision) ? revision : null;
}

/** The cached file's path (…/snapshots/<commit>/<path>), or null when the cache does not hold it whole. */
export function cachedFile(type: RepoType, repo: string, revision: string, path: string, cache: string = hfHubCache()): string | null {
  if (!isRepoId(repo) || !isSafeRepoPath(path)) return null;
  const storage = repoCacheDir(type, repo, cache);
  const commit = cachedCommit(storage, revision);
  if (commit === null) return null;
  const file = snapshotPath(storage, commit, path);
  return isFile(file) ? file : null;
}

/** Every file of the cached snapshot a revision names (relative, `/`-separated, sorted); null when there is none. */
export function cachedSnapshotFiles(type: RepoType, repo: string, revision: string, cache: string = hfHubCache()): string[] | null {
  if (!isRepoId(repo)) return null;
  const storage = repoCacheDir(type, repo, cache);
  const commit = cachedCommit(storage, revision);
  if (commit === null) return null;
  const root = join(storage, 'snapshots', commit);
  let entries: string[];
  try {
    entries = readdirSync(root, { recursive: true, encoding: 'utf8' });
  } catch {
    return null;
  }
  return entries
    .filter((e) => isFile(join(root, e)))
    .map((e) => e.split(sep).join('/'))
    .sort();
}

/** A temporary name beside `target` (same folder, so a rename is atomic); it carries our pid for the cleanup. */
export function tempBeside(target: string, suffix: string): string {
  return `${target}.${process.pid}-${randomBytes(4).toString('hex')}${suffix}`;
}

/** Writes refs/<revision> = commit (no newline, as huggingface_hub writes it), atomically. */
export async function writeRef(storage: string, revision: string, commit: string): Promise<void> {
  const ref = join(storage, 'refs', ...revision.split('/'));
  await mkdir(dirname(ref), { recursive: true });
  const tmp = tempBeside(ref, '.tmp');
  await writeFile(tmp, commit);
  await rename(tmp, ref);
}

/**
 * snapshots/<commit>/<path> → the blob, as a relative symlink (huggingface_hub's _create_symlink: the
 * cache can be moved); made under a temporary name and renamed over, so readers never see it half made.
 * Where symlinks cannot be made the blob is copied, as huggingface_hub does.
 */
export async function linkSnapshot(storage: string, commit: string, path: string, blob: string): Promise<string> {
  const pointer = snapshotPath(storage, commit, path);
  await mkdir(dirname(pointer), { recursive: true });
  const tmp = tempBeside(pointer, '.tmp');
  try {
    await symlink(relative(dirname(pointer), blob), tmp);
  } catch {
    await copyFile(blob, tmp);
  }
  await rename(tmp, pointer);
  return pointer;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the partial downloads of this blob that a process no longer running left behind (a kill, a crash). */
export async function removeStalePartials(blob: string): Promise<void> {
  const dir = dirname(blob);
  const prefix = `${blob.slice(dir.length + 1)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]+\.incomplete$/.exec(name.slice(prefix.length)) : null;
    if (m && !alive(Number(m[1]))) await rm(join(dir, name), { force: true });
  }
}

export async function removeQuietly(p: string): Promise<void> {
  await unlink(p).catch(() => undefined);
}

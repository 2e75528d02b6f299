// hubFile and hubListFiles: a repo's file in the shared Hugging Face cache, downloaded through
// @huggingface/hub when the cache does not hold it, in the order huggingface_hub's
// hf_hub_download keeps: resolve the revision to a commit (X-Repo-Commit) and the file to its blob
// (ETag), reuse whatever the cache has, else download the blob to a temporary name, rename it into
// blobs/, link snapshots/<commit>/<path> to it, then write refs/<revision>. Each step is atomic, so an
// interrupted run leaves at worst a partial file that no later run reads.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import {
  HubDownloadInterruptedError,
  HubEntryNotFoundError,
  HubNetworkError,
  HubOfflineError,
  HubRepoNotFoundError,
  HubResponseError,
} from '../errors.js';
import {
  COMMIT_HASH,
  blobPath,
  cachedFile,
  cachedSnapshotFiles,
  isRepoId,
  isSafeRepoPath,
  isSafeRevision,
  linkSnapshot,
  removeQuietly,
  removeStalePartials,
  repoCacheDir,
  snapshotPath,
  tempBeside,
  writeRef,
  type RepoType,
} from './cache.js';
import { hfHubCache, hubEndpoint, hubOffline, hubToken, hubTokenPath } from './env.js';
import { HubFetch, describeRepo, type HubTarget } from './http.js';
import { progressBar } from './progress.js';
import type * as HubLibrary from '@huggingface/hub';

export interface HubFileRequest {
  repoType: RepoType;
  /** `org/name` (or a bare `name`). */
  repo: string;
  /** A branch, tag or commit hash; default `main`. */
  revision?: string;
  /** The file's path inside the repo. */
  path: string;
}

export interface HubOptions {
  signal?: AbortSignal;
  /** A progress bar on stderr when it is a terminal (default true). */
  progress?: boolean;
  /** The environment to read HF_* from (default process.env; tests). */
  env?: NodeJS.ProcessEnv;
}

const FILL_CACHE = (t: HubTarget) =>
  `fill it first where the Hub can be reached (\`hf download ${t.repoType === 'dataset' ? '--repo-type dataset ' : ''}${t.repo}${
    t.path === null ? '' : ` ${t.path}`
  }${t.revision === 'main' ? '' : ` --revision ${t.revision}`}\`, or a servebench run there, with the same HF_HOME or HF_HUB_CACHE)`;

function checkTarget(t: HubTarget): void {
  if (!isRepoId(t.repo)) throw new HubRepoNotFoundError(`Hugging Face Hub: '${t.repo}' is not a repo id (org/name)`);
  if (!isSafeRevision(t.revision)) throw new HubRepoNotFoundError(`Hugging Face Hub: '${t.revision}' is not a revision name`);
  if (t.path !== null && !isSafeRepoPath(t.path))
    throw new HubEntryNotFoundError(`Hugging Face Hub: '${t.path}' is not a file path inside a repo`);
}

/** The lazily loaded library: its import costs ~0.1-0.5 s that a run whose files are cached never pays. */
async function library(): Promise<typeof HubLibrary> {
  return import('@huggingface/hub');
}

/**
 * The file's path inside the Hugging Face cache (…/snapshots/<commit>/<path>), downloaded first when
 * the cache does not hold it. Honours HF_ENDPOINT, HF_TOKEN / the token file, HF_HUB_OFFLINE,
 * HF_HUB_CACHE / HF_HOME. Throws one coded error per condition (src/errors.ts Hub*Error).
 */
export async function hubFile(req: HubFileRequest, opts: HubOptions = {}): Promise<string> {
  const env = opts.env ?? process.env;
  const t: HubTarget = { repoType: req.repoType, repo: req.repo, revision: req.revision ?? 'main', path: req.path };
  checkTarget(t);
  const cache = hfHubCache(env);
  const fromCache = () => cachedFile(t.repoType, t.repo, t.revision, req.path, cache);
  // A commit is immutable: its cached file needs no question to the Hub (huggingface_hub does the same).
  if (COMMIT_HASH.test(t.revision) || hubOffline(env)) {
    const hit = fromCache();
    if (hit !== null) return hit;
    if (hubOffline(env))
      throw new HubOfflineError(
        `Hugging Face Hub: HF_HUB_OFFLINE is set and the cache (${cache}) does not hold ${req.path} of ${describeRepo(t)} at '${t.revision}'; ${FILL_CACHE(t)}, or unset HF_HUB_OFFLINE`,
      );
  }
  try {
    return await download(t, req.path, cache, env, opts);
  } catch (err) {
    if (opts.signal?.aborted)
      throw new HubDownloadInterruptedError(
        `Hugging Face Hub: the download of ${req.path} of ${describeRepo(t)} was interrupted; nothing partial is kept`,
      );
    // As huggingface_hub: with the Hub out of reach, a file the cache holds for this revision is used.
    if (err instanceof HubNetworkError) {
      const hit = fromCache();
      if (hit !== null) return hit;
      throw new HubNetworkError(`${err.message}; the cache (${cache}) does not hold ${req.path} either: ${FILL_CACHE(t)}`);
    }
    throw err;
  }
}

async function download(t: HubTarget, path: string, cache: string, env: NodeJS.ProcessEnv, opts: HubOptions): Promise<string> {
  const { downloadFile, fileDownloadInfo } = await library();
  const endpoint = hubEndpoint(env);
  const hub = new HubFetch(endpoint, hubToken(env), hubTokenPath(env), t, opts.signal);
  const repo = { type: t.repoType, name: t.repo };
  const info = await fileDownloadInfo({ repo, path, revision: t.revision, hubUrl: endpoint, fetch: hub.fetch }).catch((err: unknown) => {
    throw hub.failure ?? err;
  });
  if (info === null)
    throw new HubEntryNotFoundError(`Hugging Face Hub: ${describeRepo(t)} has no file '${path}' at revision '${t.revision}'`);
  const commit = hub.resolved?.commit ?? null;
  const etag = hub.resolved?.etag ?? null;
  if (commit === null || !COMMIT_HASH.test(commit) || etag === null || !/^[A-Za-z0-9._-]+$/.test(etag))
    throw new HubResponseError(
      `Hugging Face Hub: ${endpoint} did not name the commit and blob of ${path} (X-Repo-Commit, ETag): is HF_ENDPOINT a Hugging Face Hub?`,
    );
  const size = hub.resolved?.size ?? info.size;
  const storage = repoCacheDir(t.repoType, t.repo, cache);
  const pointer = snapshotPath(storage, commit, path);
  const blob = blobPath(storage, etag);
  if (!(await isFile(pointer))) {
    if (!(await isFile(blob))) {
      await mkdir(dirname(blob), { recursive: true });
      await removeStalePartials(blob);
      const partial = tempBeside(blob, '.incomplete');
      try {
        // The file by its commit, so the bytes are those of the commit just resolved.
        const body = await downloadFile({
          repo,
          path,
          revision: commit,
          hubUrl: endpoint,
          fetch: hub.fetch,
          downloadInfo: { ...info, url: resolveUrl(endpoint, t, commit, path) },
        });
        if (body === null)
          throw new HubEntryNotFoundError(`Hugging Face Hub: ${describeRepo(t)} has no file '${path}' at commit ${commit}`);
        const bar = progressBar(`${t.repo}/${path}`, size, opts.progress !== false);
        const count = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            bar.add(chunk.length);
            cb(null, chunk);
          },
        });
        await pipeline(Readable.fromWeb(body.stream() as NodeReadableStream), count, createWriteStream(partial), { signal: opts.signal });
        bar.done();
        const got = (await stat(partial)).size;
        if (got !== size)
          throw new HubNetworkError(`Hugging Face Hub: the download of ${path} of ${describeRepo(t)} ended at ${got} of ${size} bytes`);
        await rename(partial, blob);
      } catch (err) {
        await removeQuietly(partial);
        if (opts.signal?.aborted) throw err;
        if (hub.failure !== null) throw hub.failure;
        if (err instanceof Error && 'code' in err && String((err as { code: unknown }).code).startsWith('SB_')) throw err;
        throw new HubNetworkError(
          `Hugging Face Hub: the download of ${path} of ${describeRepo(t)} broke off (${(err as Error).message ?? String(err)})`,
        );
      }
    }
    await linkSnapshot(storage, commit, path, blob);
  }
  if (t.revision !== commit) await writeRef(storage, t.revision, commit);
  return pointer;
}

function resolveUrl(endpoint: string, t: HubTarget, revision: string, path: string): string {
  const prefix = t.repoType === 'dataset' ? 'datasets/' : '';
  return `${endpoint}/${prefix}${t.repo}/resolve/${encodeURIComponent(revision)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/**
 * The repo's file paths at a revision (recursive, `/`-separated, sorted), to find its data files.
 * Online: the Hub's tree listing; offline, or with the Hub out of reach: the cached snapshot's files.
 */
export async function hubListFiles(repoType: RepoType, repo: string, revision = 'main', opts: HubOptions = {}): Promise<string[]> {
  const env = opts.env ?? process.env;
  const t: HubTarget = { repoType, repo, revision, path: null };
  checkTarget(t);
  const cache = hfHubCache(env);
  const fromCache = () => cachedSnapshotFiles(repoType, repo, revision, cache);
  if (hubOffline(env)) {
    const files = fromCache();
    if (files !== null) return files;
    throw new HubOfflineError(
      `Hugging Face Hub: HF_HUB_OFFLINE is set and the cache (${cache}) holds no snapshot of ${describeRepo(t)} at '${revision}'; ${FILL_CACHE(t)}, or unset HF_HUB_OFFLINE`,
    );
  }
  const { listFiles } = await library();
  const endpoint = hubEndpoint(env);
  const hub = new HubFetch(endpoint, hubToken(env), hubTokenPath(env), t, opts.signal);
  try {
    const out: string[] = [];
    for await (const entry of listFiles({
      repo: { type: repoType, name: repo },
      // The library puts the revision into the URL as given: encoded, `refs/convert/parquet` stays one segment.
      revision: encodeURIComponent(revision),
      recursive: true,
      hubUrl: endpoint,
      fetch: hub.fetch,
    })) {
      if (entry.type === 'file') out.push(entry.path);
    }
    return out.sort();
  } catch (err) {
    const e = hub.failure ?? err;
    if (e instanceof HubNetworkError) {
      const files = fromCache();
      if (files !== null) return files;
      throw new HubNetworkError(`${e.message}; the cache (${cache}) holds no snapshot of it either: ${FILL_CACHE(t)}`);
    }
    throw e;
  }
}

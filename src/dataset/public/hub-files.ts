// The HubFiles a run uses: src/hub (the Hugging Face cache, downloading what it lacks; HF_ENDPOINT,
// HF_TOKEN, HF_HUB_OFFLINE honoured there), and GitHub's raw files for the entries that live there
// (Spec-Bench), downloaded once into $HF_HOME/servebench/github.

import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InvalidArgumentError } from '../../errors.js';
import { hfHome, hubFile, hubListFiles, hubOffline } from '../../hub/index.js';
import type { HubFiles } from './locate.js';

export function defaultHubFiles(): HubFiles {
  return {
    file: (repo, revision, path) => hubFile({ repoType: 'dataset', repo, revision, path }),
    list: (repo, revision) => hubListFiles('dataset', repo, revision),
  };
}

/** Where a GitHub-hosted file is kept once downloaded. */
export function githubFilePath(repo: string, revision: string, path: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(hfHome(env), 'servebench', 'github', repo.split('/').join('--'), revision, ...path.split('/'));
}

/** Raw files of GitHub repos (owner/name at a pinned commit), kept under $HF_HOME/servebench/github. */
export function githubFiles(env: NodeJS.ProcessEnv = process.env): HubFiles {
  return {
    async file(repo, revision, path) {
      const local = githubFilePath(repo, revision, path, env);
      if (existsSync(local)) return local;
      if (hubOffline(env)) throw new InvalidArgumentError(`${repo}@${revision}:${path} is not downloaded yet and HF_HUB_OFFLINE is set`);
      const url = `https://raw.githubusercontent.com/${repo}/${revision}/${path}`;
      let body: ArrayBuffer;
      try {
        const res = await fetch(url);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        body = await res.arrayBuffer();
      } catch (err) {
        throw new InvalidArgumentError(`${url}: cannot download (${err instanceof Error ? err.message : String(err)})`);
      }
      await mkdir(dirname(local), { recursive: true });
      // Written aside and renamed: an interrupted download leaves nothing a later run takes for complete.
      const tmp = `${local}.${process.pid}.incomplete`;
      await writeFile(tmp, Buffer.from(body));
      await rename(tmp, local);
      return local;
    },
    list() {
      return Promise.reject(new InvalidArgumentError('GitHub-hosted datasets are single files'));
    },
  };
}

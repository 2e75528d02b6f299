// The HubFiles a run uses: the Hugging Face cache (read offline), and GitHub's raw files for the
// entries that live there (Spec-Bench), downloaded once into $HF_HOME/servebench/github.
// Downloads from the Hub come with src/hub (issue 32 §1); until then a dataset must be cached.

import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { InvalidArgumentError } from '../../errors.js';
import { cacheHubFiles, type HubFiles } from './locate.js';

export function defaultHubFiles(): HubFiles {
  return cacheHubFiles();
}

function hfHome(env: NodeJS.ProcessEnv): string {
  return env.HF_HOME ? resolve(env.HF_HOME) : join(homedir(), '.cache', 'huggingface');
}

/** Raw files of GitHub repos (owner/name at a pinned commit), kept under $HF_HOME/servebench/github. */
export function githubFiles(env: NodeJS.ProcessEnv = process.env): HubFiles {
  return {
    async file(repo, revision, path) {
      const local = join(hfHome(env), 'servebench', 'github', repo.split('/').join('--'), revision, ...path.split('/'));
      if (existsSync(local)) return local;
      if (env.HF_HUB_OFFLINE === '1')
        throw new InvalidArgumentError(`${repo}@${revision}:${path} is not downloaded yet and HF_HUB_OFFLINE=1`);
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

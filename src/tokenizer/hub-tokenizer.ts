// A tokenizer named by Hub model id (org/name) that the local cache does not hold: its tokenizer.json
// (and tokenizer_config.json, when the repo has one) downloaded into the shared Hugging Face cache by
// src/hub/. A bare name (`gpt2`) is never looked up on the Hub: it may be an npm package or a folder.
import { HubEntryNotFoundError, ServebenchError, TokenizerLoadError } from '../errors.js';
import { hubFile, hubListFiles, isRepoId } from '../hub/index.js';
import { resolveTokenizerSpec, type ResolvedTokenizer } from './resolve.js';

const TOKENIZER_FILE = 'tokenizer.json';
const CONFIG_FILE = 'tokenizer_config.json';
const SENTENCEPIECE_FILE = 'tokenizer.model';

/** True for an `org/name` Hub model id: the form servebench downloads a tokenizer for. */
export function isHubModelId(id: string): boolean {
  return id.includes('/') && isRepoId(id);
}

/** The same error class with `prefix` before its message (a coded Hub error keeps its code and exit code). */
export function withPrefix(err: unknown, prefix: string, suffix = ''): unknown {
  if (!(err instanceof ServebenchError)) return err;
  const Cls = err.constructor as new (message: string, options?: ErrorOptions) => ServebenchError;
  return new Cls(`${prefix}${err.message}${suffix}`, { cause: err });
}

async function noTokenizerJson(id: string, revision: string, signal?: AbortSignal): Promise<TokenizerLoadError> {
  const files = await hubListFiles('model', id, revision, { signal }).catch(() => [] as string[]);
  const where = `the Hub repo ${id} has no ${TOKENIZER_FILE} at revision '${revision}'`;
  if (files.includes(SENTENCEPIECE_FILE))
    return new TokenizerLoadError(
      `tokenizer '${id}': ${where}, only ${SENTENCEPIECE_FILE} (SentencePiece), which servebench does not read: pass --tokenizer server ` +
        `to count with the server's tokenize endpoint, or --tokenizer <a tokenizer.json converted from it, e.g. by transformers' ` +
        `AutoTokenizer.from_pretrained('${id}').save_pretrained(dir)>`,
    );
  return new TokenizerLoadError(
    `tokenizer '${id}': ${where}: pass --tokenizer server, or --tokenizer <a local tokenizer.json, or the id of a repo with the same tokenizer>`,
  );
}

/** tokenizer.json (and its config) of a Hub model id, from the cache or downloaded into it. */
export async function downloadTokenizer(id: string, revision: string | null, signal?: AbortSignal): Promise<ResolvedTokenizer> {
  const rev = revision ?? 'main';
  let tokenizerPath: string;
  try {
    tokenizerPath = await hubFile({ repoType: 'model', repo: id, revision: rev, path: TOKENIZER_FILE }, { signal });
  } catch (err) {
    if (err instanceof HubEntryNotFoundError) throw await noTokenizerJson(id, rev, signal);
    throw withPrefix(err, `tokenizer '${id}': `);
  }
  let configPath: string | null = null;
  try {
    configPath = await hubFile({ repoType: 'model', repo: id, revision: rev, path: CONFIG_FILE }, { signal });
  } catch (err) {
    if (!(err instanceof HubEntryNotFoundError)) throw withPrefix(err, `tokenizer '${id}': `);
  }
  return { tokenizerPath, configPath };
}

/**
 * resolveTokenizerSpec, and for an `org/name` that no local place holds, the Hub: a path, a folder, the
 * Hugging Face cache, an npm package, then a download into the cache.
 */
export async function resolveTokenizer(
  spec: string | undefined,
  revision: string | null = null,
  signal?: AbortSignal,
): Promise<ResolvedTokenizer> {
  try {
    return resolveTokenizerSpec(spec, revision);
  } catch (err) {
    if (!(err instanceof TokenizerLoadError) || spec === undefined || !isHubModelId(spec)) throw err;
  }
  return downloadTokenizer(spec, revision, signal);
}

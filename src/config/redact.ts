// Secrets never reach an artifact or a log: this is the one place that strips them.
import type { RunConfig } from './types.js';

const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|cookie|set-cookie)$|token|secret|key/i;

export const REDACTED = '<redacted>';

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isSecretHeader(k) ? REDACTED : v;
  return out;
}

/** The config as it may be written to artifacts. */
export function redactConfig(cfg: RunConfig): Record<string, unknown> {
  return {
    ...cfg,
    api_key: cfg.api_key === null ? null : REDACTED,
    headers: redactHeaders(cfg.headers),
  };
}

/** Remove any occurrence of the given secrets from a message before it is logged or stored. */
export function scrubSecrets(text: string, secrets: readonly (string | null)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  return out;
}

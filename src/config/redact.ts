// Which values of a run config are secret, and the config as it may be written. Every header value
// is a secret except those of a short allow-list of names that never carry one; the scrubbing of
// free text and artifacts is src/secrets.ts's.
import { isHarmlessHeader, REDACTED } from '../secrets.js';
import { basicToken } from '../endpoints/auth.js';
import type { RunConfig } from './types.js';

export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isHarmlessHeader(k) ? v : REDACTED;
  return out;
}

/** The config as it may be written to artifacts. */
export function redactConfig(cfg: RunConfig): Record<string, unknown> {
  return {
    ...cfg,
    api_key: cfg.api_key === null ? null : REDACTED,
    headers: redactHeaders(cfg.headers),
    url_credentials: cfg.url_credentials === null ? null : REDACTED,
    // Every --url's credentials are secret.
    targets: { ...cfg.targets, urls: cfg.targets.urls.map((u) => ({ url: u.url, credentials: u.credentials === null ? null : REDACTED })) },
  };
}

/** "Bearer X" → X; "Basic b64" → also the decoded user:pass and the password (a server may echo any of them). */
function credentialParts(value: string): string[] {
  const m = /^(\S+)\s+(\S+)$/.exec(value.trim());
  if (!m) return [];
  const out = [m[2]];
  if (m[1].toLowerCase() === 'basic') {
    const pair = Buffer.from(m[2], 'base64').toString('utf8');
    const i = pair.indexOf(':');
    if (i > 0) out.push(pair, pair.slice(i + 1));
  }
  return out;
}

/** Every secret value a run knows: to be scrubbed from every string it writes (src/secrets.ts). */
export function secretsOf(cfg: RunConfig): string[] {
  const out: string[] = [];
  if (cfg.api_key !== null) out.push(cfg.api_key);
  for (const [name, value] of Object.entries(cfg.headers)) {
    if (isHarmlessHeader(name)) continue;
    out.push(value, ...credentialParts(value));
  }
  const creds = [cfg.url_credentials, ...cfg.targets.urls.map((u) => u.credentials)];
  for (const c of creds) {
    if (c === null) continue;
    out.push(`${c.username}:${c.password}`, basicToken(c));
    if (c.password !== '') out.push(c.password);
  }
  return out;
}

/** The proxy variables a transport may read: their credentials are secrets too (never printed). */
const PROXY_VARS = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy'];

/** The credentials of proxy URLs in the environment, in the forms secretsOf gives URL credentials. */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const name of PROXY_VARS) {
    const raw = env[name];
    if (!raw) continue;
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      continue;
    }
    if (u.username === '' && u.password === '') continue;
    const c = { username: safeDecode(u.username), password: safeDecode(u.password) };
    out.push(`${c.username}:${c.password}`, basicToken(c));
    if (c.password !== '') out.push(c.password);
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

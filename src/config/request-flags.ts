// The flags that shape each request: --url (credentials taken apart), -H/--header, --extra-inputs.
import { badFlag as bad } from '../errors.js';
import type { UrlCredentials } from '../endpoints/auth.js';

/** Strips user:pass@ from a URL-like text, so that no message echoes it. */
function withoutUserinfo(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
}

/** --url: origin + base path (endpoint paths are appended to it), and its credentials apart (sent as Basic auth, endpoints/auth.ts). */
export function parseUrl(raw: string): { url: string; credentials: UrlCredentials | null } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    bad('url', `not a URL: ${JSON.stringify(withoutUserinfo(raw))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') bad('url', `only http:// and https:// are supported, got ${u.protocol}`);
  let credentials: UrlCredentials | null = null;
  if (u.username !== '' || u.password !== '') {
    try {
      credentials = { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
    } catch {
      bad('url', 'the credentials in the URL are not valid percent-encoding');
    }
    if (/[\r\n]/.test(credentials.username + credentials.password)) bad('url', 'the credentials in the URL must not contain line breaks');
    u.username = '';
    u.password = '';
  }
  return { url: u.toString().replace(/\/+$/, ''), credentials };
}

export function parseHeaders(list: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const i = String(item).indexOf(':');
    if (i <= 0) bad('header', `expected NAME:VALUE, got ${JSON.stringify(String(item).split(':')[0] + (i < 0 ? '' : ':…'))}`);
    const name = String(item).slice(0, i).trim().toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) bad('header', `invalid header name ${JSON.stringify(name)}`);
    out[name] = String(item)
      .slice(i + 1)
      .trim();
  }
  return out;
}

/** k:v pairs; v is parsed as JSON when it is valid JSON, else kept as a string. */
export function parseExtraInputs(list: readonly string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of list ?? []) {
    const s = String(item);
    const i = s.indexOf(':');
    if (i <= 0) bad('extra-inputs', `expected KEY:VALUE, got ${JSON.stringify(s)}`);
    const key = s.slice(0, i).trim();
    const raw = s.slice(i + 1).trim();
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a bare string */
    }
    out[key] = value;
  }
  return out;
}

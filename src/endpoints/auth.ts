// The Authorization header a run sends, on both transports and in the preflight. Three sources may
// set it; the first present wins: --api-key / $OPENAI_API_KEY (Bearer), credentials in --url
// (Basic, RFC 7617), -H Authorization. A source that is overridden is named in one warning at start.

/** Credentials in --url (http://user:pass@host), percent-decoded. */
export interface UrlCredentials {
  readonly username: string;
  readonly password: string;
}

/** What the Authorization header is made from (config/types.ts RunConfig has these fields). */
export interface AuthSettings {
  readonly api_key: string | null;
  /** -H: extra request headers (lower-cased names). */
  readonly headers: Readonly<Record<string, string>>;
  readonly url_credentials: UrlCredentials | null;
}

/** The Basic token of URL credentials: base64 of user:pass (RFC 7617). */
export function basicToken(c: { username: string; password: string }): string {
  return Buffer.from(`${c.username}:${c.password}`, 'utf8').toString('base64');
}

/** The request headers of cfg (-H), with the Authorization header resolved as above. */
export function authHeaders(cfg: AuthSettings): Record<string, string> {
  const out: Record<string, string> = { ...cfg.headers };
  if (cfg.api_key !== null) out.authorization = `Bearer ${cfg.api_key}`;
  else if (cfg.url_credentials !== null) out.authorization = `Basic ${basicToken(cfg.url_credentials)}`;
  return out;
}

/** One warning per source of Authorization that another overrides (values never shown). */
export function authWarnings(cfg: AuthSettings): string[] {
  const given = 'authorization' in cfg.headers;
  const out: string[] = [];
  if (cfg.api_key !== null) {
    const key = '--api-key (or $OPENAI_API_KEY)';
    if (cfg.url_credentials !== null) out.push(`${key} overrides the credentials in --url: they are not sent`);
    if (given) out.push(`${key} overrides -H Authorization: that header is not sent`);
  } else if (cfg.url_credentials !== null && given) {
    out.push('the credentials in --url override -H Authorization: that header is not sent');
  }
  return out;
}

// Where a request goes under the base URL: the endpoint path joins the base path, and the base URL's
// query string (`http://host/prefix?api-version=1`) is kept on every request, the preflight included.

/** The origin-form request target (`/prefix/v1/models?q=1`) of `path` under `baseUrl`. */
export function requestTarget(baseUrl: string | URL, path: string): string {
  const u = typeof baseUrl === 'string' ? new URL(baseUrl) : baseUrl;
  const q = path.indexOf('?');
  const own = q >= 0 ? path.slice(q + 1) : '';
  const p = q >= 0 ? path.slice(0, q) : path;
  const base = u.pathname.replace(/\/+$/, '');
  const joined = base + (p === '' || p.startsWith('/') ? p : '/' + p);
  // The endpoint's own query parameters (if any) come first, then the base URL's.
  const query = [own, u.search.slice(1)].filter((s) => s !== '').join('&');
  return (joined === '' ? '/' : joined) + (query === '' ? '' : '?' + query);
}

/** The absolute URL of `path` under `baseUrl` (credentials and fragment left out). */
export function endpointUrl(baseUrl: string, path: string): string {
  const u = new URL(baseUrl);
  return u.origin + requestTarget(u, path);
}

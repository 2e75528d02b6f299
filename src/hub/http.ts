// The fetch that @huggingface/hub is given. The library makes the requests (its resolve probe, its
// download, its tree listing); this wrapper closes what it leaves open for a cache shared with Python:
// - it keeps the Hub's own answer to the resolve request (X-Repo-Commit, X-Linked-Etag, X-Linked-Size),
//   which a followed redirect to the file host would hide: redirects are followed here, by hand;
// - the token goes to the Hub's origin only, never to the host a redirect leads to;
// - every error answer becomes one coded error (huggingface_hub's hf_raise_for_status rules), and a
//   request that gets no answer becomes HubNetworkError.
import {
  HubEntryNotFoundError,
  HubGatedRepoError,
  HubNetworkError,
  HubRepoNotFoundError,
  HubResponseError,
  HubRevisionNotFoundError,
} from '../errors.js';
import { scrub } from '../secrets.js';
import { servebenchVersion } from '../version.js';
import type { RepoType } from './cache.js';

const MAX_REDIRECTS = 5;

export interface HubTarget {
  repoType: RepoType;
  repo: string;
  revision: string;
  /** The file asked for (null: a listing). */
  path: string | null;
}

/** What the Hub said about a resolved file, before any redirect. */
export interface ResolveHeaders {
  commit: string | null;
  etag: string | null;
  size: number | null;
}

/** huggingface_hub's _normalize_etag: no weak prefix, no quotes. */
export function normalizeEtag(etag: string | null): string | null {
  if (etag === null) return null;
  const e = etag.replace(/^W\//, '').replace(/^"|"$/g, '');
  return e === '' ? null : e;
}

export function describeRepo(t: HubTarget): string {
  return `${t.repoType} repo ${t.repo}`;
}

export class HubFetch {
  readonly origin: string;
  /** The first answer of the Hub's origin that named a commit (the resolve of the file). */
  resolved: ResolveHeaders | null = null;
  /** The coded error last thrown from inside the library (its streams report errors as bare strings). */
  failure: Error | null = null;

  constructor(
    readonly endpoint: string,
    private readonly token: string | null,
    /** Where the token file is looked for (for the messages). */
    private readonly tokenPath: string,
    private readonly target: HubTarget,
    private readonly signal?: AbortSignal,
  ) {
    this.origin = new URL(endpoint).origin;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return this.follow(url, init ?? {}, 0);
  };

  /**
   * One request, and its redirects. The library's own Authorization (a Xet storage token, for that
   * storage's host) stays on its request; once a redirect leaves the first request's origin, no
   * Authorization follows (the fetch standard's rule), except ours on the Hub's own origin.
   */
  private async follow(url: URL, init: RequestInit, hops: number, first: URL = url): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('user-agent', `servebench/${servebenchVersion()}; hf_hub/js`);
    if (url.origin !== first.origin) headers.delete('authorization');
    if (url.origin === this.origin && this.token !== null) headers.set('authorization', `Bearer ${this.token}`);
    let res: Response;
    try {
      res = await fetch(url, { ...init, headers, redirect: 'manual', signal: this.signal ?? init.signal });
    } catch (err) {
      if (this.signal?.aborted) throw err;
      throw this.fail(
        new HubNetworkError(
          `Hugging Face Hub: no answer from ${url.origin} for ${describeRepo(this.target)} (${causeOf(err)}); ` +
            'set HF_ENDPOINT if the Hub is elsewhere, or fill the cache on a machine with network and use it with HF_HUB_OFFLINE=1',
        ),
      );
    }
    if (url.origin === this.origin && this.resolved === null && res.headers.has('x-repo-commit')) {
      const size = Number(res.headers.get('x-linked-size'));
      this.resolved = {
        commit: res.headers.get('x-repo-commit'),
        etag: normalizeEtag(res.headers.get('x-linked-etag') ?? res.headers.get('etag')),
        size: res.headers.has('x-linked-size') && Number.isSafeInteger(size) && size >= 0 ? size : null,
      };
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location !== null) {
      await res.body?.cancel();
      if (hops >= MAX_REDIRECTS)
        throw this.fail(new HubResponseError(`Hugging Face Hub: more than ${MAX_REDIRECTS} redirects from ${url.origin}`));
      // What the library asked (Range, Accept) goes along; the headers above are set again for the new URL.
      return this.follow(new URL(location, url), init, hops + 1, first);
    }
    if (!res.ok) throw this.fail(await this.errorOf(res, url));
    return res;
  }

  private fail(err: Error): Error {
    this.failure = err;
    return err;
  }

  /** One coded error for an error answer, as huggingface_hub's hf_raise_for_status tells them apart. */
  private async errorOf(res: Response, url: URL): Promise<Error> {
    const code = res.headers.get('x-error-code');
    const serverMessage = res.headers.get('x-error-message');
    await res.body?.cancel();
    const t = this.target;
    const repo = describeRepo(t);
    const tokenSource = `HF_TOKEN or the token file of \`hf auth login\` (${this.tokenPath})`;
    if (code === 'RevisionNotFound') return new HubRevisionNotFoundError(`Hugging Face Hub: ${repo} has no revision '${t.revision}'`);
    if (code === 'EntryNotFound')
      return new HubEntryNotFoundError(`Hugging Face Hub: ${repo} has no file '${t.path ?? ''}' at revision '${t.revision}'`);
    if (code === 'GatedRepo') {
      const page = `${this.endpoint}/${t.repoType === 'dataset' ? 'datasets/' : ''}${t.repo}`;
      const why =
        this.token === null
          ? `no token was given: put a token of an account with access in ${tokenSource}`
          : `the token given (${tokenSource}) has no access to it: request access with that account`;
      return new HubGatedRepoError(`Hugging Face Hub: ${repo} is gated; request access at ${page}; ${why}`);
    }
    if (code === 'RepoNotFound' || res.status === 401) {
      const refused = serverMessage !== null && /invalid credentials/i.test(serverMessage);
      return new HubRepoNotFoundError(
        refused
          ? `Hugging Face Hub: the token in ${tokenSource} was refused (invalid credentials) asking for ${repo}`
          : `Hugging Face Hub: no ${repo} at ${this.endpoint}: check the id; a private repo needs a token with access in ${tokenSource}`,
      );
    }
    const detail = serverMessage === null ? '' : `: ${scrub(serverMessage)}`;
    return new HubResponseError(`Hugging Face Hub: ${url.origin}${url.pathname} answered ${res.status} for ${repo}${detail}`);
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message ?? String(err);
}

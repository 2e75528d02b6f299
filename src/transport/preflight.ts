// Before the first request: is the server there, and which model does it serve?
import { Agent, ProxyAgent, request } from 'undici';
import { InvalidArgumentError, TlsVerifyError, UnreachableServerError } from '../errors.js';
import type { TlsSettings } from './tls.js';
import { proxySetting } from './select.js';
import { NO_TLS_SETTINGS, tlsReasonOfCode, undiciTls, VERIFY_REASONS } from './tls.js';
import { endpointUrl } from './url.js';

export interface PreflightResult {
  /** The first model listed by GET /v1/models, if the server lists any. */
  firstModel: string | null;
}

/** Any HTTP answer means reachable; a connection failure is exit code 2 before the run starts. */
export async function preflight(
  baseUrl: string,
  headers: Record<string, string>,
  timeoutMs = 10_000,
  env: NodeJS.ProcessEnv = process.env,
  tls: TlsSettings = NO_TLS_SETTINGS,
): Promise<PreflightResult> {
  const url = endpointUrl(baseUrl, '/v1/models');
  // Through the proxy the run's requests will use, if any (a bad proxy value is bad input here, before anything is sent),
  // with the TLS settings the run's connections will use.
  const proxy = proxySetting(new URL(baseUrl), env);
  const connect = undiciTls(new URL(baseUrl), tls);
  const dispatcher = proxy ? new ProxyAgent({ uri: proxy.uri, requestTls: connect }) : new Agent({ connect });
  try {
    const res = await request(url, { method: 'GET', headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, dispatcher });
    const text = await res.body.text();
    if (res.statusCode !== 200) return { firstModel: null };
    try {
      const data = (JSON.parse(text) as { data?: { id?: unknown }[] }).data;
      const id = Array.isArray(data) ? data[0]?.id : undefined;
      return { firstModel: typeof id === 'string' && id !== '' ? id : null };
    } catch {
      return { firstModel: null };
    }
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // A proxy's refusal is in the message (e.g. "Proxy response (407) !== 200 when HTTP Tunneling"), never its URL.
    const why = proxy ? (e.message ?? e.code ?? String(err)) : (e.code ?? e.message ?? String(err));
    const via = proxy ? ` through the proxy in ${proxy.variable}` : '';
    // A certificate that does not verify fails every request alike: one clear line, exit 2.
    const reason = tlsReasonOfCode(e.code ?? '');
    if (reason !== null && VERIFY_REASONS.has(reason))
      throw new TlsVerifyError(
        `cannot reach ${baseUrl}${via}: TLS certificate verification failed: ${reason} (${e.code}); --ca-cert FILE trusts its CA, --insecure skips the check`,
      );
    if (reason !== null) throw new UnreachableServerError(`cannot reach ${baseUrl}${via}: TLS handshake failed: ${reason} (${e.code})`);
    throw new UnreachableServerError(`cannot reach ${baseUrl}${via}: ${why}`);
  } finally {
    await dispatcher.close();
  }
}

export function requireModel(model: string, pre: PreflightResult): string {
  if (model !== '') return model;
  if (pre.firstModel !== null) return pre.firstModel;
  throw new InvalidArgumentError('--model: required (the server did not list a model at GET /v1/models)');
}

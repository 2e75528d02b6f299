// Before the run, for the endpoint types that are not chat or completions (a server that serves
// chat may well not serve embeddings, rerank, Responses or Messages): one POST of an empty JSON
// object to the run's path. A server that has the route rejects the body (400/422) without
// generating anything; 404 or 405 means it does not serve that path, which is bad input (exit 2)
// rather than a run of error records. Any other answer, or none, leaves the decision to the run.
import { Agent, ProxyAgent, request } from 'undici';
import type { TlsSettings } from './tls.js';
import { EndpointNotServedError } from '../errors.js';
import { proxySetting } from './select.js';
import { NO_TLS_SETTINGS, undiciTls } from './tls.js';
import { endpointUrl } from './url.js';

export async function probeEndpoint(
  baseUrl: string,
  path: string,
  type: string,
  headers: Record<string, string>,
  timeoutMs = 10_000,
  env: NodeJS.ProcessEnv = process.env,
  tls: TlsSettings = NO_TLS_SETTINGS,
): Promise<void> {
  // The proxy and TLS settings the run's requests will use (as the preflight).
  const proxy = proxySetting(new URL(baseUrl), env);
  const connect = undiciTls(new URL(baseUrl), tls);
  const dispatcher = proxy ? new ProxyAgent({ uri: proxy.uri, requestTls: connect }) : new Agent({ connect });
  let status: number;
  try {
    const res = await request(endpointUrl(baseUrl, path), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher,
    });
    status = res.statusCode;
    await res.body.dump();
  } catch {
    return;
  } finally {
    await dispatcher.close();
  }
  if (status === 404 || status === 405)
    throw new EndpointNotServedError(
      `--endpoint-type ${type}: the server does not serve POST ${path} (HTTP ${status}); give --endpoint if it serves it elsewhere`,
    );
}

// Renders a credit into the bytes and headers a transport sends.
import { authHeaders } from '../config/auth.js';
import type { RunConfig } from '../config/types.js';
import type { Credit } from '../model/credit.js';
import type { PreparedRequest } from '../transport/types.js';
import type { EndpointAdapter } from './types.js';

/**
 * The headers of every request and the preflight: -H and the Authorization of config/auth.ts, or,
 * for an API with its own scheme (adapter.authHeaders), that scheme in place of the Bearer key.
 */
export function requestAuthHeaders(cfg: RunConfig, adapter: EndpointAdapter): Record<string, string> {
  const out = authHeaders(cfg);
  if (!adapter.authHeaders) return out;
  if (cfg.api_key !== null) delete out.authorization;
  return { ...out, ...adapter.authHeaders(cfg) };
}

export class RequestBuilder {
  private readonly baseHeaders: Record<string, string>;

  constructor(
    private readonly cfg: RunConfig,
    private readonly adapter: EndpointAdapter,
  ) {
    this.baseHeaders = {
      'content-type': 'application/json',
      accept: cfg.streaming ? 'text/event-stream' : 'application/json',
      ...requestAuthHeaders(cfg, adapter),
    };
  }

  build(credit: Credit): PreparedRequest {
    const headers: Record<string, string> = { ...this.baseHeaders, 'x-request-id': credit.x_request_id };
    let body: Buffer;
    if (this.adapter.buildRawBody) {
      const raw = this.adapter.buildRawBody(credit.turn, this.cfg);
      body = raw.body;
      headers['content-type'] = raw.contentType;
    } else body = Buffer.from(JSON.stringify(this.adapter.buildBody(credit.turn, this.cfg)));
    return { path: this.cfg.endpoint, headers, body, streaming: this.cfg.streaming };
  }
}

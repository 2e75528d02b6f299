// Renders a credit into the bytes and headers a transport sends.
import { authHeaders, type AuthSettings } from './auth.js';
import type { Credit } from '../model/credit.js';
import type { BodySettings, EndpointAdapter } from './types.js';

/** One request rendered for the wire: what a transport sends for a credit. */
export interface RenderedRequest {
  /** Path appended to the target's base URL. */
  path: string;
  /** Header names lower-cased; already includes auth and X-Request-ID. */
  headers: Record<string, string>;
  /** The rendered JSON body. */
  body: Buffer;
  streaming: boolean;
}

/** What rendering a request reads of the run (config/types.ts RunConfig has these fields). */
export type RequestSettings = BodySettings &
  AuthSettings & {
    /** Request path, e.g. /v1/chat/completions. */
    readonly endpoint: string;
  };

/**
 * The headers of every request and the preflight: -H and the Authorization of auth.ts, or,
 * for an API with its own scheme (adapter.authHeaders), that scheme in place of the Bearer key.
 */
export function requestAuthHeaders(
  cfg: AuthSettings & Pick<BodySettings, 'endpoint_settings'>,
  adapter: EndpointAdapter,
): Record<string, string> {
  const out = authHeaders(cfg);
  if (!adapter.authHeaders) return out;
  if (cfg.api_key !== null) delete out.authorization;
  return { ...out, ...adapter.authHeaders(cfg) };
}

export class RequestBuilder {
  private readonly baseHeaders: Record<string, string>;

  constructor(
    private readonly cfg: RequestSettings,
    private readonly adapter: EndpointAdapter,
  ) {
    this.baseHeaders = {
      'content-type': 'application/json',
      accept: cfg.streaming ? 'text/event-stream' : 'application/json',
      ...requestAuthHeaders(cfg, adapter),
    };
  }

  build(credit: Credit): RenderedRequest {
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

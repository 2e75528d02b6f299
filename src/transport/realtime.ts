// The OpenAI Realtime API over WebSocket (--endpoint-type realtime), on the `ws` client: one socket
// per request to <url><endpoint>?model=…, the adapter's client events sent on open (each send
// stamped: sent_ns), every server event stamped on arrival and kept as a payload (event_data), up
// to response.done. Stamps are taken on the JS thread, as the undici transport's are; there is no
// native path for WebSocket.
import WebSocket from 'ws';
import type { Credit } from '../model/credit.js';
import type { RawRecord, RecordError } from '../model/raw-record.js';
import type { RenderedRequest } from '../endpoints/request.js';
import type { Transport } from './types.js';

export interface RealtimeTransportOptions {
  baseUrl: string;
  requestTimeoutMs: number;
}

/** Header names the socket's handshake sets itself, or that describe the HTTP body it does not have. */
const DROPPED = new Set(['content-type', 'accept', 'content-length', 'host', 'connection', 'upgrade']);

/** The server events that end a request: the response's end, or an error (the adapter words it). */
const ENDS = new Set(['response.done', 'error']);

export class RealtimeTransport implements Transport {
  readonly name = 'realtime';
  /** Each open socket and what cancels its request. */
  private readonly open = new Map<WebSocket, () => void>();
  private closed = false;

  constructor(private readonly opts: RealtimeTransportOptions) {}

  /** ws:// (wss://) URL of a request: the base URL's scheme swapped, the model as a query parameter. */
  socketUrl(path: string, model: string): string {
    const u = new URL(this.opts.baseUrl.replace(/\/+$/, '') + path);
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    if (model !== '' && !u.searchParams.has('model')) u.searchParams.set('model', model);
    return u.toString();
  }

  send(credit: Credit, req: RenderedRequest, signal?: AbortSignal | null): Promise<RawRecord> {
    return new Promise<RawRecord>((resolve) => {
      const start_ns = process.hrtime.bigint();
      const event_data: string[] = [];
      const event_ns: bigint[] = [];
      const sent_ns: bigint[] = [];
      let bytes_sent = 0;
      let bytes_received = 0;
      let http_status: number | null = null;
      let settled = false;
      const body = JSON.parse(req.body.toString('utf8')) as { events?: unknown[] };
      const events = Array.isArray(body.events) ? body.events : [];
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!DROPPED.has(k)) headers[k] = v;

      const finish = (error: RecordError | null, cancelled = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.open.delete(ws);
        ws.removeAllListeners();
        ws.on('error', () => {});
        if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
        resolve({
          credit,
          start_ns,
          end_ns: event_ns.length > 0 && error === null ? event_ns[event_ns.length - 1] : process.hrtime.bigint(),
          http_status,
          status: cancelled ? 'cancelled' : error ? 'error' : 'ok',
          error,
          streaming: true,
          event_data,
          event_ns,
          event_type: event_data.map(() => ''),
          body: null,
          bytes_sent,
          bytes_received,
          trace: null,
          sent_ns,
        });
      };
      const onAbort = () => finish({ type: 'cancelled', message: 'cancelled', http_status: null }, true);

      const model = credit.target?.model ?? '';
      const ws = new WebSocket(this.socketUrl(req.path, model), { headers, handshakeTimeout: this.opts.requestTimeoutMs });
      this.open.set(ws, onAbort);
      const timer = setTimeout(
        () => finish({ type: 'timeout', message: `no response.done within ${this.opts.requestTimeoutMs} ms`, http_status }),
        this.opts.requestTimeoutMs,
      );
      if (this.closed) return onAbort();
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });

      ws.on('upgrade', (res) => {
        http_status = res.statusCode ?? 101;
      });
      ws.on('unexpected-response', (_req, res) => {
        http_status = res.statusCode ?? null;
        const s = http_status ?? 0;
        const type = s >= 500 ? 'http_5xx' : s >= 400 ? 'http_4xx' : '_OTHER';
        finish({ type, message: `the server answered the WebSocket upgrade with HTTP ${s}`, http_status });
      });
      ws.on('open', () => {
        for (const e of events) {
          const text = JSON.stringify(e);
          sent_ns.push(process.hrtime.bigint());
          bytes_sent += Buffer.byteLength(text);
          ws.send(text);
        }
      });
      ws.on('message', (data, isBinary) => {
        const ns = process.hrtime.bigint();
        const text = isBinary ? '' : String(data);
        bytes_received += Buffer.isBuffer(data) ? data.length : text.length;
        event_data.push(text);
        event_ns.push(ns);
        // The adapter reads every event (errors included); the socket's job ends with the response.
        if (ends(text)) finish(null);
      });
      ws.on('error', (err) => finish({ type: 'connection', message: err.message, http_status }));
      ws.on('close', (code) => {
        if (!settled) finish({ type: 'connection', message: `the socket closed (code ${code}) before response.done`, http_status });
      });
    });
  }

  cancelAll(): void {
    for (const cancel of [...this.open.values()]) cancel();
  }

  close(): Promise<void> {
    this.closed = true;
    this.cancelAll();
    return Promise.resolve();
  }
}

function ends(text: string): boolean {
  try {
    const t = (JSON.parse(text) as { type?: unknown } | null)?.type;
    return typeof t === 'string' && ENDS.has(t);
  } catch {
    return false;
  }
}

// HTTP trace collection for the undici transport: request phases from undici's diagnostics channels
// (request:create, client:sendHeaders, request:bodyChunkSent, request:bodySent, request:headers),
// connection setup from socket events seen through a wrapping connector (connect start, 'lookup',
// handshake done), byte counts from the socket's own counters. Every stamp is process.hrtime.bigint()
// taken on the JS thread when undici reports the event. The result is a transport-neutral HttpTrace.
import diagnosticsChannel from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import type { HttpTrace } from '../model/raw-record.js';

interface ConnectionInfo {
  connect_start_ns: bigint;
  dns_end_ns: bigint | null;
  connect_end_ns: bigint | null;
  /** https: the handshake's start (TCP connected) and end. */
  tls_start_ns?: bigint;
  tls_end_ns?: bigint;
  /** Requests sent on this connection so far. */
  used: number;
}

/** One request's trace while it is in flight. */
export class TraceState {
  readonly trace: HttpTrace = {
    connection_reused: false,
    connect_start_ns: null,
    dns_end_ns: null,
    connect_end_ns: null,
    send_start_ns: null,
    send_end_ns: null,
    first_byte_ns: null,
    bytes_sent: null,
    bytes_received: null,
    chunks_sent: null,
    chunks_received: null,
  };
  socket: Socket | null = null;
  bytesWritten0 = 0;
  bytesRead0 = 0;
  bodyChunks = 0;

  constructor(readonly id: string) {}
}

// undici's request object, as far as the channels expose it.
interface UndiciRequest {
  headers: unknown;
}

const REQUEST_ID = 'x-request-id';

/** The X-Request-ID of an undici request (headers are a flat [name, value, ...] array in undici 7). */
function requestIdOf(req: UndiciRequest): string | null {
  const h = req.headers;
  if (Array.isArray(h)) {
    for (let i = 0; i + 1 < h.length; i += 2) {
      const name: unknown = h[i];
      // Length first: most header names are not 12 characters, so few get lower-cased.
      if (typeof name === 'string' && name.length === REQUEST_ID.length && name.toLowerCase() === REQUEST_ID) return String(h[i + 1]);
    }
  } else if (typeof h === 'string') {
    const m = /(?:^|\r\n)x-request-id:\s*([^\r\n]*)/i.exec(h);
    if (m) return m[1];
  }
  return null;
}

type ConnectorCallback = (err: Error | null, socket: Socket | null) => void;
type Connector = (opts: Record<string, unknown>, cb: ConnectorCallback) => unknown;

/**
 * Subscribes to undici's channels for the lifetime of one transport. Requests are matched by their
 * X-Request-ID (every request the builder makes has a unique one); events of requests this tracer did
 * not begin (another transport in the process) are ignored.
 */
export class UndiciTracer {
  private readonly byId = new Map<string, TraceState>();
  private readonly byRequest = new WeakMap<object, TraceState>();
  private readonly connections = new WeakMap<object, ConnectionInfo>();
  private readonly subscriptions: [string, (msg: unknown) => void][] = [];

  constructor() {
    this.on('undici:request:create', (m: { request: UndiciRequest }) => {
      const id = requestIdOf(m.request);
      const state = id === null ? undefined : this.byId.get(id);
      if (state) this.byRequest.set(m.request, state);
    });
    this.on('undici:client:sendHeaders', (m: { request: object; socket: Socket }) => {
      const state = this.byRequest.get(m.request);
      if (!state) return;
      const now = process.hrtime.bigint();
      const t = state.trace;
      t.send_start_ns = now;
      state.socket = m.socket;
      // Published right before the first byte is written: the socket counters are still this request's baseline.
      state.bytesWritten0 = m.socket.bytesWritten ?? 0;
      state.bytesRead0 = m.socket.bytesRead ?? 0;
      const conn = this.connections.get(m.socket);
      if (conn && conn.used === 0) {
        t.connection_reused = false;
        t.connect_start_ns = conn.connect_start_ns;
        t.dns_end_ns = conn.dns_end_ns;
        t.connect_end_ns = conn.connect_end_ns;
        if (conn.tls_end_ns !== undefined) {
          t.tls_start_ns = conn.tls_start_ns ?? null;
          t.tls_end_ns = conn.tls_end_ns;
        }
      } else {
        // A connection we did not see open (no connector stamps) is treated as reused: no setup phases.
        t.connection_reused = true;
      }
      if (conn) conn.used++;
    });
    this.on('undici:request:bodyChunkSent', (m: { request: object }) => {
      const state = this.byRequest.get(m.request);
      if (state) state.bodyChunks++;
    });
    this.on('undici:request:bodySent', (m: { request: object }) => {
      const state = this.byRequest.get(m.request);
      if (!state) return;
      state.trace.send_end_ns = process.hrtime.bigint();
      if (state.socket) state.trace.bytes_sent = (state.socket.bytesWritten ?? 0) - state.bytesWritten0;
      // The head is one write; each body chunk another.
      state.trace.chunks_sent = 1 + state.bodyChunks;
    });
    this.on('undici:request:headers', (m: { request: object }) => {
      const state = this.byRequest.get(m.request);
      if (state && state.trace.first_byte_ns === null) state.trace.first_byte_ns = process.hrtime.bigint();
    });
  }

  private on<T>(name: string, fn: (msg: T) => void): void {
    const handler = fn as (msg: unknown) => void;
    diagnosticsChannel.subscribe(name, handler);
    this.subscriptions.push([name, handler]);
  }

  /**
   * A connector for the pool's `connect` option: undici's own, with the connection's setup stamped
   * (start, name resolved, handshake done) so the first request sent on it can report them.
   */
  connector(options: buildConnector.BuildOptions): buildConnector.connector {
    const base = buildConnector(options) as unknown as Connector;
    const connections = this.connections;
    const connect: Connector = (opts, cb) => {
      const info: ConnectionInfo = { connect_start_ns: process.hrtime.bigint(), dns_end_ns: null, connect_end_ns: null, used: 0 };
      const socket = base(opts, (err, sock) => {
        if (!err && sock) {
          const now = process.hrtime.bigint();
          // https: TCP ended at 'connect'; the handshake ran from there to now.
          if (info.tls_start_ns !== undefined) info.tls_end_ns = now;
          else info.connect_end_ns = now;
          connections.set(sock, info);
        }
        cb(err, sock);
      }) as Socket | undefined;
      socket?.once?.('lookup', () => {
        info.dns_end_ns = process.hrtime.bigint();
      });
      if (opts.protocol === 'https:')
        socket?.once?.('connect', () => {
          info.connect_end_ns = info.tls_start_ns = process.hrtime.bigint();
        });
      return socket;
    };
    return connect as unknown as buildConnector.connector;
  }

  /** Start tracing the request carrying this X-Request-ID (before dispatching it). */
  begin(requestId: string): TraceState {
    const state = new TraceState(requestId);
    this.byId.set(requestId, state);
    return state;
  }

  /** Stop tracing; returns the trace, with the response's byte count and delivered chunk count. */
  end(state: TraceState, chunksReceived: number): HttpTrace {
    this.byId.delete(state.id);
    const t = state.trace;
    if (state.socket && t.send_start_ns !== null) t.bytes_received = (state.socket.bytesRead ?? 0) - state.bytesRead0;
    t.chunks_received = chunksReceived;
    state.socket = null;
    return t;
  }

  close(): void {
    for (const [name, handler] of this.subscriptions) diagnosticsChannel.unsubscribe(name, handler);
    this.subscriptions.length = 0;
    this.byId.clear();
  }
}

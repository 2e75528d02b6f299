// Per-connection bookkeeping for the undici transport, installed through its connector:
// - an interim `100 Continue` head is dropped before undici's parser sees it: undici 7's HTTP/1.1
//   client destroys the socket on a 100 it did not ask for, where native/wire/http1.cc skips every 1xx
//   (undici handles the other 1xx itself);
// - which connection each request went out on, whether an earlier request had used it, and how many
//   bytes it had read by then. A request whose kept-alive connection closed before one byte of its
//   response came is one the server never answered: the transport re-sends it once, as the native
//   engine does (IoLoop::ConnFailed in native/engine/engine_loop_conn.cc).
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';

/** One request's go on a connection, filled in when undici writes its head. */
export interface Attempt {
  socket: Socket | null;
  /** An earlier request had used the connection. */
  reused: boolean;
  /** socket.bytesRead when the head was written. */
  readAtHead: number;
}

export function newAttempt(): Attempt {
  return { socket: null, reused: false, readAtHead: 0 };
}

interface Conn {
  requests: number;
  /** A request was written and no byte of its response has been passed on yet. */
  awaitingHead: boolean;
  /** Bytes held back while deciding whether they start a 100 Continue head. */
  held: Buffer | null;
}

/** The head undici writes for a request (one string: request line, headers, blank line). */
const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.1\r\n/;
const CONTINUE = Buffer.from('HTTP/1.1 100');
/** A 100 head longer than this is left to undici, which fails it. */
const MAX_INTERIM = 16 * 1024;

/** 'more': cannot tell yet; 'other': not a 100 head; n: a whole 100 head of n bytes leads the buffer. */
function interim(b: Buffer): 'more' | 'other' | number {
  const n = Math.min(b.length, CONTINUE.length);
  for (let i = 0; i < n; i++) {
    // HTTP/1.0 or HTTP/1.1
    if (b[i] !== CONTINUE[i] && !(i === 7 && b[i] === 0x30)) return 'other';
  }
  if (b.length <= CONTINUE.length) return 'more';
  const next = b[CONTINUE.length];
  if (next !== 0x20 && next !== 0x0d && next !== 0x0a) return 'other';
  const crlf = b.indexOf('\r\n\r\n');
  const lf = b.indexOf('\n\n');
  const ends = [crlf < 0 ? -1 : crlf + 4, lf < 0 ? -1 : lf + 2].filter((e) => e > 0);
  if (ends.length > 0) return Math.min(...ends);
  return b.length > MAX_INTERIM ? 'other' : 'more';
}

export class ConnectionBook {
  private claim: Attempt | null = null;

  /**
   * From the dispatch handler's onRequestStart: undici writes this request's head next, in the same
   * synchronous call (client-h1 writeH1), so the next head written on any socket is this one's.
   */
  expectHead(a: Attempt): void {
    this.claim = a;
    queueMicrotask(() => {
      if (this.claim === a) this.claim = null;
    });
  }

  /** The connector for the pool's `connect` option: `base`, with every socket it opens watched. */
  connector(base: buildConnector.connector): buildConnector.connector {
    type Connect = (opts: buildConnector.Options, cb: (err: Error | null, socket: Socket | null) => void) => unknown;
    const connect = base as unknown as Connect;
    const wrapped: Connect = (opts, cb) =>
      // The base connector's return value (the socket being opened) goes back to undici unchanged.
      connect(opts, (err, socket) => {
        if (err === null && socket) this.watch(socket);
        cb(err, socket);
      });
    return wrapped as unknown as buildConnector.connector;
  }

  private watch(socket: Socket): void {
    const conn: Conn = { requests: 0, awaitingHead: false, held: null };
    const onHead = () => this.onHead(socket, conn);
    // The socket's own methods, called with it as `this` from the wrappers below.
    const write = socket.write.bind(socket) as (...a: unknown[]) => boolean;
    socket.write = function (chunk: unknown, ...rest: unknown[]): boolean {
      if (typeof chunk === 'string' && REQUEST_LINE.test(chunk)) {
        conn.requests++;
        conn.awaitingHead = true;
        conn.held = null;
        onHead();
      }
      return write(chunk, ...rest);
    };
    const read = socket.read.bind(socket) as (size?: number) => Buffer | null;
    socket.read = function (size?: number): Buffer | null {
      let chunk = read(size);
      if (!conn.awaitingHead) return chunk;
      for (;;) {
        if (chunk !== null) conn.held = conn.held === null ? chunk : Buffer.concat([conn.held, chunk]);
        const held = conn.held;
        if (held === null) return null;
        const v = interim(held);
        if (v === 'other' || (v === 'more' && (socket.readableEnded || socket.destroyed))) {
          conn.awaitingHead = false;
          conn.held = null;
          return held;
        }
        // A whole 100 head: dropped, and what follows it examined in turn.
        if (v !== 'more') conn.held = held.length > v ? held.subarray(v) : null;
        chunk = read(size);
        if (chunk === null && (v === 'more' || conn.held === null)) return null;
      }
    } as Socket['read'];
  }

  private onHead(socket: Socket, conn: Conn): void {
    const a = this.claim;
    if (a === null) return;
    this.claim = null;
    a.socket = socket;
    a.reused = conn.requests > 1;
    a.readAtHead = socket.bytesRead;
  }
}

/** Whether the server provably never answered this go: its reused connection closed before any response byte. */
export function unanswered(a: Attempt): boolean {
  return a.socket !== null && a.reused && a.socket.bytesRead === a.readAtHead;
}

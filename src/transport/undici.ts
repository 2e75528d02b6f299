// The default transport: undici's low-level dispatch API, one pool sized to the concurrency.
// The socket is read on the JS thread, so each chunk is stamped here the moment undici hands it over;
// SSE framing of the buffered chunks happens in one native call per response.
import { buildConnector, Client, Pool, ProxyAgent } from 'undici';
import type { Dispatcher } from 'undici';
import { RequestCancelledError, RequestTimeoutError } from '../errors.js';
import type { Credit } from '../model/credit.js';
import type { RawRecord, RecordError } from '../model/raw-record.js';
import { transportError } from './classify.js';
import { newRecord } from './record.js';
import { frameSse, SseDecoder } from './sse.js';
import { StampColumn } from './stamps.js';
import { setLongTimeout } from '../timers.js';
import { requestTarget } from './url.js';
import { ConnectionBook, newAttempt, unanswered } from './undici-socket.js';
import { UndiciTracer } from './undici-trace.js';
import { SizeGuard } from './size-guard.js';
import type { TlsSettings } from './tls.js';
import { undiciTls } from './tls.js';
import { DEFAULT_SIZE_CAPS } from './types.js';
import type { RenderedRequest } from '../endpoints/request.js';
import type { SizeCaps, StreamDecode, Transport } from './types.js';

export interface UndiciTransportOptions {
  baseUrl: string;
  /** Pool size; null: no limit (open-loop runs open what their schedule needs). */
  connections: number | null;
  requestTimeoutMs: number;
  /** Collect HttpTrace stamps (diagnostics channels + socket events); default true. */
  trace?: boolean;
  /** Decode SSE payloads natively (RawRecord.decoded). */
  decode?: StreamDecode;
  /** --max-response-bytes, --max-event-bytes; absent: the defaults. */
  limits?: SizeCaps;
  /** Send every request through this proxy (HTTP_PROXY & co., see proxySetting in select.ts); null: direct. */
  proxy?: string | null;
  /** https:// origins: --ca-cert, --insecure, --client-cert, --client-key (transport/tls.ts). */
  tls?: TlsSettings;
}

interface InFlight {
  abort(reason: Error): void;
}

export class UndiciTransport implements Transport {
  readonly name = 'undici';
  private readonly pool: Dispatcher;
  private readonly origin: string;
  private readonly base: URL;
  private readonly inFlight = new Set<InFlight>();
  private readonly tracer: UndiciTracer | null;
  private readonly decoder: SseDecoder | null;
  private readonly limits: SizeCaps;
  private readonly book = new ConnectionBook();
  private retried = 0;
  /** The pool's connector, for the one-off connection a re-sent request goes out on. */
  private readonly connect: ReturnType<ConnectionBook['connector']>;
  private readonly resends = new Set<Client>();

  constructor(private readonly opts: UndiciTransportOptions) {
    const u = new URL(opts.baseUrl);
    this.origin = u.origin;
    this.base = u;
    this.tracer = opts.trace === false ? null : new UndiciTracer();
    this.decoder = opts.decode ? new SseDecoder(opts.decode.spec) : null;
    this.limits = opts.limits ?? DEFAULT_SIZE_CAPS;
    const pool = {
      connections: opts.connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      keepAliveMaxTimeout: 600_000,
      // Our own timer enforces --request-timeout-seconds over the whole request.
      headersTimeout: 0,
      bodyTimeout: 0,
    };
    const connectOpts = { timeout: 30_000, ...(opts.tls ? undiciTls(u, opts.tls) : {}) } as buildConnector.BuildOptions;
    this.connect = this.book.connector(this.tracer ? this.tracer.connector(connectOpts) : buildConnector(connectOpts));
    // Through a proxy, undici tunnels (CONNECT) and opens the sockets itself: no connection-setup
    // stamps, no 100 Continue filter, no re-send of unanswered requests.
    this.pool = opts.proxy
      ? new ProxyAgent({ ...pool, uri: opts.proxy, proxyTls: { timeout: 30_000 }, requestTls: connectOpts })
      : new Pool(this.origin, { ...pool, connect: this.connect });
  }

  send(credit: Credit, req: RenderedRequest, signal?: AbortSignal | null): Promise<RawRecord> {
    return new Promise<RawRecord>((resolve) => {
      const chunks: Buffer[] = [];
      const stamps = new StampColumn();
      let status: number | null = null;
      let bytesReceived = 0;
      let controller: Dispatcher.DispatchController | null = null;
      let pendingAbort: Error | null = null;
      let done = false;
      let guard: SizeGuard | null = null;
      // Set when the response passed a cap: the record's error, its chunks dropped.
      let overCap: RecordError | null = null;
      const limits = this.limits;
      let attempt = newAttempt();
      let resent = false;
      // Closes the re-send's own connection once the request is over.
      let once: (() => void) | null = null;
      // Traces are matched to undici's events by X-Request-ID; a request without one is not traced.
      const requestId = req.headers['x-request-id'];
      const traceState = this.tracer && requestId ? this.tracer.begin(requestId) : null;

      const finish = (end_ns: bigint, error: RecordError | null) => {
        if (done) return;
        done = true;
        once?.();
        timer.clear();
        signal?.removeEventListener('abort', onAbort);
        this.inFlight.delete(handle);
        const record = this.buildRecord(credit, req, start_ns, end_ns, status, chunks, stamps, bytesReceived, error);
        if (traceState) record.trace = this.tracer!.end(traceState, stamps.length);
        resolve(record);
      };
      const handle: InFlight = {
        abort: (reason) => {
          if (controller) controller.abort(reason);
          else pendingAbort = reason;
        },
      };
      const timer = setLongTimeout(
        () => handle.abort(new RequestTimeoutError(`request timed out after ${this.opts.requestTimeoutMs / 1000} s`)),
        this.opts.requestTimeoutMs,
      );
      this.inFlight.add(handle);
      const onAbort = () => handle.abort(new RequestCancelledError('cancelled on purpose (--request-cancellation-rate)'));
      if (signal) {
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }

      const book = this.book;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(ctrl) {
          controller = ctrl;
          book.expectHead(attempt);
          if (pendingAbort) ctrl.abort(pendingAbort);
        },
        onResponseStart(_ctrl, statusCode) {
          // 1xx informational responses may precede the real one; keep the last.
          status = statusCode;
          guard = new SizeGuard(limits, req.streaming && statusCode >= 200 && statusCode < 300);
        },
        onResponseData(ctrl, chunk) {
          if (overCap) return;
          const stamp = process.hrtime.bigint();
          bytesReceived += chunk.length;
          overCap = guard?.add(chunk) ?? null;
          if (overCap) {
            // Free what was held now; the record keeps the sizes, not the bytes.
            chunks.length = 0;
            stamps.length = 0;
            ctrl.abort(new Error(overCap.message));
            return;
          }
          stamps.push(stamp);
          chunks.push(chunk);
        },
        onResponseEnd() {
          finish(stamps.length > 0 ? stamps.view()[stamps.length - 1] : process.hrtime.bigint(), null);
        },
        onResponseError: (_ctrl, err) => {
          if (overCap) return finish(process.hrtime.bigint(), { ...overCap, http_status: status });
          const error = transportError(err, status);
          // A kept-alive connection the server closed before one byte of the response: the request
          // was never answered, so it goes once more, on a new connection of its own (the native
          // engine's rule; the pool could hand it another idle one the server is closing too).
          if (!resent && !done && error.type === 'connection' && status === null && chunks.length === 0 && unanswered(attempt)) {
            resent = true;
            this.retried++;
            controller = null;
            attempt = newAttempt();
            const fresh = new Client(this.origin, { pipelining: 1, headersTimeout: 0, bodyTimeout: 0, connect: this.connect });
            this.resends.add(fresh);
            once = () => {
              this.resends.delete(fresh);
              void fresh.close();
            };
            dispatch(fresh);
            return;
          }
          finish(process.hrtime.bigint(), error);
        },
      };

      // start_ns includes any wait for a pooled connection (and connection setup), as a client sees it.
      const start_ns = process.hrtime.bigint();
      const dispatch = (via: Dispatcher = this.pool) => {
        try {
          via.dispatch(
            {
              origin: this.origin,
              path: requestTarget(this.base, req.path),
              method: 'POST',
              headers: req.headers,
              body: req.body,
            },
            handler,
          );
        } catch (err) {
          finish(process.hrtime.bigint(), transportError(err, null));
        }
      };
      dispatch();
    });
  }

  private buildRecord(
    credit: Credit,
    req: RenderedRequest,
    start_ns: bigint,
    end_ns: bigint,
    status: number | null,
    chunks: Buffer[],
    stamps: StampColumn,
    bytesReceived: number,
    error: RecordError | null,
  ): RawRecord {
    const record = newRecord(credit, req, start_ns, end_ns, status, error, bytesReceived, () => Buffer.concat(chunks).toString('utf8'));
    if (record.error) {
      record.body = chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
      // Keep whatever streamed before a mid-stream failure: it is evidence in the raw export.
      if (req.streaming && status !== null && status < 300) this.frame(record, chunks, stamps);
      return record;
    }
    if (req.streaming && status !== null && status < 300 && this.decoder) this.decode(record, chunks, stamps);
    else if (req.streaming) this.frame(record, chunks, stamps);
    else record.body = Buffer.concat(chunks).toString('utf8');
    return record;
  }

  private frame(record: RawRecord, chunks: Buffer[], stamps: StampColumn): void {
    if (chunks.length === 0) return;
    const f = frameSse(chunks, stamps.view());
    record.event_data = f.data;
    record.event_ns = Array.from(f.stamps);
    record.event_type = f.types;
  }

  private decode(record: RawRecord, chunks: Buffer[], stamps: StampColumn): void {
    const d = this.decoder!.decode(chunks, stamps.view(), this.opts.decode!.keepPayloads);
    record.decoded = d.decoded;
    record.event_data = d.data;
    record.event_ns = Array.from(d.stamps);
    record.event_type = d.types;
  }

  /** Counters for the harness report: requests re-sent once after an unanswered kept-alive connection closed. */
  stats(): { retries: number } {
    return { retries: this.retried };
  }

  cancelAll(reason: string): void {
    for (const h of [...this.inFlight]) h.abort(new RequestCancelledError(reason));
  }

  async close(): Promise<void> {
    this.tracer?.close();
    await Promise.all([this.pool.close(), ...[...this.resends].map((c) => c.close())]);
  }
}

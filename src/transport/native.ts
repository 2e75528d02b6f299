// The native transport: requests go to the C++ stream engine (native/engine*.cc), whose I/O
// threads own the sockets, stamp every read at recv() time and frame SSE there, so the JS event
// loop's load never touches a timestamp. Sends made in one turn of the event loop cross to the
// engine as one batch; finished requests come back in batches and become the same RawRecords the
// undici transport produces.
import { callNative, native, type EngineBatch, type EngineTlsOptions, type NativeEngine } from '../native.js';
import type { Credit } from '../model/credit.js';
import type { HttpTrace, RawRecord, RecordError } from '../model/raw-record.js';
import { newRecord } from './record.js';
import { capWaitMs } from '../timers.js';
import type { PreconnectResult, SizeCaps, StreamDecode, Transport } from './types.js';
import type { RenderedRequest } from '../endpoints/request.js';
import { RequestHeads } from './request-head.js';
import { SubmitColumns } from './submit-columns.js';
import { tlsReasonOfMessage, withTlsSubtype } from './tls.js';

export interface NativeTransportOptions {
  baseUrl: string;
  /** Numeric address to connect to (see resolveTarget in select.ts). */
  address: string;
  /** Connection cap, as for undici's pool; null: one per request in flight. */
  connections: number | null;
  requestTimeoutMs: number;
  /** I/O threads (--transport-threads). */
  threads: number;
  /** Scheduling priority of the I/O threads (default realtime, where the kernel allows it). */
  priority?: 'normal' | 'raised' | 'realtime';
  /** --read-coalesce-us: hold-off between looks at the sockets after a read, µs (0: eager). */
  readCoalesceUs?: number;
  /** --kernel-stamps: plain-TCP reads carry the kernel's receive time (default false; Linux). */
  kernelStamps?: boolean;
  /** Decode SSE payloads on the I/O threads (RawRecord.decoded). */
  decode?: StreamDecode;
  /** --max-response-bytes, --max-event-bytes (the engine's defaults when absent). */
  limits?: SizeCaps;
  /** https:// base URLs: the engine's TLS client (transport/tls.ts engineTls). */
  tls?: EngineTlsOptions;
}

/** A request sent and not yet settled; while queued for the next batch, its rendered head is kept too. */
interface Pending {
  id: number;
  credit: Credit;
  req: RenderedRequest;
  resolve: (r: RawRecord) => void;
  cancelReason: string | null;
  /** The request line and headers (latin1), until the batch that carries it goes out. */
  head: string;
}

/** The message of a request cancelled through its own signal (as the undici transport words it). */
const CANCELLED_ON_PURPOSE = 'cancelled on purpose (--request-cancellation-rate)';
/** The oldest send waits at most this long for the rest of its batch. */
const FLUSH_AFTER_NS = 50_000n;

/** Record i's HTTP trace, in the transport-neutral shape the undici transport also gives. */
function traceOf(b: EngineBatch, i: number): HttpTrace {
  const ns = (k: number): bigint | null => {
    const v = b.trace_ns[i * 7 + k];
    return v === 0n ? null : v;
  };
  const n = (k: number) => b.trace_counts[i * 5 + k];
  const sendStart = ns(2);
  return {
    connection_reused: n(0) === 1,
    connect_start_ns: ns(0),
    // Names are resolved once before the run (select.ts), never per connection.
    dns_end_ns: null,
    connect_end_ns: ns(1),
    send_start_ns: sendStart,
    send_end_ns: ns(3),
    first_byte_ns: ns(4),
    tls_start_ns: ns(5),
    tls_end_ns: ns(6),
    bytes_sent: sendStart === null ? null : n(1),
    bytes_received: sendStart === null ? null : n(2),
    chunks_sent: sendStart === null ? null : n(3),
    chunks_received: n(4),
  };
}

export class NativeTransport implements Transport {
  readonly name = 'native';
  private readonly engine: NativeEngine;
  private readonly pending = new Map<number, Pending>();
  private queue: Pending[] = [];
  private flushScheduled = false;
  private queuedSinceNs = 0n;
  private nextId = 1;
  private readonly heads: RequestHeads;
  private closed = false;
  private readonly columns: SubmitColumns;

  constructor(private readonly opts: NativeTransportOptions) {
    const Engine = native.Engine;
    if (!Engine) throw new Error('the native addon was built without the stream engine');
    const u = new URL(opts.baseUrl);
    this.heads = new RequestHeads(u);
    // The engine takes at most MAX_WAIT_MS (31.7 years); a longer timeout is cut to it.
    this.columns = new SubmitColumns(capWaitMs(opts.requestTimeoutMs));
    this.engine = callNative(
      () =>
        new Engine(
          {
            address: opts.address,
            port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
            threads: opts.threads,
            maxConnections: opts.connections ?? 0,
            priority: opts.priority ?? 'realtime',
            readCoalesceUs: opts.readCoalesceUs ?? 0,
            kernelStamps: opts.kernelStamps ?? false,
            ...(opts.limits ? { maxResponseBytes: opts.limits.maxResponseBytes, maxEventBytes: opts.limits.maxEventBytes } : {}),
            ...(opts.decode ? { decode: opts.decode.spec, keepPayloads: opts.decode.keepPayloads } : {}),
            ...(opts.tls ? { tls: opts.tls } : {}),
          },
          (batch) => this.onRecords(batch),
        ),
    );
  }

  send(credit: Credit, req: RenderedRequest, signal?: AbortSignal | null): Promise<RawRecord> {
    return new Promise<RawRecord>((resolve) => {
      if (this.closed) {
        const now = process.hrtime.bigint();
        resolve(
          this.record(credit, req, now, now, 0, 0, null, [], [], [], {
            type: 'cancelled',
            message: 'the transport is closed',
            http_status: null,
          }),
        );
        return;
      }
      let head: string;
      try {
        head = this.heads.render(req);
      } catch (err) {
        const now = process.hrtime.bigint();
        resolve(
          this.record(credit, req, now, now, 0, 0, null, [], [], [], {
            type: 'connection',
            message: (err as Error).message,
            http_status: null,
          }),
        );
        return;
      }
      const id = this.nextId;
      this.nextId = this.nextId === 0xffffffff ? 1 : this.nextId + 1;
      const pending: Pending = { id, credit, req, resolve, cancelReason: null, head };
      this.pending.set(id, pending);
      if (signal) {
        const onAbort = () => this.cancelOne(id, CANCELLED_ON_PURPOSE);
        if (signal.aborted) {
          this.pending.delete(id);
          const now = process.hrtime.bigint();
          resolve(
            this.record(credit, req, now, now, 0, 0, null, [], [], [], {
              type: 'cancelled',
              message: CANCELLED_ON_PURPOSE,
              http_status: null,
            }),
          );
          return;
        }
        signal.addEventListener('abort', onAbort, { once: true });
        pending.resolve = (r) => {
          signal.removeEventListener('abort', onAbort);
          resolve(r);
        };
      }
      const now = process.hrtime.bigint();
      // A turn that processes many records before the batch goes out would hold the first sends
      // back: past FLUSH_AFTER_NS the queue goes now.
      if (this.queue.length > 0 && now - this.queuedSinceNs > FLUSH_AFTER_NS) this.flush();
      if (this.queue.length === 0) this.queuedSinceNs = now;
      this.queue.push(pending);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // After the current callback and its microtasks: every send of this turn goes in one batch.
        setImmediate(this.onImmediate);
      }
    });
  }

  private readonly onImmediate = (): void => {
    this.flushScheduled = false;
    this.flush();
  };

  private readonly flush = (): void => {
    const q = this.queue;
    if (q.length === 0 || this.closed) return;
    this.queue = [];
    const n = q.length;
    let total = 0;
    for (const item of q) total += item.head.length + item.req.body.length;
    const bytes = Buffer.allocUnsafe(total);
    const { ids, ends, streaming, timeouts, targets } = this.columns.take(n);
    let off = 0;
    for (let i = 0; i < n; i++) {
      const item = q[i];
      off += bytes.write(item.head, off, 'latin1');
      off += item.req.body.copy(bytes, off);
      // The head is in the batch now; the pending request need not keep it.
      item.head = '';
      ids[i] = item.id;
      ends[i] = off;
      streaming[i] = item.req.streaming ? 1 : 0;
      targets[i] = item.credit.targeted_start_ns ?? 0n;
    }
    try {
      callNative(() => this.engine.submit(ids, bytes, ends, streaming, timeouts, targets));
    } catch (err) {
      // The engine refused the batch (a value TS should have caught): each request still ends as
      // one error record, and the run goes on, rather than an uncaught error or a request never settled.
      const now = process.hrtime.bigint();
      for (const p of q) {
        if (this.pending.get(p.id) !== p) continue;
        this.pending.delete(p.id);
        p.resolve(
          this.record(p.credit, p.req, now, now, 0, 0, null, [], [], [], {
            type: '_OTHER',
            message: `the native engine refused the request: ${(err as Error).message}`,
            http_status: null,
          }),
        );
      }
    }
  };

  private onRecords(b: EngineBatch): void {
    let off = 0;
    for (let i = 0; i < b.ids.length; i++) {
      const count = b.event_count[i];
      const p = this.pending.get(b.ids[i]);
      if (p !== undefined) {
        this.pending.delete(b.ids[i]);
        const data = b.event_data.slice(off, off + count);
        const types = b.event_type === null ? new Array<string>(count).fill('') : b.event_type.slice(off, off + count);
        const stamps = Array.from(b.event_ns.subarray(off, off + count));
        // Started by the engine's slot gate: the credit was issued when its slot came free.
        const planned = b.planned_ns[i];
        const credit = planned === 0n ? p.credit : { ...p.credit, credit_issued_ns: planned };
        const record = this.record(
          credit,
          p.req,
          b.start_ns[i],
          b.end_ns[i],
          b.status[i],
          b.bytes_received[i],
          b.body[i],
          data,
          stamps,
          types,
          this.error(b.error[i], p),
        );
        record.trace = traceOf(b, i);
        if (b.error[i]?.type === 'unsent') record.unsent = true;
        const decoded = b.decoded?.[i];
        if (decoded) record.decoded = decoded;
        p.resolve(record);
      }
      off += count;
    }
  }

  /** Engine error → record error, with the same messages the undici transport gives. */
  private error(e: EngineBatch['error'][number], p: Pending): RecordError | null {
    if (e === null) return null;
    if (e.type === 'timeout')
      return { type: 'timeout', message: `request timed out after ${this.opts.requestTimeoutMs / 1000} s`, http_status: null };
    if (e.type === 'cancelled') return { type: 'cancelled', message: p.cancelReason ?? e.message, http_status: null };
    if (e.type === 'unsent') return { type: 'cancelled', message: e.message, http_status: null };
    return withTlsSubtype({ type: e.type, message: e.message, http_status: null }, tlsReasonOfMessage(e.message));
  }

  private record(
    credit: Credit,
    req: RenderedRequest,
    start_ns: bigint,
    end_ns: bigint,
    status: number,
    bytesReceived: number,
    body: string | null,
    data: string[],
    stamps: bigint[],
    types: string[],
    error: RecordError | null,
  ): RawRecord {
    const http_status = status > 0 ? status : null;
    if (error) error.http_status = http_status;
    // Events that streamed before a failure are kept as evidence.
    const record = newRecord(credit, req, start_ns, end_ns, http_status, error, bytesReceived, () => body ?? '');
    if (record.error) {
      record.body = body === '' ? null : body;
    } else if (!req.streaming) {
      record.body = body ?? '';
    }
    if (req.streaming) {
      record.event_data = data;
      record.event_ns = stamps;
      record.event_type = types;
    }
    return record;
  }

  /** Ends one request as cancelled: dropped if not yet handed to the engine, else cancelled there. */
  private cancelOne(id: number, reason: string): void {
    const p = this.pending.get(id);
    if (!p) return;
    p.cancelReason ??= reason;
    const i = this.queue.findIndex((q) => q.id === id);
    if (i >= 0) {
      this.queue.splice(i, 1);
      this.pending.delete(id);
      const now = process.hrtime.bigint();
      p.resolve(
        this.record(p.credit, p.req, now, now, 0, 0, null, [], [], [], { type: 'cancelled', message: p.cancelReason, http_status: null }),
      );
      return;
    }
    callNative(() => this.engine.cancel(Uint32Array.of(id)));
  }

  cancelAll(reason: string): void {
    for (const p of this.pending.values()) p.cancelReason ??= reason;
    // Queued sends go to the engine first so they, too, end as cancelled records.
    this.flush();
    this.engine.cancelAll();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    // Delivers the last records (those still in flight end as cancelled) before returning.
    this.engine.close();
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      const now = process.hrtime.bigint();
      p.resolve(
        this.record(p.credit, p.req, now, now, 0, 0, null, [], [], [], {
          type: 'cancelled',
          message: p.cancelReason ?? 'the transport is closed',
          http_status: null,
        }),
      );
    }
  }

  /**
   * Opens `n` connections before the first request and waits until they are up (or failed, or
   * `timeoutMs` passed): each becomes a pooled connection its first request reuses.
   */
  async preconnect(n: number, timeoutMs: number): Promise<PreconnectResult> {
    const t0 = process.hrtime.bigint();
    const before = this.engine.stats().connections_preconnected;
    callNative(() => this.engine.preconnect(n));
    const deadline = t0 + BigInt(Math.round(timeoutMs * 1e6));
    // Polled: connections come up within a few ms on a LAN, and this runs once, before the load.
    while (this.engine.stats().connections_warming > 0 && process.hrtime.bigint() < deadline) {
      await new Promise((r) => setTimeout(r, 1));
    }
    const opened = this.engine.stats().connections_preconnected - before;
    return { asked: n, opened, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
  }

  /**
   * The engine's slot gate (load/types.ts SlotGate): at most `slots` requests at once, 0: off;
   * `held`: none starts until the next call without it. Sends queued here go to the engine first.
   */
  setGate(slots: number, held = false): void {
    this.flush();
    callNative(() => this.engine.setGate(slots, held));
  }

  /** Requests waiting for a slot of the gate end unsent (RawRecord.unsent). */
  cancelWaiting(): void {
    this.flush();
    this.engine.cancelWaiting();
  }

  /** I/O threads (--transport-threads): a slot gate gives each its share, at least one slot. */
  get threads(): number {
    return this.opts.threads;
  }

  /** The configured read-coalescing window, µs (the harness report states it). */
  get readCoalesceUs(): number {
    return this.opts.readCoalesceUs ?? 0;
  }

  /** Engine counters (tests, benchmarks and the harness report). */
  stats(): ReturnType<NativeEngine['stats']> {
    return this.engine.stats();
  }
}

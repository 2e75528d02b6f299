// The size caps as the undici transport enforces them while a response streams in (the native engine
// enforces the same caps on its I/O thread, native/engine/engine_request_state.cc): the body's bytes, and the bytes of
// the SSE event being received since the last blank line. Per chunk it costs a few native searches
// from the chunk's end, never a JS loop over the bytes or the events.
import type { RecordError } from '../model/raw-record.js';
import type { SizeCaps } from './types.js';

const LF = 0x0a;
const CR = 0x0d;
// Two line ends in a row close an event. Every way of writing that (LF LF, CR CR, CRLF CRLF, LF CRLF,
// CRLF LF, LF CR) holds one of these pairs, and a single CRLF holds none.
const PAIRS = [Buffer.from('\n\n'), Buffer.from('\r\r'), Buffer.from('\n\r')];

export class SizeGuard {
  private body = 0;
  private event = 0;
  private lastByte = -1;
  private readonly maxEvent: number;

  /** `sse`: also cap each event (a streaming response with a 2xx status, as the body is framed). */
  constructor(
    private readonly limits: SizeCaps,
    private readonly sse: boolean,
  ) {
    this.maxEvent = limits.maxEventBytes;
  }

  /** Counts a chunk; the parse_error the request ends with when it passes a cap, else null. */
  add(chunk: Uint8Array): RecordError | null {
    this.body += chunk.length;
    if (this.body > this.limits.maxResponseBytes)
      return sizeError(`response over ${this.limits.maxResponseBytes} bytes (--max-response-bytes)`);
    if (!this.sse || chunk.length === 0) return null;
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    // A chunk larger than the cap may hold a whole event over it: only then look at every boundary.
    if (chunk.length > this.maxEvent && this.overInside(buf)) return this.eventError();
    const end = this.lastBoundaryEnd(buf);
    this.event = end < 0 ? this.event + chunk.length : chunk.length - end;
    this.lastByte = buf[buf.length - 1];
    return this.event > this.maxEvent ? this.eventError() : null;
  }

  private eventError(): RecordError {
    return sizeError(`event over ${this.maxEvent} bytes (--max-event-bytes)`);
  }

  /** Offset just past the last event boundary in the chunk (one spanning the previous chunk too), or -1. */
  private lastBoundaryEnd(buf: Buffer): number {
    let end = -1;
    for (const p of PAIRS) {
      const i = buf.lastIndexOf(p);
      if (i >= 0 && i + 2 > end) end = i + 2;
    }
    if (end < 0 && (this.lastByte === LF || this.lastByte === CR) && (buf[0] === LF || buf[0] === CR)) {
      if (!(this.lastByte === CR && buf[0] === LF)) end = 1;
    }
    return end;
  }

  /** Whether an event that both starts and ends inside the chunk passes the cap. */
  private overInside(buf: Buffer): boolean {
    let from = 0;
    let start = -this.event;
    for (;;) {
      let next = -1;
      for (const p of PAIRS) {
        const i = buf.indexOf(p, from);
        if (i >= 0 && (next < 0 || i < next)) next = i;
      }
      if (next < 0) return false;
      if (next - start > this.maxEvent) return true;
      start = next + 2;
      from = next + 2;
    }
  }
}

function sizeError(message: string): RecordError {
  return { type: 'parse_error', message, http_status: null };
}

// SSE framing of one buffered response body: a thin, validating wrapper over
// the native framer (one native call per response, see native/wire/sse.cc).
import type { DecodeSpec } from '../model/decoded.js';
import { NativeArgumentError } from '../errors.js';
import { callNative, native, type NativeSseDecoder, type SseDecoded, type SseFrames } from '../native.js';

export type { SseDecoded, SseFrames };

/**
 * Frames a complete response body into SSE events.
 *
 * `chunks` are the body's chunks in arrival order; `stamps[i]` is the
 * CLOCK_MONOTONIC ns arrival stamp of `chunks[i]` (a `StampColumn.view()` or a
 * plain bigint[]). Each returned event carries the stamp of the chunk that
 * held its terminating blank line. An unterminated final event is not
 * returned; its size is `trailing_bytes`.
 */
export function frameSse(chunks: readonly Uint8Array[], stamps: readonly bigint[] | BigInt64Array): SseFrames {
  const column = stampColumn(chunks, stamps);
  return callNative(() => native.frameSse(chunks as Uint8Array[], column));
}

/**
 * Frames and decodes responses, one native call each (native/wire/sse_decode.h): the events' texts,
 * token stamps, usage and spec-decode values per response instead of one string per event.
 */
export class SseDecoder {
  private readonly native: NativeSseDecoder;

  constructor(spec: DecodeSpec) {
    this.native = callNative(() => new native.SseDecoder(spec));
  }

  /** As frameSse; `keepPayloads`: every payload string comes back too, not only the tail's. */
  decode(chunks: readonly Uint8Array[], stamps: readonly bigint[] | BigInt64Array, keepPayloads: boolean): SseDecoded {
    const column = stampColumn(chunks, stamps);
    return callNative(() => this.native.decode(chunks as Uint8Array[], column, keepPayloads));
  }
}

function stampColumn(chunks: readonly Uint8Array[], stamps: readonly bigint[] | BigInt64Array): BigInt64Array {
  if (!Array.isArray(chunks)) {
    throw new NativeArgumentError('frameSse: chunks must be an array of Buffers');
  }
  for (let i = 0; i < chunks.length; i++) {
    if (!(chunks[i] instanceof Uint8Array)) {
      throw new NativeArgumentError(`frameSse: chunks[${i}] is not a Buffer (Uint8Array)`);
    }
  }
  let column: BigInt64Array;
  if (stamps instanceof BigInt64Array) {
    column = stamps;
  } else if (Array.isArray(stamps)) {
    column = new BigInt64Array(stamps.length);
    for (let i = 0; i < stamps.length; i++) {
      const s: unknown = stamps[i];
      if (typeof s !== 'bigint') {
        throw new NativeArgumentError(`frameSse: stamps[${i}] is not a bigint`);
      }
      column[i] = s;
    }
  } else {
    throw new NativeArgumentError('frameSse: stamps must be a BigInt64Array or an array of bigints');
  }
  if (column.length !== chunks.length) {
    // A preallocated column must be trimmed by the caller (subarray, no copy):
    // silently ignoring extra stamps would hide an off-by-one in the transport.
    throw new NativeArgumentError(`frameSse: ${column.length} stamps for ${chunks.length} chunks (one stamp per chunk expected)`);
  }
  return column;
}

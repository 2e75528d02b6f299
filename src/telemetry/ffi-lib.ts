// A thin layer over ffi-rs for the inventory calls: one library opened under a private key,
// calls that report a missing symbol as `undefined` instead of throwing, and C structs passed
// as zeroed Buffers (ffi-rs writes into a Buffer argument in place) decoded at fixed offsets.
//
// Why Buffers rather than ffi-rs struct descriptors: the vendor structs hold fixed char arrays and
// their layouts change between driver/ROCm releases; an oversized zeroed Buffer cannot be overrun
// by any published layout, and only fields at stable offsets are read.
import { close, DataType, load, open } from 'ffi-rs';

let nextKey = 0;

export class FfiLibrary {
  private readonly key: string;
  private closed = false;

  /** Throws (with dlopen's message) when the library cannot be loaded. */
  constructor(readonly path: string) {
    this.key = `servebench-telemetry-${process.pid}-${nextKey++}`;
    open({ library: this.key, path });
  }

  /** Calls `name`; undefined when the library has no such symbol. */
  call(name: string, retType: DataType, paramsType: DataType[], paramsValue: unknown[]): number | undefined {
    try {
      return load({ library: this.key, funcName: name, retType, paramsType, paramsValue }) as number;
    } catch (err) {
      if (/cannot find/i.test(String((err as Error).message))) return undefined;
      throw err;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    close(this.key);
  }
}

export { DataType };

/** A NUL-terminated string from a Buffer (Latin-1 bytes; vendor strings are ASCII). */
export function cString(buf: Buffer, offset = 0, max = buf.length - offset): string {
  const end = buf.indexOf(0, offset);
  return buf.toString('latin1', offset, end === -1 || end > offset + max ? offset + max : end).trim();
}

/** Reads an opaque handle (a pointer) written by the library, for passing back as an int64 argument. */
export function handleAt(buf: Buffer, offset: number): bigint {
  return buf.readBigUInt64LE(offset);
}

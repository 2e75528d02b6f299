// The only module that loads the C++ addon. Everything native is typed here.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export interface SseFrames {
  /** `data:` payload of each complete event, in order. */
  data: string[];
  /** Arrival stamp of the chunk that completed each event. */
  stamps: BigInt64Array;
  /** `event:` name of each event ('' when absent). */
  types: string[];
  /**
   * Bytes after the last blank line (event boundary): an unterminated final
   * event, or trailing comments. 0 for a cleanly ended stream; BOM not counted.
   */
  trailing_bytes: number;
}

export interface Http1ParseResult {
  /** Final status (0 until its header block is complete). */
  status: number;
  /** The response ended (its body framing is satisfied). */
  complete: boolean;
  /** The connection could carry another request (only when complete). */
  keep_alive: boolean;
  /** Bytes consumed: stops at the end of the response. */
  consumed: number;
  /** Decoded body (chunk framing removed). */
  body: Buffer;
  /** One stamp per body piece handed on: the index of the chunk that held it. */
  body_stamps: BigInt64Array;
  error: { type: 'parse_error' | 'connection'; message: string } | null;
}

export interface NativeAddon {
  abiVersion: number;
  /**
   * Frames one response body (see src/transport/sse.ts, the validating
   * wrapper). Wrong argument types throw a TypeError with code SB_NATIVE_BAD_ARG.
   */
  frameSse(chunks: Uint8Array[], stamps: BigInt64Array): SseFrames;
  /**
   * Parses one HTTP/1.1 response fed as `chunks` (chunk i stamped i), then a
   * connection close when `eof` (the native engine's parser, exposed for tests).
   */
  http1Parse(chunks: Uint8Array[], eof: boolean): Http1ParseResult;
}

/** A wrong argument to a native call, caught on either side of the boundary. */
export class NativeArgumentError extends TypeError {
  readonly code = 'SB_NATIVE_BAD_ARG';
  constructor(message: string) {
    super(message);
    this.name = 'NativeArgumentError';
  }
}

export class NativeAddonMissingError extends Error {
  readonly code = 'SB_NATIVE_MISSING';
  constructor(cause: unknown) {
    super(
      `the servebench native addon is not built (${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}); ` +
        'run `npm ci` or `npm run build` in the servebench folder (needs g++, make and python3)',
    );
    this.name = 'NativeAddonMissingError';
  }
}

function load(): NativeAddon {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Works from src/ (tests) and dist/ (built CLI): both sit one level below the package root.
  const root = path.resolve(here, '..');
  const require = createRequire(import.meta.url);
  const candidates = [
    process.env.SERVEBENCH_NATIVE_PATH,
    path.join(root, 'build', 'Release', 'servebench_native.node'),
    path.join(root, 'build', 'Debug', 'servebench_native.node'),
  ].filter((p): p is string => !!p);
  let lastErr: unknown = null;
  for (const p of candidates) {
    try {
      return require(p) as NativeAddon;
    } catch (err) {
      lastErr = err;
    }
  }
  throw new NativeAddonMissingError(lastErr);
}

export const native: NativeAddon = load();

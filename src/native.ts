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

export interface NativeAddon {
  abiVersion: number;
  /**
   * Frames one response body (see src/transport/sse.ts, the validating
   * wrapper). Wrong argument types throw a TypeError with code SB_NATIVE_BAD_ARG.
   */
  frameSse(chunks: Uint8Array[], stamps: BigInt64Array): SseFrames;
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

// The only module that loads the C++ addon. Everything native is typed in native-types.ts, and every
// error the addon throws is turned into its class here (NATIVE_ERRORS, callNative).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import {
  EngineClosedError,
  TlsSetupError,
  EngineStartError,
  HistogramDecodeError,
  MockStartError,
  NativeAddonMissingError,
  NativeArgumentError,
  ServebenchError,
  SseFrameError,
  TimelineError,
  TimelineMemoryError,
} from './errors.js';
import type { NativeAddon } from './native-types.js';

export type * from './native-types.js';

/**
 * Every code the addon throws (the `code` of the JS error, set by native/common/errors.h) and the class it
 * becomes on this side. test/unit/native/errors.test.ts checks this table against the codes in
 * native/, both ways.
 */
export const NATIVE_ERRORS = {
  SB_NATIVE_BAD_ARG: NativeArgumentError,
  SB_HDR_DECODE: HistogramDecodeError,
  SB_MOCK_START: MockStartError,
  SB_NATIVE_ENGINE: EngineStartError,
  SB_NATIVE_ENGINE_CLOSED: EngineClosedError,
  SB_NATIVE_TLS: TlsSetupError,
  SB_NATIVE_SSE: SseFrameError,
  SB_NATIVE_TIMELINE: TimelineError,
  SB_NATIVE_TIMELINE_MEMORY: TimelineMemoryError,
} as const satisfies Record<string, new (message: string, options?: ErrorOptions) => Error & { readonly code: string }>;

export type NativeErrorCode = keyof typeof NATIVE_ERRORS;

/**
 * A native throw as its class from NATIVE_ERRORS, with the same message and the native error as
 * `cause`. Anything else (one of ours already, a JS handler's own error, an error without a known
 * code) is returned as it is.
 */
export function nativeError(err: unknown): unknown {
  if (err instanceof ServebenchError || err === null || typeof err !== 'object') return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !Object.hasOwn(NATIVE_ERRORS, code)) return err;
  const message = (err as { message?: unknown }).message;
  return new NATIVE_ERRORS[code as NativeErrorCode](typeof message === 'string' ? message : String(err), { cause: err });
}

/** Runs one call into the addon: what it throws arrives as nativeError(err). Every wrapper calls through it. */
export function callNative<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    throw nativeError(err);
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

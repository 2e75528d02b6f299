// Every error of the project: one class per condition, each with a stable `code` (in the style of
// undici's errors). Errors thrown by the C++ addon carry one of the native codes (SB_NATIVE_*,
// SB_HDR_DECODE, SB_MOCK_START); src/native.ts maps each to its class here.
// Exit codes (src/cli/main.ts reports any ServebenchError in one line with its exitCode; anything
// else is an internal error, exit code 1): 0 success; 1 the run finished but every request failed,
// or a runtime failure; 2 bad input (flag, file, tokenizer, unreachable URL at start, an encoded
// histogram that cannot be read); 3 `compare --fail-on-regression` found a regression; 130 quit by a
// third signal before the exports were written (run/profile/signals.ts), or a Hub download stopped by a signal.

import { getSystemErrorMap } from 'node:util';

const kServebenchError = Symbol.for('servebench.error');

export class ServebenchError extends Error {
  readonly code: string = 'SB_ERROR';
  readonly exitCode: number = 1;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }

  /**
   * `instanceof ServebenchError` goes by a brand rather than the prototype chain, so that
   * NativeArgumentError can stay a TypeError (as Node's own argument errors are) and still be one
   * of ours. Subclasses keep the ordinary prototype check.
   */
  static override [Symbol.hasInstance]<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    if ((this as unknown) !== ServebenchError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [kServebenchError]?: unknown })[kServebenchError] === true;
  }

  get [kServebenchError](): true {
    return true;
  }
}

// ---- Bad input (exit code 2) ----

/** Bad flag or flag value. */
export class InvalidArgumentError extends ServebenchError {
  override readonly code = 'SB_INVALID_ARG';
  override readonly exitCode = 2;
}

/** Throws the one line a bad flag value gets: `--flag: why` (InvalidArgumentError, exit code 2). */
export function badFlag(flag: string, msg: string): never {
  throw new InvalidArgumentError(`--${flag}: ${msg}`);
}

/** Throws the one line two flags that do not go together get: `--a: cannot be combined with --b`. */
export function flagConflict(a: string, b: string, why = 'cannot be combined with'): never {
  throw new InvalidArgumentError(`--${a}: ${why} --${b}`);
}

/** `merge`: a shard of the run is missing or failed (without --allow-partial). */
export class ShardMissingError extends ServebenchError {
  override readonly code = 'SB_SHARD_MISSING';
  override readonly exitCode = 2;
}

/** `merge`: shard exports of different configs, shard counts or servebench versions. */
export class ShardMismatchError extends ServebenchError {
  override readonly code = 'SB_SHARD_MISMATCH';
  override readonly exitCode = 2;
}

/** A file (dataset, tokenizer, config) that cannot be used. */
export class InvalidFileError extends ServebenchError {
  override readonly code = 'SB_INVALID_FILE';
  override readonly exitCode = 2;
}

/** The target server cannot be reached before the run starts. */
export class UnreachableServerError extends ServebenchError {
  override readonly code = 'SB_UNREACHABLE';
  override readonly exitCode = 2;
}

/** The server answers the endpoint type's path with 404 or 405 before the run (transport/endpoint-probe.ts). */
export class EndpointNotServedError extends ServebenchError {
  override readonly code = 'SB_ENDPOINT_NOT_SERVED';
  override readonly exitCode = 2;
}

/** A tokenizer that cannot be found or loaded. */
export class TokenizerLoadError extends ServebenchError {
  override readonly code = 'SB_TOKENIZER';
  override readonly exitCode = 2;
}

/**
 * The Hugging Face Hub (src/hub/): each condition its own class, all bad input of the run's start (exit
 * code 2, before any request is sent). Their messages never carry the token.
 */
export class HubGatedRepoError extends ServebenchError {
  override readonly code = 'SB_HUB_GATED';
  override readonly exitCode = 2;
}

export class HubRepoNotFoundError extends ServebenchError {
  override readonly code = 'SB_HUB_REPO_NOT_FOUND';
  override readonly exitCode = 2;
}

export class HubRevisionNotFoundError extends ServebenchError {
  override readonly code = 'SB_HUB_REVISION_NOT_FOUND';
  override readonly exitCode = 2;
}

export class HubEntryNotFoundError extends ServebenchError {
  override readonly code = 'SB_HUB_ENTRY_NOT_FOUND';
  override readonly exitCode = 2;
}

/** HF_HUB_OFFLINE is set and the cache does not hold the file. */
export class HubOfflineError extends ServebenchError {
  override readonly code = 'SB_HUB_OFFLINE';
  override readonly exitCode = 2;
}

/** The Hub could not be reached (DNS, refused, reset, timeout) and the cache does not hold the file. */
export class HubNetworkError extends ServebenchError {
  override readonly code = 'SB_HUB_NETWORK';
  override readonly exitCode = 2;
}

/** A download stopped by the run's stop signal (Ctrl-C) before the run started: its partial file is removed. */
export class HubDownloadInterruptedError extends ServebenchError {
  override readonly code = 'SB_HUB_INTERRUPTED';
  override readonly exitCode = 130;
}

/** The Hub answered, but not as it documents (an unexpected status, no X-Repo-Commit, a short body). */
export class HubResponseError extends ServebenchError {
  override readonly code = 'SB_HUB_RESPONSE';
  override readonly exitCode = 2;
}

/** An encoded HDR histogram (histograms.json, an HdrHistogram log) that cannot be decoded. Native code. */
export class HistogramDecodeError extends ServebenchError {
  override readonly code = 'SB_HDR_DECODE';
  override readonly exitCode = 2;
}

// ---- Comparison outcome (exit code 3) ----

/** `compare --fail-on-regression PCT`: a chosen metric got worse beyond PCT and beyond noise (CI gating). */
export class RegressionError extends ServebenchError {
  override readonly code = 'SB_REGRESSION';
  override readonly exitCode = 3;
}

// ---- Run outcomes and runtime failures (exit code 1) ----

/** Every request of the run failed; the report was still written. */
export class AllRequestsFailedError extends ServebenchError {
  override readonly code = 'SB_ALL_FAILED';
}

/**
 * An artifact (records.jsonl, profile_export.json, …) or the artifact dir could not be written: a
 * full disk (ENOSPC), a quota, a read-only or unwritable dir. One line naming the path and the error.
 */
export class ArtifactWriteError extends ServebenchError {
  override readonly code = 'SB_ARTIFACT_WRITE';

  constructor(
    readonly path: string,
    readonly errno: string | null,
    message: string,
  ) {
    super(message);
  }

  /** From a failed fs call: "cannot write PATH: ENOSPC: no space left on device" (the syscall dropped). */
  static from(path: string, err: unknown): ArtifactWriteError {
    if (err instanceof ArtifactWriteError) return err;
    const code = typeof (err as NodeJS.ErrnoException)?.code === 'string' ? (err as NodeJS.ErrnoException).code! : null;
    return new ArtifactWriteError(path, code, `cannot write ${path}: ${describeSystemError(err)}`);
  }
}

/** "ENOSPC: no space left on device" for a system error (fs calls and streams word theirs differently). */
export function describeSystemError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const known = typeof e?.errno === 'number' ? getSystemErrorMap().get(e.errno) : undefined;
  if (known) return `${known[0]}: ${known[1]}`;
  return err instanceof Error ? err.message.replace(/, \w+( '.*')?$/, '') : String(err);
}

/** The built-in mock server could not be started. Native code (the fast mock) too. */
export class MockStartError extends ServebenchError {
  override readonly code = 'SB_MOCK_START';
}

/** The C++ addon is not built, or cannot be loaded. */
export class NativeAddonMissingError extends ServebenchError {
  override readonly code = 'SB_NATIVE_MISSING';
  constructor(cause: unknown) {
    super(
      `the servebench native addon is not built (${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}); ` +
        'run `npm ci` or `npm run build` in the servebench folder (needs g++, make and python3)',
      { cause },
    );
  }
}

/**
 * A wrong argument to a native call, caught on either side of the boundary (the TS wrappers
 * validate; the bindings only guard). A TypeError, and a ServebenchError by brand. Native code.
 */
export class NativeArgumentError extends TypeError {
  readonly code = 'SB_NATIVE_BAD_ARG';
  readonly exitCode: number = 1;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NativeArgumentError';
  }

  get [kServebenchError](): true {
    return true;
  }
}

/** The native stream engine could not start its I/O threads. Native code. */
export class EngineStartError extends ServebenchError {
  override readonly code = 'SB_NATIVE_ENGINE';
}

/** The native engine could not load a TLS file (--ca-cert, --client-cert, --client-key, NODE_EXTRA_CA_CERTS). Native code. */
export class TlsSetupError extends ServebenchError {
  override readonly code = 'SB_NATIVE_TLS';
  override readonly exitCode = 2;
}

/** A TLS certificate could not be verified at preflight (unknown CA, expired, hostname mismatch): nothing can connect. */
export class TlsVerifyError extends ServebenchError {
  override readonly code = 'SB_TLS_VERIFY';
  override readonly exitCode = 2;
}

/** A call on the native stream engine after close(). Native code. */
export class EngineClosedError extends ServebenchError {
  override readonly code = 'SB_NATIVE_ENGINE_CLOSED';
}

/** V8 refused a value while the SSE framer built its result (e.g. an event over the string length limit). Native code. */
export class SseFrameError extends ServebenchError {
  override readonly code = 'SB_NATIVE_SSE';
}

/** The timeline integration (time-weighted metrics) failed for a reason other than its input, e.g. a thread that could not start. Native code. */
export class TimelineError extends ServebenchError {
  override readonly code = 'SB_NATIVE_TIMELINE';
}

/** The timeline integration could not allocate its scratch for the run's requests. Native code. */
export class TimelineMemoryError extends ServebenchError {
  override readonly code = 'SB_NATIVE_TIMELINE_MEMORY';
}

// ---- Per-request conditions (become error records or responses; never reach the CLI) ----

/** A request ended by its timeout (undici transport); classified as a `timeout` record. */
export class RequestTimeoutError extends ServebenchError {
  override readonly code = 'SB_REQUEST_TIMEOUT';
}

/** A request cancelled on purpose or by shutdown (undici transport); classified as a `cancelled` record. */
export class RequestCancelledError extends ServebenchError {
  override readonly code = 'SB_REQUEST_CANCELLED';
}

/** A response payload that is not valid JSON of the expected shape; becomes a `parse_error` record. */
export class PayloadParseError extends ServebenchError {
  override readonly code = 'SB_PAYLOAD_PARSE';
}

/** A request the mock refuses with 400 invalid_request_error. */
export class BadRequestError extends ServebenchError {
  override readonly code = 'SB_MOCK_BAD_REQUEST';
}

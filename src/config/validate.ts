// Turns parsed flags into a RunConfig, or throws InvalidArgumentError naming the flag.
import path from 'node:path';
import os from 'node:os';
import { badFlag as bad } from '../errors.js';
import { scrub } from '../secrets.js';
import { TRANSPORT_KINDS, chooseTransport } from '../transport/select.js';
import { parseGpuTelemetry } from '../telemetry/options.js';
import { parseServerMetricsFlags } from '../server-metrics/options.js';
import {
  DEFAULTS,
  ENDPOINT_PATHS,
  ENDPOINT_TYPES,
  MAX_READ_COALESCE_US,
  MAX_SIZE_CAP,
  MIN_SIZE_CAP,
  SERVER_TOKENIZER,
  CL100K_TOKENIZER,
} from './defaults.js';
import { MAX_PROMPT_TOKENS } from '../tokenizer/synthesize.js';
import { defaultRegistry } from '../metrics/catalogue.js';
import { parseGoodputSpec } from '../metrics/families/goodput.js';
import type { EndpointType } from '../endpoints/types.js';
import type { ExportLevel } from '../export/records.js';
import type { MetricSettings, RunConfig, UiMode } from './types.js';
import { parseDatasetFlags, type DatasetFlags } from '../dataset/config.js';
import { parseLoadFlags, type LoadFlags } from '../load/config.js';
import { parseOverSaturationFlags, parseSearchFlags, type SearchFlags } from '../load/search-flags.js';
import { stagesDurationNs } from '../load/stages.js';
import { parseStatisticsFlags, type StatisticsFlags } from './statistics.js';
import { parseTlsFlags, type TlsFlags } from './tls-flags.js';
import { listOf, parseModels, parseTargets, type TargetFlags } from './target-flags.js';
import { parseTemplateFlags, type TemplateFlags } from '../endpoints/template-config.js';
import { parseMediaFlags, type MediaFlags } from '../dataset/media-config.js';
import { parseExtraInputs, parseHeaders, parseUrl } from './request-flags.js';

export { parseExtraInputs, parseHeaders, parseUrl };
import { parseShardFlags, type ShardFlags } from './shard.js';
import { parseEndpointFlags, settingsPath, streamingFor, type EndpointFlags } from '../endpoints/settings.js';

/** The flags of `profile`, as yargs hands them over (camelCase duplicates ignored). */
export interface ProfileFlags
  extends
    DatasetFlags,
    LoadFlags,
    SearchFlags,
    StatisticsFlags,
    EndpointFlags,
    MediaFlags,
    ShardFlags,
    TargetFlags,
    TemplateFlags,
    TlsFlags {
  /** Repeatable: several targets (config/target-flags.ts). */
  url?: string | string[];
  model?: string;
  'endpoint-type'?: string;
  endpoint?: string;
  streaming?: boolean;
  'api-key'?: string;
  header?: string[];
  'extra-inputs'?: string[];
  concurrency?: LoadFlags['concurrency'];
  'request-count'?: number;
  'benchmark-duration'?: number;
  'warmup-request-count'?: number;
  'request-timeout-seconds'?: number;
  isl?: number;
  'isl-stddev'?: number;
  osl?: number;
  'osl-stddev'?: number;
  'random-seed'?: number;
  tokenizer?: string;
  'tokenizer-revision'?: string;
  'use-server-token-count'?: boolean;
  'artifact-dir'?: string;
  'export-level'?: string;
  ui?: string;
  'histogram-significant-digits'?: number;
  'mock-ttft-ms'?: number;
  'mock-itl-ms'?: number;
  transport?: string;
  'transport-threads'?: number;
  'read-coalesce-us'?: number;
  preconnect?: boolean;
  'kernel-stamps'?: boolean;
  'max-response-bytes'?: number;
  'max-event-bytes'?: number;
  'record-workers'?: number;
  'per-chunk-usage'?: boolean;
  'usage-discrepancy-threshold'?: number;
  'osl-mismatch-pct-threshold'?: number;
  'osl-mismatch-max-token-threshold'?: number;
  goodput?: string | string[];
  'network-latency-automatic'?: boolean;
  'network-latency-mean'?: number;
  'network-latency-ping-interval'?: number;
  'show-trace-timing'?: boolean;
  'gpu-telemetry'?: string[];
  'gpu-sample-interval-ms'?: number;
  /** URL strings, or false for --no-server-metrics. */
  'server-metrics'?: (string | boolean)[] | string | boolean;
  'server-metrics-interval-ms'?: number;
  'slice-duration'?: number;
  /** --config: the YAML file these flags were merged from (cli/config-file.ts). */
  config?: string;
}

function intAtLeast(flag: string, v: number | undefined, min: number, dflt: number): number;
function intAtLeast(flag: string, v: number | undefined, min: number, dflt: null): number | null;
function intAtLeast(flag: string, v: number | undefined, min: number, dflt: number | null): number | null {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isInteger(v)) bad(flag, `expected an integer, got ${String(v)}`);
  if (v < min) bad(flag, `must be at least ${min}, got ${v}`);
  return v;
}

function numAtLeast(flag: string, v: number | undefined, min: number, exclusive: boolean): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(flag, `expected a number, got ${String(v)}`);
  if (exclusive ? v <= min : v < min) bad(flag, `must be ${exclusive ? 'greater than' : 'at least'} ${min}, got ${v}`);
  return v;
}

function oneOf<T extends string>(flag: string, v: string | undefined, allowed: readonly T[], dflt: T): T {
  if (v === undefined) return dflt;
  if (!allowed.includes(v as T)) bad(flag, `expected one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}

function timestamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** artifacts/<model>-<endpoint>-<mode>-<timestamp>, unless --artifact-dir was given. */
export function resolveArtifactDir(cfg: RunConfig, now: Date): string {
  if (cfg.artifact_dir !== null) return cfg.artifact_dir;
  // The model may come from the server (GET /v1/models), which may echo a secret.
  const safeModel = scrub(cfg.model || 'model').replace(/[^A-Za-z0-9._-]+/g, '_');
  const l = cfg.load;
  const mode =
    cfg.search !== null
      ? `search-${cfg.search.kind}`
      : l.sweep !== null
        ? `sweep-${l.sweep.kind}`
        : l.stages !== null
          ? `stages-${l.stages.target}`
          : l.request_rate !== null
            ? `rate${l.request_rate}`
            : `concurrency${cfg.concurrency}`;
  return path.join('artifacts', `${safeModel}-${cfg.endpoint_type}-${mode}-${timestamp(now)}`);
}

/** --transport, --transport-threads, --read-coalesce-us, --preconnect, --kernel-stamps; native with a URL it cannot serve is bad input (transport/select.ts). */
function transportSettings(
  f: ProfileFlags,
  urls: readonly string[],
  env: NodeJS.ProcessEnv,
): Pick<
  RunConfig,
  'transport' | 'transport_threads' | 'read_coalesce_us' | 'preconnect' | 'kernel_stamps' | 'max_response_bytes' | 'max_event_bytes'
> {
  const transport = oneOf('transport', f.transport, TRANSPORT_KINDS, DEFAULTS.transport);
  const transport_threads = intAtLeast('transport-threads', f['transport-threads'], 1, DEFAULTS.transport_threads);
  if (transport_threads > 64) bad('transport-threads', `must be at most 64, got ${transport_threads}`);
  const read_coalesce_us = intAtLeast('read-coalesce-us', f['read-coalesce-us'], 0, DEFAULTS.read_coalesce_us);
  if (read_coalesce_us > MAX_READ_COALESCE_US) bad('read-coalesce-us', `must be at most ${MAX_READ_COALESCE_US}, got ${read_coalesce_us}`);
  for (const u of urls) chooseTransport(transport, u, env);
  const max_response_bytes = sizeCap('max-response-bytes', f['max-response-bytes'], DEFAULTS.max_response_bytes);
  const max_event_bytes = sizeCap('max-event-bytes', f['max-event-bytes'], Math.min(DEFAULTS.max_event_bytes, max_response_bytes));
  if (max_event_bytes > max_response_bytes)
    bad('max-event-bytes', `must be at most --max-response-bytes (${max_response_bytes}), got ${max_event_bytes}`);
  const preconnect = f.preconnect ?? DEFAULTS.preconnect;
  const kernel_stamps = f['kernel-stamps'] ?? DEFAULTS.kernel_stamps;
  return { transport, transport_threads, read_coalesce_us, preconnect, kernel_stamps, max_response_bytes, max_event_bytes };
}

/** --max-response-bytes, --max-event-bytes: an integer number of bytes within [MIN_SIZE_CAP, MAX_SIZE_CAP]. */
function sizeCap(flag: string, v: number | undefined, dflt: number): number {
  const n = intAtLeast(flag, v, MIN_SIZE_CAP, dflt);
  if (n > MAX_SIZE_CAP) bad(flag, `must be at most ${MAX_SIZE_CAP} (1 GiB), got ${n}`);
  return n;
}

/** The metric catalogue's settings: thresholds, goodput SLOs, network RTT calibration, trace display. */
function metricSettings(f: ProfileFlags): MetricSettings {
  const automatic = f['network-latency-automatic'] ?? false;
  const mean = numAtLeast('network-latency-mean', f['network-latency-mean'], 0, false) ?? null;
  if (automatic && mean !== null) bad('network-latency-mean', 'cannot be combined with --network-latency-automatic (pick one)');
  const interval =
    numAtLeast('network-latency-ping-interval', f['network-latency-ping-interval'], 0, true) ?? DEFAULTS.network_latency_ping_interval_s;
  return {
    usage_discrepancy_threshold_pct:
      numAtLeast('usage-discrepancy-threshold', f['usage-discrepancy-threshold'], 0, false) ?? DEFAULTS.usage_discrepancy_threshold_pct,
    osl_mismatch_pct_threshold:
      numAtLeast('osl-mismatch-pct-threshold', f['osl-mismatch-pct-threshold'], 0, false) ?? DEFAULTS.osl_mismatch_pct_threshold,
    osl_mismatch_max_token_threshold:
      numAtLeast('osl-mismatch-max-token-threshold', f['osl-mismatch-max-token-threshold'], 0, false) ??
      DEFAULTS.osl_mismatch_max_token_threshold,
    goodput: f.goodput === undefined ? [] : parseGoodputSpec(f.goodput, defaultRegistry()),
    network_latency: { mode: automatic ? 'automatic' : mean !== null ? 'fixed' : 'off', mean_ms: mean, ping_interval_s: interval },
    show_trace_timing: f['show-trace-timing'] ?? false,
  };
}

export function buildRunConfig(f: ProfileFlags, env: NodeJS.ProcessEnv = process.env): RunConfig {
  // Several --url and --model a,b: config/target-flags.ts; the first of each is the run's `url` / `model`.
  const urls = listOf(f.url).map((raw) => {
    const p = parseUrl(raw);
    return { url: p.url, credentials: p.credentials };
  });
  const parsedUrl = urls[0] ?? null;
  const url = parsedUrl?.url ?? null;
  const models = parseModels(f.model);
  const targets = parseTargets(urls, models, f);
  const endpoint_type = oneOf<EndpointType>('endpoint-type', f['endpoint-type'], ENDPOINT_TYPES, DEFAULTS.endpoint_type);
  const endpoint_settings = parseEndpointFlags(f, endpoint_type);
  let endpoint: string = f.endpoint ?? settingsPath(endpoint_type, endpoint_settings) ?? ENDPOINT_PATHS[endpoint_type];
  if (!endpoint.startsWith('/')) endpoint = '/' + endpoint;
  // Realtime is WebSocket on the JS path only (transport/realtime.ts).
  if (endpoint_type === 'realtime' && f.transport === 'native')
    bad('transport', 'native has no WebSocket path for --endpoint-type realtime; use auto or undici');
  const model = models[0] ?? (url === null ? DEFAULTS.model : '');

  // Scheduling flags (rates, ramps, phases, replay, sweeps) and their conflicts: load/config.ts.
  const { load, concurrency: givenConcurrency } = parseLoadFlags(f);
  const concurrency = givenConcurrency ?? DEFAULTS.concurrency;
  // --stages set the duration: their sum.
  const duration =
    numAtLeast('benchmark-duration', f['benchmark-duration'], 0, true) ??
    (load.stages === null ? null : stagesDurationNs(load.stages.stages) / 1e9);
  // A duration bounds the run by time unless a count is also given.
  const request_count =
    duration === null
      ? intAtLeast('request-count', f['request-count'], 1, DEFAULTS.request_count)
      : intAtLeast('request-count', f['request-count'], 1, null);
  const timeout = numAtLeast('request-timeout-seconds', f['request-timeout-seconds'], 0, true) ?? DEFAULTS.request_timeout_s;

  const isl_mean = intAtLeast('isl', f.isl, 1, DEFAULTS.isl_mean);
  if (isl_mean > MAX_PROMPT_TOKENS) bad('isl', `must be at most ${MAX_PROMPT_TOKENS} tokens, got ${isl_mean}`);
  const isl_stddev = numAtLeast('isl-stddev', f['isl-stddev'], 0, false) ?? DEFAULTS.isl_stddev;
  const osl_mean = intAtLeast('osl', f.osl, 1, DEFAULTS.osl_mean);
  const osl_stddev = numAtLeast('osl-stddev', f['osl-stddev'], 0, false) ?? DEFAULTS.osl_stddev;
  const random_seed = intAtLeast('random-seed', f['random-seed'], 0, DEFAULTS.random_seed);

  const headers = parseHeaders(f.header);
  const apiKey = f['api-key'] ?? env.OPENAI_API_KEY ?? null;
  if (apiKey !== null && /[\r\n]/.test(apiKey)) bad('api-key', 'must not contain line breaks');

  const ttft = numAtLeast('mock-ttft-ms', f['mock-ttft-ms'], 0, false) ?? null;
  const itl = numAtLeast('mock-itl-ms', f['mock-itl-ms'], 0, false) ?? null;
  if (url !== null && (ttft !== null || itl !== null)) bad('mock-ttft-ms', 'only applies to the built-in mock (no --url)');

  const streaming = streamingFor(endpoint_type, f.streaming);
  const use_server_token_count = f['use-server-token-count'] ?? false;
  const per_chunk_usage = f['per-chunk-usage'] ?? false;
  if (per_chunk_usage && (!use_server_token_count || endpoint_type !== 'chat' || !streaming)) {
    bad('per-chunk-usage', 'requires --use-server-token-count, --endpoint-type chat and streaming');
  }

  const metrics = metricSettings(f);
  const statistics = parseStatisticsFlags(f, load.sweep !== null);
  const limits = {
    search: parseSearchFlags(f, {
      load,
      concurrencyGiven: givenConcurrency !== null,
      goodputSlos: metrics.goodput.length,
      numProfileRuns: statistics.num_profile_runs,
    }),
    over_saturation: parseOverSaturationFlags(f),
  };

  return Object.freeze({
    url,
    model,
    endpoint_type,
    template: parseTemplateFlags(f, endpoint_type),
    endpoint,
    streaming,
    api_key: apiKey === '' ? null : apiKey,
    headers,
    url_credentials: parsedUrl?.credentials ?? null,
    targets,
    extra_inputs: parseExtraInputs(f['extra-inputs']),
    endpoint_settings,
    concurrency,
    load,
    ...limits,
    request_count,
    benchmark_duration_s: duration,
    warmup_request_count: intAtLeast('warmup-request-count', f['warmup-request-count'], 0, DEFAULTS.warmup_request_count),
    request_timeout_s: timeout,
    isl_mean,
    isl_stddev,
    osl_mean,
    osl_stddev,
    random_seed,
    dataset: parseDatasetFlags(f),
    media: parseMediaFlags({ ...f, 'endpoint-type': endpoint_type }),
    ...tokenizerFlags(f),
    use_server_token_count,
    per_chunk_usage,
    metrics,
    statistics,
    artifact_dir: f['artifact-dir'] ?? null,
    export_level: oneOf<ExportLevel>('export-level', f['export-level'], ['summary', 'records', 'raw'], DEFAULTS.export_level),
    ui: oneOf<UiMode>('ui', f.ui, ['auto', 'none'], DEFAULTS.ui),
    histogram_significant_digits: histogramDigits(f['histogram-significant-digits']),
    ...transportSettings(
      f,
      urls.map((u) => u.url),
      env,
    ),
    tls: parseTlsFlags(f),
    record_workers: recordWorkers(f['record-workers']),
    gpu_telemetry: parseGpuTelemetry(f['gpu-telemetry'], f['gpu-sample-interval-ms']),
    server_metrics: parseServerMetricsFlags(f['server-metrics'], f['server-metrics-interval-ms']),
    slice_duration_s: numAtLeast('slice-duration', f['slice-duration'], 0, true) ?? null,
    shard: parseShardFlags(f, env, Date.now()),
    mock: { ttft_ms: ttft, itl_ms: itl },
    config_file: f.config ?? null,
  });
}

/** --tokenizer and --tokenizer-revision; `server` counts with the server's tokenize endpoint (synthetic prompts only). */
function tokenizerFlags(f: ProfileFlags): { tokenizer: string | null; tokenizer_revision: string | null } {
  const tokenizer = f.tokenizer ?? null;
  if (tokenizer !== null && tokenizer.trim() === '') bad('tokenizer', 'must not be empty');
  const rev = f['tokenizer-revision'] ?? null;
  if (rev !== null && !/^[A-Za-z0-9._/-]+$/.test(rev))
    bad('tokenizer-revision', `expected a ref name or a commit hash, got ${JSON.stringify(rev)}`);
  if (tokenizer === SERVER_TOKENIZER) {
    // The server counts asynchronously; file datasets and prefix pools count synchronously as they load.
    if (f['input-file'] !== undefined) bad('tokenizer', "'server' works with synthetic prompts only, not with --input-file");
    if (Number(f['num-prefix-prompts'] ?? 0) > 0)
      bad('tokenizer', "'server' works with synthetic prompts only, not with --num-prefix-prompts");
    if (rev !== null) bad('tokenizer-revision', 'has no meaning with --tokenizer server');
  }
  if (tokenizer === CL100K_TOKENIZER && rev !== null) bad('tokenizer-revision', 'has no meaning with --tokenizer cl100k');
  return { tokenizer, tokenizer_revision: rev };
}

/** Cores less the main thread's, at least one (the default of --record-workers). */
export function defaultRecordWorkers(): number {
  return Math.min(DEFAULTS.record_workers_max, Math.max(1, os.availableParallelism() - 1));
}

/** --record-workers: an integer from 1 to record_workers_max; default: the cores to spare. */
function recordWorkers(v: number | undefined): number {
  const n = intAtLeast('record-workers', v, 1, defaultRecordWorkers());
  if (n > DEFAULTS.record_workers_max) bad('record-workers', `must be at most ${DEFAULTS.record_workers_max}, got ${n}`);
  return n;
}

/** --histogram-significant-digits: an integer from 1 to 5 (HdrHistogram's range; 0 would be too coarse to report). */
function histogramDigits(v: number | undefined): number {
  const digits = intAtLeast('histogram-significant-digits', v, 1, DEFAULTS.histogram_significant_digits);
  if (digits > 5) bad('histogram-significant-digits', `must be at most 5, got ${digits}`);
  return digits;
}

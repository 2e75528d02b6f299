// RunConfig: validated once from the command line, then read-only for every stage.
import type { DatasetConfig } from '../dataset/config.js';
import type { MediaConfig } from '../dataset/media-config.js';
import type { LoadConfig } from '../load/config.js';
import type { OverSaturationConfig, SearchConfig } from '../load/search-flags.js';
import type { GpuTelemetryConfig } from '../telemetry/types.js';
import type { ServerMetricsConfig } from '../server-metrics/options.js';
import type { StatisticsSettings } from './statistics.js';
import type { TargetsConfig } from './target-flags.js';
import type { TemplateSettings } from '../endpoints/template-config.js';
import type { EndpointSettings } from '../endpoints/settings.js';
import type { ExportLevel } from '../export/records.js';
import type { NetworkLatencySettings } from '../transport/network-calibration.js';
import type { TlsSettings } from '../transport/tls.js';
import type { UrlCredentials } from '../endpoints/auth.js';
import type { EndpointType } from '../endpoints/types.js';
import type { ShardConfig } from './shard.js';

export type UiMode = 'auto' | 'none';

export interface MockSettings {
  ttft_ms: number | null;
  itl_ms: number | null;
}

/** One --goodput objective: a record metric's tag and its threshold in the metric's display unit. */
export interface GoodputSlo {
  readonly tag: string;
  readonly value: number;
}

/** Settings of the metric catalogue (usage, OSL mismatch, goodput, network, HTTP trace display). */
export interface MetricSettings {
  readonly usage_discrepancy_threshold_pct: number;
  readonly osl_mismatch_pct_threshold: number;
  readonly osl_mismatch_max_token_threshold: number;
  readonly goodput: readonly GoodputSlo[];
  readonly network_latency: NetworkLatencySettings;
  /** Show the HTTP trace table in the console (always exported). */
  readonly show_trace_timing: boolean;
}

export interface RunConfig {
  /** Target base URL; null means: start the built-in mock server as a child process. */
  readonly url: string | null;
  readonly model: string;
  readonly endpoint_type: EndpointType;
  /** --endpoint-type template: the body template and response paths (endpoints/template-config.ts); else null. */
  readonly template: TemplateSettings | null;
  /** Request path, e.g. /v1/chat/completions. */
  readonly endpoint: string;
  readonly streaming: boolean;
  readonly api_key: string | null;
  /** Credentials given in --url (stripped from `url`), sent as Basic auth unless an API key is given (endpoints/auth.ts). */
  readonly url_credentials: UrlCredentials | null;
  /** Every --url (the first is `url`) and --model (the first is `model`), and how requests are spread over them. */
  readonly targets: TargetsConfig;
  /** Extra request headers (lower-cased names). */
  readonly headers: Readonly<Record<string, string>>;
  /** Merged into every request body. */
  readonly extra_inputs: Readonly<Record<string, unknown>>;
  /** Embeddings batching, rankings flavor and passages, the Anthropic version (endpoints/settings.ts). */
  readonly endpoint_settings: EndpointSettings;

  readonly concurrency: number;
  /** Scheduling beyond closed loop: rates, ramps, phases, grace, cancellation, replay, sweeps (load/config.ts). */
  readonly load: LoadConfig;
  /** --search: the largest load meeting the SLOs (run/series/search.ts); null: off. */
  readonly search: SearchConfig | null;
  /** --stop-on-over-saturation: the slope test's settings (run/single/over-saturation.ts); null: off. */
  readonly over_saturation: OverSaturationConfig | null;
  /** Profiling requests to send; null when the run is bounded by duration. */
  readonly request_count: number | null;
  readonly benchmark_duration_s: number | null;
  readonly warmup_request_count: number;
  readonly request_timeout_s: number;

  readonly isl_mean: number;
  readonly isl_stddev: number;
  readonly osl_mean: number | null;
  readonly osl_stddev: number;
  readonly random_seed: number;
  /** Custom dataset files, synthetic multi-turn, prefix sharing, length mixtures (see src/dataset/config.ts). */
  readonly dataset: DatasetConfig;
  /** Images and audio: synthetic inputs, audio files, generation sizes (see src/dataset/media-config.ts). */
  readonly media: MediaConfig;

  /** --tokenizer: a path, folder, Hugging Face model id, npm package, or 'server'; null: the --model's, else cl100k. */
  readonly tokenizer: string | null;
  /** --tokenizer-revision: the Hugging Face revision (ref name or commit hash); null: main. */
  readonly tokenizer_revision: string | null;
  readonly use_server_token_count: boolean;
  /** Ask for cumulative usage on every chunk and correct the ITL divisor with it (chat, streaming, server counts). */
  readonly per_chunk_usage: boolean;
  readonly metrics: MetricSettings;
  /** Confidence intervals, metric conventions and repeated runs (config/statistics.ts). */
  readonly statistics: StatisticsSettings;

  /** null: artifacts/<model>-<endpoint>-<mode>-<timestamp> (see resolveArtifactDir). */
  readonly artifact_dir: string | null;
  readonly export_level: ExportLevel;
  readonly ui: UiMode;
  /** --histogram-significant-digits: precision (1–5) of the HDR histograms behind every distribution. */
  readonly histogram_significant_digits: number;

  /** --transport: undici, the native engine (http:// and https://), or auto (native whenever it can serve the URL). */
  readonly transport: 'auto' | 'undici' | 'native';
  /** --ca-cert, --insecure, --client-cert, --client-key. */
  readonly tls: TlsSettings;
  /** --transport-threads: I/O threads of the native engine. */
  readonly transport_threads: number;
  /** --read-coalesce-us: the native engine's hold-off between looks at its sockets after a read, µs (0: eager). */
  readonly read_coalesce_us: number;
  /** --preconnect (default on): the native engine opens the run's connections before the first request. */
  readonly preconnect: boolean;
  /**
   * --kernel-stamps (default off): native engine reads over plain TCP carry the kernel's receive time
   * (SO_TIMESTAMPING) rather than the recv() return.
   */
  readonly kernel_stamps: boolean;
  /** --max-response-bytes: a response body past this ends as a parse_error record. */
  readonly max_response_bytes: number;
  /** --max-event-bytes: one SSE event past this ends its request as a parse_error record. */
  readonly max_event_bytes: number;
  /** --record-workers: worker threads that count tokens and serialize records.jsonl (run/pipeline/record-pipeline.ts). */
  readonly record_workers: number;

  /** GPU power/energy sources (--gpu-telemetry); null: off. */
  readonly gpu_telemetry: GpuTelemetryConfig | null;

  /** The server's Prometheus metrics (--server-metrics, --no-server-metrics, --server-metrics-interval-ms). */
  readonly server_metrics: ServerMetricsConfig;
  /** --slice-duration: seconds per time slice of the profiling window (timeslices.json/.csv); null: off. */
  readonly slice_duration_s: number | null;

  /** --shard-index/--shard-count/--start-at: this process's part of a sharded run (config/shard.ts); null: not sharded. */
  readonly shard: ShardConfig | null;

  /** Settings for the built-in mock when url is null. */
  readonly mock: MockSettings;
  /** --config: the YAML file merged under the command line; null: none. The other fields are the merged values. */
  readonly config_file: string | null;
}

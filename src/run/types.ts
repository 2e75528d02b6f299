// The types the run wiring shares: a run's environment and outcome (run-once.ts), a sweep's
// points and summary rows (sweep.ts, sweep-summary.ts, sweep-table.ts).
import type { ConversationSource } from '../dataset/types.js';
import type { BenchmarkResult } from '../load/benchmark.js';
import type { RunControl } from '../load/control.js';
import type { LoadMode, ResolvedPlan } from '../load/plan.js';
import type { MetricsSummary } from '../metrics/core/summary.js';
import type { ArtifactWriteError } from '../errors.js';
import type { RecordError } from '../model/raw-record.js';
import type { TextTokenizer } from '../tokenizer/types.js';
import type { ProgressLine } from '../ui/progress.js';

export interface RunEnv {
  /** The server (or the mock started for the run). */
  baseUrl: string;
  tokenizer: TextTokenizer;
  control: RunControl;
  /** Where this run's exports go (created if missing). */
  dir: string;
  /** The conversations to send; default: the dataset the config describes. */
  source?: ConversationSource;
  /** A source and plan already checked (prepareRun), so bad input surfaced before anything started. */
  prepared?: PreparedRun;
  log: (msg: string) => void;
  progress?: ProgressLine | null;
  /** Extra top-level fields for profile_export.json (e.g. the sweep point). */
  extra?: Record<string, unknown>;
}

export interface RunOutcome {
  dir: string;
  mode: LoadMode;
  summary: MetricsSummary;
  result: BenchmarkResult;
  firstError: RecordError | null;
  /** The first artifact that could not be written (records.jsonl or an export); the run stopped there. */
  writeError: ArtifactWriteError | null;
  /** Console tables printed after the metrics' (server metrics, client vs server); null: none. */
  console: string | null;
  /** --stop-on-over-saturation stopped the run. */
  overSaturated?: boolean;
}

export interface PreparedRun {
  source: ConversationSource;
  resolved: ResolvedPlan;
}

export type PointStrategy = 'synchronous' | 'throughput' | 'concurrency' | 'rate';

export interface SweepPoint {
  /** 0-based position in the sweep. */
  index: number;
  strategy: PointStrategy;
  /** Closed-loop concurrency, or the cap of a rate point (null: none). */
  concurrency: number | null;
  /** Open-loop target rate (requests/s), null for closed-loop points. */
  rate: number | null;
}

export interface SweepRow {
  point: number;
  strategy: PointStrategy;
  /** Closed-loop concurrency, or a rate point's cap. */
  concurrency: number | null;
  /** Target rate of an open-loop point (requests/s). */
  target_request_rate: number | null;
  /** Successful requests per second over the profiling window (request_throughput). */
  achieved_request_rate: number | null;
  ttft_p50_ms: number | null;
  ttft_p99_ms: number | null;
  itl_p50_ms: number | null;
  itl_p99_ms: number | null;
  output_token_throughput: number | null;
  /** Good requests per second (null without goodput SLOs). */
  goodput: number | null;
  good_request_fraction: number | null;
  issued: number;
  succeeded: number;
  errored: number;
  cancelled: number;
  /** The point's export folder, relative to the sweep folder. */
  dir: string;
}

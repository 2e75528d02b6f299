// One run's environment and outcome (run-once.ts), as the series of runs (../series/) and the
// profile command (../profile/) hand them over and read them back.
import type { ConversationSource } from '../../dataset/types.js';
import type { BenchmarkResult } from '../../load/benchmark.js';
import type { RunControl } from '../../load/control.js';
import type { LoadMode, ResolvedPlan } from '../../load/plan.js';
import type { MetricsSummary } from '../../metrics/core/summary.js';
import type { ArtifactWriteError } from '../../errors.js';
import type { RecordError } from '../../model/raw-record.js';
import type { TextTokenizer } from '../../tokenizer/types.js';
import type { ProgressLine } from '../../ui/progress.js';

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

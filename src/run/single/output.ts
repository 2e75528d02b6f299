// A run's outputs: everything that consumes what one run produces (the summary, the breakdown, the
// stage and slice tables, telemetry, server metrics, the harness monitor, the progress line...)
// implements this one interface, as k6's output.Output does (Start, AddMetricSamples, Stop), and
// runOnce holds a list of them (outputs/index.ts). Every hook is optional: an output implements
// what it needs. runOnce calls the hooks in list order, except `stop` and `close`, which run in
// reverse (what started first stops last).
import type { SummaryEnd } from '../../metrics/accumulate.js';
import type { MetricsSummary } from '../../metrics/core/summary.js';
import type { BenchmarkResult } from '../../load/benchmark.js';
import type { CreditCounters } from '../../load/counters.js';
import type { PhaseSpec } from '../../load/types.js';
import type { Credit } from '../../model/credit.js';
import type { Phase } from '../../model/phase.js';
import type { ProcessedRecord } from '../../model/processed-record.js';
import type { RawRecord } from '../../model/raw-record.js';
import type { PreconnectResult } from '../../transport/types.js';

/** The load is over (runBenchmark returned); records may still be in the record pipeline. */
export interface LoadEnd {
  result: BenchmarkResult;
  /** --preconnect's connections (null: none opened before the load). */
  preconnect: PreconnectResult | null;
  /** The record pipeline's backlog: its peak, its workers, and the records counted on the main thread. */
  backlog: { maxWaiting: number; workers: number; countedHere: number };
}

/** The summary is known: what an output reports from. */
export interface RunFinish {
  result: BenchmarkResult;
  summary: MetricsSummary;
  /** The run's artifact dir. */
  dir: string;
  /** Console tables in color (stdout is a terminal). */
  color: boolean;
}

/** What an output adds to the run's exports and console. */
export interface OutputReport {
  /** Top-level fields of profile_export.json, placed in the output's list order. */
  section?: Record<string, unknown>;
  /** A console table printed after the metrics' (ordered by outputs/index.ts CONSOLE_ORDER). */
  console?: string | null;
}

export interface RunOutput {
  /** Names the output in CONSOLE_ORDER and in errors. */
  readonly name: string;
  /** Before the record workers load and the connections open: start sampling (telemetry, scrapes). */
  start?(): Promise<void>;
  /** Right before the first phase, once the connections are up. */
  loadStart?(): void;
  phaseStart?(phase: Phase, counters: CreditCounters, spec: PhaseSpec): void;
  phaseEnd?(phase: Phase): void;
  /**
   * Hot path: a request is about to be sent. An output with this hook keeps the send on the JS
   * dispatch path (the native slot gate would send without it).
   */
  requestSent?(credit: Credit): void;
  /** Hot path: a request finished (any outcome); `rec` is still whole (before the pipeline slims it). */
  requestDone?(raw: RawRecord, rec: ProcessedRecord): void;
  /** A batch of records made final by the record pipeline (counts, metrics, line written). */
  recordsSettled?(batch: readonly ProcessedRecord[]): void;
  /** The load is over: take the run's own measures; may return an amended result (the over-saturation stop). */
  loadEnd?(end: LoadEnd): BenchmarkResult | void;
  /** Every record settled and the transport closed: stop sampling (called in reverse list order). */
  stop?(result: BenchmarkResult): Promise<void>;
  /** What the summary needs from this output (GPU energy, the network RTT). */
  summaryEnd?(): Promise<SummaryEnd>;
  /** The summary is known: write this output's files; return its export section and console table. */
  finish?(run: RunFinish): Promise<OutputReport | void> | OutputReport | void;
  /** Always, success or failure, after the last batch settled (reverse list order); may be called after stop. */
  close?(): Promise<void> | void;
}

// The outputs of one run, in one list (../output.ts says what an output is). To add an output:
// write a class implementing RunOutput, and add it to the list below where its export section
// belongs.
import type { RunConfig } from '../../../config/types.js';
import type { WallAnchor } from '../../../export/json.js';
import type { LoadMode } from '../../../load/plan.js';
import type { TransportRouter } from '../../../transport/router.js';
import type { CatalogueRun } from '../catalogue-run.js';
import type { RunOutput } from '../output.js';
import type { ClockEstimate } from '../shard-start.js';
import type { RunEnv } from '../types.js';
import { BreakdownOutput } from './breakdown.js';
import { PhasesOutput, RunIdentityOutput } from './facts.js';
import { HarnessOutput } from './harness.js';
import { ProgressOutput } from './progress.js';
import { SaturationOutput } from './saturation.js';
import { ServerMetricsOutput } from './server-metrics.js';
import { ShardOutput } from './shard.js';
import { SlicesOutput } from './slices.js';
import { StagesOutput } from './stages.js';
import { FirstErrorOutput, SummaryOutput } from './summary.js';
import { TelemetryOutput } from './telemetry.js';
import { TimedRecords } from './timed.js';

/** The console tables after the metrics', in this order; any other output's follow in list order. */
export const CONSOLE_ORDER: readonly string[] = ['breakdown', 'server_metrics', 'stages'];

export interface OutputWiring {
  cfg: RunConfig;
  env: RunEnv;
  mode: LoadMode;
  transport: TransportRouter;
  /** The metric catalogue's hooks, made first: the record processor takes its options. */
  catalogue: CatalogueRun;
  /** A shard's clock estimate (null: not a shard), and the run's wall anchor. */
  clock: ClockEstimate | null;
  anchor: WallAnchor;
}

export interface RunOutputs {
  list: RunOutput[];
  /** The ones whose product runOnce returns besides the exports. */
  summary: SummaryOutput;
  firstError: FirstErrorOutput;
  saturation: SaturationOutput | null;
}

export function runOutputs({ cfg, env, mode, transport, catalogue, clock, anchor }: OutputWiring): RunOutputs {
  const digits = cfg.histogram_significant_digits;
  const summary = new SummaryOutput({ metricOptions: catalogue.startOptions(), significantDigits: digits });
  const firstError = new FirstErrorOutput();
  const timed = TimedRecords.of(cfg);
  const telemetry = cfg.gpu_telemetry
    ? new TelemetryOutput(cfg.gpu_telemetry, mode === 'concurrency' ? cfg.concurrency : null, env.dir, env.log)
    : null;
  const server = new ServerMetricsOutput(cfg.server_metrics, env.baseUrl, env.log);
  const saturation = cfg.over_saturation ? new SaturationOutput(cfg.over_saturation, env.control, env.log) : null;
  const stages = cfg.load.stages;
  const slices = cfg.slice_duration_s;
  // In profile_export.json's order: an output's section lands where the output sits. The samplers
  // (telemetry, server metrics) start in this order and stop in the reverse.
  const list: (RunOutput | null)[] = [
    summary,
    firstError,
    timed,
    cfg.shard && clock ? new ShardOutput(cfg.shard, clock, anchor, env.log) : null,
    telemetry,
    server,
    new RunIdentityOutput(env.tokenizer.name, transport.name),
    new HarnessOutput(transport, cfg.transport_threads ?? 1, env.log),
    new PhasesOutput(mode),
    stages && timed ? new StagesOutput(stages, timed) : null,
    catalogue,
    saturation,
    BreakdownOutput.of(cfg),
    slices !== null && timed ? new SlicesOutput(slices, digits, timed, server, telemetry) : null,
    env.progress ? new ProgressOutput(env.progress) : null,
  ];
  return { list: list.filter((o): o is RunOutput => o !== null), summary, firstError, saturation };
}

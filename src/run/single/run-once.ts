// One benchmark run, end to end, against a server that is already up: source → plan → scheduler
// → transport → records → summary → exports. The CLI calls it once, a sweep once per point.
// Each stage is built here and handed the previous stage's output.
import path from 'node:path';
import { redactConfig, secretsOf } from '../../config/redact.js';
import { addSecrets } from '../../secrets.js';
import type { RunConfig } from '../../config/types.js';
import { createConversationSource } from '../../dataset/index.js';
import type { ConversationSource } from '../../dataset/types.js';
import { shardSource } from '../../dataset/shard-source.js';
import { withTestDelay } from '../../dataset/test-delay.js';
import { adapterFor } from '../../endpoints/index.js';
import { makeArtifactDir } from '../../export/artifact-file.js';
import { RECORDS_JSONL, writeSummaryArtifacts } from '../../export/artifacts.js';
import { ArtifactWriteError } from '../../errors.js';
import type { WallAnchor } from '../../export/json.js';
import { SummaryAccumulator } from '../../metrics/compute.js';
import { RunTelemetry } from '../../telemetry/run.js';
import { RunServerMetrics, type ServerMetricsReport } from '../../server-metrics/run.js';
import { clientSlices, sliceRecord, sliceWindows, type SliceRecord } from '../../timeslices/slices.js';
import { writeTimeslices } from '../../timeslices/export.js';
import { findMetric } from '../../metrics/core/summary.js';
import type { MeasurementWindow } from '../../metrics/core/options.js';
import { defaultRegistry } from '../../metrics/catalogue.js';
import { CatalogueRun } from './catalogue-run.js';
import { RecordProcessor, type PreparedRecord } from '../../records/process.js';
import { RecordPipeline, recordWorkerCrashHook } from '../pipeline/record-pipeline.js';
import type { CreditCounters } from '../../load/counters.js';
import type { ProcessedRecord, RecordError } from '../../records/types.js';
import type { TextTokenizer } from '../../tokenizer/types.js';
import { TransportRouter } from '../../transport/router.js';
import { preconnectRun } from './preconnect.js';
import { BreakdownBuilder } from '../../export/breakdown.js';
import { HarnessMonitor, noteRecordBacklog, type HarnessReport } from '../../harness/monitor.js';
import { type BenchmarkPlan, type BenchmarkResult, type PhaseOutcome, runBenchmark } from '../../load/benchmark.js';
import { buildPlan } from '../../load/plan.js';
import type { PreparedRun, RunEnv, RunOutcome } from './types.js';
import { servebenchVersion } from '../../version.js';
import { writeRunReport } from './run-report.js';
import { SaturationWatch } from './saturation-watch.js';
import { estimateClock, shardSection, startAtMonotonic } from './shard-start.js';
import { renderStages, stageResults, type StageResult } from './stage-report.js';
import type { ShardConfig } from '../../config/shard.js';

/**
 * The transport's slot gate for the closed-loop phases (load/types.ts SlotGate), where requests
 * do not depend on each other: one-turn conversations (a session's next turn waits for a reply),
 * no deliberate cancellation (its delay runs from the send) and no over-saturation watch (which
 * counts sends as they go out).
 */
function slotGatePlan(
  transport: TransportRouter,
  source: ConversationSource,
  plan: BenchmarkPlan,
  watched: boolean,
): Pick<BenchmarkPlan, 'gate'> {
  if (source.singleTurn !== true || plan.cancellation !== null || watched) return {};
  const gate = transport.slotGate();
  return gate ? { gate } : {};
}

function describeShard(s: ShardConfig, startAtNs: bigint | null): string {
  const at =
    startAtNs === null
      ? 'profiling starts at once'
      : `profiling starts at ${new Date(s.start_at_unix_ms!).toISOString()} (in ${(Number(startAtNs - process.hrtime.bigint()) / 1e9).toFixed(1)} s, after any warmup)`;
  return `shard ${s.index} of ${s.count}: ${at}`;
}

function phaseJson(o: PhaseOutcome | null): Record<string, unknown> | null {
  if (o === null) return null;
  return {
    start_ns: o.start_ns,
    measured_end_ns: o.measured_end_ns,
    issue_end_ns: o.issue_end_ns,
    end_ns: o.end_ns,
    stop_reason: o.reason,
    grace_period_expired: o.grace_expired,
    sessions: o.sessions,
  };
}

/**
 * The run's source and plan. Everything that can be wrong with the dataset, or with the flags
 * given that dataset, is raised here (InvalidArgumentError / InvalidFileError), before any request.
 */
export async function prepareRun(
  cfg: RunConfig,
  tokenizer: TextTokenizer,
  log: (msg: string) => void,
  source?: ConversationSource,
): Promise<PreparedRun> {
  // A fresh source per run, so every sweep point sends the same conversations in the same order.
  const src = source ?? withTestDelay(await createConversationSource(cfg, tokenizer, { log }), process.env);
  const resolved = buildPlan(cfg, src);
  // A shard draws its own conversations of the run's stream; a replay's entries are split in the plan.
  return { source: resolved.mode === 'fixed_schedule' ? src : shardSource(src, cfg.shard), resolved };
}

export async function runOnce(cfg: RunConfig, env: RunEnv): Promise<RunOutcome> {
  // Every record line, export and log line is scrubbed of the run's secrets (src/secrets.ts).
  addSecrets(secretsOf(cfg));
  const { source, resolved } = env.prepared ?? (await prepareRun(cfg, env.tokenizer, env.log, env.source));
  const { plan, mode, connections, replay } = resolved;
  if (replay) {
    if (replay.outOfOrder > 0) env.log(`warning: ${replay.outOfOrder} trace entries are out of time order; replaying in time order`);
    if (replay.missingTimestamp > 0)
      env.log(`warning: ${replay.missingTimestamp} conversations have no timestamp; sent at the schedule start`);
    if (replay.skipped > 0) env.log(`fixed schedule: ${replay.skipped} conversations outside the start/end offsets are skipped`);
    const first = replay.schedule.entries[0].offsetNs / 1e9;
    if (first > 60)
      env.log(
        `fixed schedule: the first request is due ${first.toFixed(0)} s after the start (--fixed-schedule-auto-offset starts at the first timestamp)`,
      );
  }

  const adapter = adapterFor(cfg.endpoint_type, cfg);
  // The metric catalogue's hooks (issue 4): --per-chunk-usage, network RTT probes, thresholds and SLOs.
  const catalogue = new CatalogueRun(cfg, env.baseUrl, env.dir);
  const processor = new RecordProcessor({
    adapter,
    tokenizer: env.tokenizer,
    useServerTokenCount: cfg.use_server_token_count,
    ...catalogue.processorOptions,
  });
  // --transport (auto: the native engine for plain http://, else undici); see transport/select.ts.
  // SSE payloads are decoded natively, where they are framed; raw exports keep every payload too.
  const decode = { spec: adapter.decodeSpec, keepPayloads: cfg.export_level === 'raw' };
  // An artifact dir that cannot be made is one line (ArtifactWriteError), before anything is sent.
  await makeArtifactDir(env.dir);
  // One transport per --url; each request's URL and model are picked as it is sent (transport/router.ts).
  const transport = await TransportRouter.open(cfg, adapter, env.baseUrl, connections, env.log, decode);
  // The first artifact that could not be written (a full disk): the run stops issuing, drains, still
  // tries every export, and ends with this one line (exit code 1).
  let writeError: ArtifactWriteError | null = null;
  // Phase → its credit counters, so a record that turns into an error after dispatch is re-counted.
  const counters = new Map<string, CreditCounters>();
  // The run keeps no records: each one, once final, goes into the summary, the per-URL/model
  // breakdown, and (with --stages or --slice-duration) a few numbers for those tables.
  const digits = cfg.histogram_significant_digits;
  const summaryAcc = new SummaryAccumulator({ metricOptions: catalogue.startOptions(), significantDigits: digits });
  const keys = (['url', 'model'] as const).filter((k) => (k === 'url' ? cfg.targets.urls : cfg.targets.models).length > 1);
  const breakdownAcc = keys.length > 0 ? new BreakdownBuilder({ significantDigits: digits }, keys) : null;
  const timed: SliceRecord[] | null = cfg.load.stages || cfg.slice_duration_s !== null ? [] : null;
  let firstError: RecordError | null = null;
  const onSettled = (recs: readonly ProcessedRecord[]): void => {
    for (const r of recs) {
      summaryAcc.add(r);
      breakdownAcc?.add(r);
      if (r.raw.credit.phase !== 'profiling') continue;
      if (timed) timed.push(sliceRecord(r));
      if (firstError === null && r.error) firstError = r.error;
    }
  };
  // Token counts, per-record metrics and records.jsonl lines, on worker threads (run/pipeline/record-pipeline.ts).
  const pipeline = new RecordPipeline({
    workers: cfg.record_workers,
    tokenizerPath: env.tokenizer.path,
    count: (t) => env.tokenizer.count(t),
    ...(env.tokenizer.server ? { server: env.tokenizer.server } : {}),
    convention: cfg.statistics.convention,
    registry: catalogue.processorOptions.registry ?? defaultRegistry(),
    compareWith: catalogue.processorOptions.compareWith,
    file: cfg.export_level === 'summary' ? null : { path: path.join(env.dir, RECORDS_JSONL), level: cfg.export_level },
    onSettled,
    onLateError: (rec, was) => counters.get(rec.raw.credit.phase)?.amend(was, rec.status),
    onWriteError: (err) => {
      writeError ??= err;
      env.control.stop();
    },
    crashAtBatch: recordWorkerCrashHook(),
  });
  // --stop-on-over-saturation: this run's own control, stopped on the verdict (saturation-watch.ts).
  const watch = cfg.over_saturation ? new SaturationWatch(cfg.over_saturation, env.control, env.log) : null;
  const progress = env.progress ?? null;
  // A shard's clock-error estimate (chrony, else the server's Date header), taken before the anchor.
  const clock = cfg.shard ? await estimateClock(env.baseUrl) : null;
  const wallAnchor: WallAnchor = { monotonic_ns: process.hrtime.bigint(), unix_ns: BigInt(Date.now()) * 1_000_000n };
  const startAtNs = startAtMonotonic(cfg.shard, wallAnchor);
  if (cfg.shard) env.log(describeShard(cfg.shard, startAtNs));

  // GPU telemetry runs from before warmup to one grace period after the profiling window.
  const telemetry = cfg.gpu_telemetry ? await RunTelemetry.start(cfg.gpu_telemetry, env.log) : null;
  // The server's own metrics, scraped from before the first request to after the last (server-metrics/).
  const serverMetrics = await RunServerMetrics.start(cfg.server_metrics, env.baseUrl, env.log);
  let result: BenchmarkResult;
  let gpu: Awaited<ReturnType<RunTelemetry['finish']>> | null = null;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await transport.close();
    await pipeline.close();
  };
  // Workers load their tokenizer before the first send, not while requests go out.
  await pipeline.ready();
  // The closed loop's connections, up before the load starts (as wrk does), so the first wave is
  // not timed through a connect burst of the harness's own making.
  const preconnected = await preconnectRun(cfg, mode, plan, connections, transport);
  if (preconnected && preconnected.opened < preconnected.asked)
    env.log(`preconnect: ${preconnected.opened} of ${preconnected.asked} connections came up before the load; the rest open on demand`);
  // The harness's own lag over the run (event loop, dispatch, send schedule, CPU): harness/monitor.ts.
  const harness = new HarnessMonitor(transport, undefined, cfg.transport_threads ?? 1).start();
  let harnessReport: HarnessReport;
  try {
    result = await runBenchmark(
      // The native engine stamps on its own threads, so the pacer may nap instead of spinning.
      { ...plan, nap: transport.name === 'native', startAtNs, ...slotGatePlan(transport, source, plan, watch !== null) },
      source,
      {
        dispatch: async (credit, opts) => {
          watch?.onSend(credit.phase);
          const raw = await transport.sendCredit(credit, opts.signal);
          // Never sent (the slot gate's waiting requests at a stop): no record, counted unsent.
          if (raw.unsent) return { status: 'unsent', reply: null };
          harness.observe(raw);
          let prepared: PreparedRecord;
          try {
            prepared = processor.prepare(raw);
          } catch (err) {
            // A processing bug must not lose the request: it becomes an error record (error.type _OTHER).
            prepared = processor.prepare({
              ...raw,
              status: 'error',
              error: { type: '_OTHER', message: String(err), http_status: raw.http_status },
            });
          }
          const rec = prepared.record;
          const reply = opts.wantReply && rec.status === 'ok' ? (rec.content ?? '') : null;
          // Before submit, which slims the record.
          watch?.onDone(credit.phase, rec);
          // Counts, metrics and the line follow off this thread; the record is slimmed there.
          pipeline.submit(prepared);
          return { status: rec.status, reply };
        },
        cancelAll: (reason) => transport.cancelAll(reason),
        onPhaseStart: (phase, phaseCounters, spec) => {
          counters.set(phase, phaseCounters);
          watch?.onPhaseStart(phase);
          catalogue.onPhaseStart(phase);
          const cooldown = phase === 'cooldown';
          progress?.start(phase, phaseCounters, {
            requestCount: cooldown || spec.mode.kind === 'fixed_schedule' ? null : spec.requestCount,
            durationS: cooldown ? (spec.cooldownNs ?? 0) / 1e9 : spec.durationNs === null ? null : spec.durationNs / 1e9,
          });
        },
        onPhaseEnd: () => progress?.stop(),
      },
      watch?.control ?? env.control,
    );
    if (watch) result = watch.amend(result);
    harnessReport = harness.finish();
    if (preconnected) harnessReport.preconnect = preconnected;
    // Every record has been handed over by now: the backlog's peak is known.
    noteRecordBacklog(harnessReport, pipeline.maxWaiting, cfg.record_workers, pipeline.countedHere);
    for (const w of harnessReport.warnings) env.log(w);
    await close();
    await serverMetrics?.stop();
    if (telemetry && result.profiling) {
      gpu = await telemetry.finish(
        { start_ns: result.profiling.start_ns, end_ns: result.profiling.end_ns },
        mode === 'concurrency' ? cfg.concurrency : null,
        env.dir,
      );
    }
  } finally {
    progress?.stop();
    watch?.dispose();
    await close();
    await telemetry?.stop();
    await serverMetrics?.stop(false);
  }

  const summary = summaryAcc.finish({
    ...(gpu?.gpuEnergy ? { gpuEnergy: gpu.gpuEnergy } : {}),
    network_rtt_ns: (await catalogue.metricOptions(env.log)).network_rtt_ns ?? null,
    measurement_window: measurementWindow(result),
  });
  // Per URL and per model, beside the totals, when the run had more than one of either (export/breakdown.ts).
  const breakdown = breakdownAcc?.build(process.stdout.isTTY === true) ?? null;
  const degraded = findMetric(summary, 'replay_sched_degraded');
  if (degraded?.kind === 'single' && degraded.stats.avg === 1) {
    const ms = (tag: string) => {
      const m = findMetric(summary, tag);
      return m?.kind === 'single' ? (m.stats.avg / 1e6).toFixed(1) : '?';
    };
    env.log(
      `warning: the replay fell behind its schedule (send lag p50 ${ms('replay_sched_lag_p50')} ms, p90 ${ms('replay_sched_lag_p90')} ms, p99 ${ms('replay_sched_lag_p99')} ms > 500 ms); the server saw a lower rate than the trace's`,
    );
  }
  const p = result.profiling;
  const shard = cfg.shard && clock ? shardSection(cfg.shard, wallAnchor, p?.start_ns ?? null, clock) : null;
  if (shard?.late)
    env.log(`warning: shard ${shard.index} started profiling ${shard.late_ms!.toFixed(0)} ms after --start-at ${shard.start_at}`);
  const st = cfg.load.stages;
  const stages: StageResult[] | null = st && p ? stageResults(st.target, st.stages, p.start_ns, timed ?? []) : null;
  let server: ServerMetricsReport | null = null;
  try {
    if (serverMetrics && p) {
      server = await serverMetrics.report({ start_ns: p.start_ns, end_ns: p.end_ns }, summary, env.dir, {
        color: process.stdout.isTTY === true,
      });
    }
    // --slice-duration: timeslices.json/.csv over the profiling window (timeslices/).
    if (cfg.slice_duration_s !== null && p) {
      const windows = sliceWindows(p.start_ns, p.end_ns, BigInt(Math.round(cfg.slice_duration_s * 1e9)));
      const slices = clientSlices(timed ?? [], windows, digits);
      for (const s of slices) {
        if (serverMetrics) s.server = serverMetrics.sliceValues(s);
        if (telemetry && gpu) s.gpu_power_w = telemetry.powerOver(s);
      }
      await writeTimeslices(env.dir, cfg.slice_duration_s, slices);
    }
    await writeSummaryArtifacts(env.dir, summary, {
      config: { ...redactConfig(cfg), artifact_dir: env.dir, resolved_url: cfg.url === null ? env.baseUrl : cfg.url },
      run: { start_ns: p?.start_ns ?? null, end_ns: p?.end_ns ?? null, wall_anchor: wallAnchor },
      extra: {
        servebench_version: servebenchVersion(),
        ...(shard ? { shard } : {}),
        ...(gpu ? { gpu_telemetry: gpu.section } : {}),
        ...(server ? { server_metrics: server.section } : {}),
        tokenizer: env.tokenizer.name,
        transport: transport.name,
        harness: harnessReport,
        load_mode: mode,
        interrupted: result.interrupted,
        // Credit accounting per phase: sent = completed + in flight; unsent were due but never got a slot.
        credits: {
          warmup: result.warmup?.counters.toJSON() ?? null,
          profiling: p?.counters.toJSON() ?? null,
          cooldown: p?.cooldown?.toJSON() ?? null,
        },
        phases: { warmup: phaseJson(result.warmup), profiling: phaseJson(p) },
        // GuideLLM's measurement window (see load/benchmark.ts): profiling start → measured end.
        measurement_window: p ? { start_ns: p.start_ns, end_ns: p.measured_end_ns } : null,
        ...(stages ? { stages } : {}),
        ...catalogue.report(summary),
        ...watch?.report(),
        ...(breakdown ? { breakdown: breakdown.json } : {}),
        ...env.extra,
      },
    });
  } catch (err) {
    if (!(err instanceof ArtifactWriteError)) throw err;
    writeError ??= err;
  }
  if (writeError === null) writeRunReport(env.dir, env.log);
  const consoleText = [breakdown?.console, server?.console, stages && renderStages(stages, process.stdout.isTTY === true)]
    .filter((t) => !!t)
    .join('\n\n');
  return {
    dir: env.dir,
    mode,
    summary,
    result,
    firstError,
    writeError,
    console: consoleText === '' ? null : consoleText,
    overSaturated: watch?.stopped ?? false,
  };
}

/**
 * GuideLLM's measurement window as the event-level metrics read it: measure_start when a warmup ran
 * (the profiling phase's start), measure_end when a cooldown ran (the measured part's end); an
 * open bound otherwise, so a run without either filters nothing.
 */
function measurementWindow(result: BenchmarkResult): MeasurementWindow | null {
  const p = result.profiling;
  if (!p || (result.warmup === null && p.cooldown === null)) return null;
  return { start_ns: result.warmup ? p.start_ns : null, end_ns: p.cooldown ? p.measured_end_ns : null };
}

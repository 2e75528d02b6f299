// One benchmark run, end to end, against a server that is already up: source → plan → scheduler
// → transport → records → summary → exports. The CLI calls it once, a sweep once per point.
// Each stage is built here and handed the previous stage's output; what consumes the run (the
// summary, the breakdown, telemetry, server metrics, the harness monitor, the progress line...)
// is a list of outputs (output.ts, outputs/index.ts), called at each step.
import path from 'node:path';
import { redactConfig, secretsOf } from '../../config/redact.js';
import type { RunConfig } from '../../config/types.js';
import type { ShardConfig } from '../../config/shard.js';
import { createConversationSource } from '../../dataset/index.js';
import { shardSource } from '../../dataset/shard-source.js';
import { withTestDelay } from '../../dataset/test-delay.js';
import type { ConversationSource } from '../../dataset/types.js';
import { adapterFor } from '../../endpoints/index.js';
import { ArtifactWriteError } from '../../errors.js';
import { makeArtifactDir } from '../../export/artifact-file.js';
import { RECORDS_JSONL, writeSummaryArtifacts } from '../../export/artifacts.js';
import type { WallAnchor } from '../../export/json.js';
import { type BenchmarkPlan, type BenchmarkResult, runBenchmark } from '../../load/benchmark.js';
import type { CreditCounters } from '../../load/counters.js';
import { buildPlan, type ResolvedPlan } from '../../load/plan.js';
import { defaultRegistry } from '../../metrics/catalogue.js';
import type { SummaryEnd } from '../../metrics/accumulate.js';
import type { MeasurementWindow } from '../../metrics/core/options.js';
import { findMetric, type MetricsSummary } from '../../metrics/core/summary.js';
import { RecordProcessor, type PreparedRecord } from '../../records/process.js';
import { addSecrets } from '../../secrets.js';
import type { TextTokenizer } from '../../tokenizer/types.js';
import { TransportRouter } from '../../transport/router.js';
import { servebenchVersion } from '../../version.js';
import { RecordPipeline, recordWorkerCrashHook } from '../pipeline/record-pipeline.js';
import { CatalogueRun } from './catalogue-run.js';
import type { OutputReport, RunOutput } from './output.js';
import { CONSOLE_ORDER, runOutputs } from './outputs/index.js';
import { preconnectRun } from './preconnect.js';
import { writeRunReport } from './run-report.js';
import { estimateClock, startAtMonotonic } from './shard-start.js';
import type { PreparedRun, RunEnv, RunOutcome } from './types.js';

/**
 * The transport's slot gate for the closed-loop phases (load/types.ts SlotGate), where requests
 * do not depend on each other: one-turn conversations (a session's next turn waits for a reply),
 * no deliberate cancellation (its delay runs from the send) and no output watching the sends as they
 * go out (RunOutput.requestSent: the over-saturation watch).
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
  if (replay) logReplay(replay, env.log);

  const adapter = adapterFor(cfg.endpoint_type, cfg);
  // The metric catalogue's hooks (issue 4): --per-chunk-usage, network RTT probes, thresholds and SLOs.
  const catalogue = new CatalogueRun(cfg, env.baseUrl, env.dir, env.log);
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
  // A shard's clock-error estimate (chrony, else the server's Date header), taken before the anchor.
  const clock = cfg.shard ? await estimateClock(env.baseUrl) : null;
  const wallAnchor: WallAnchor = { monotonic_ns: process.hrtime.bigint(), unix_ns: BigInt(Date.now()) * 1_000_000n };
  const startAtNs = startAtMonotonic(cfg.shard, wallAnchor);
  if (cfg.shard) env.log(describeShard(cfg.shard, startAtNs));
  // The run keeps no records: its outputs (outputs/index.ts) take each batch once final, and the
  // per-request hooks of the few that watch the load as it goes.
  const outputs = runOutputs({ cfg, env, mode, transport, catalogue, clock, anchor: wallAnchor });
  const { list } = outputs;
  // The outputs of each per-record hook, picked once: the hot path loops over these alone, by index
  // (no iterator object per call before the optimizer removes it).
  const settled = list.filter((o) => o.recordsSettled !== undefined);
  const sent = list.filter((o) => o.requestSent !== undefined);
  const done = list.filter((o) => o.requestDone !== undefined);
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
    onSettled: (batch) => {
      for (let i = 0; i < settled.length; i++) settled[i].recordsSettled!(batch);
    },
    onLateError: (rec, was) => counters.get(rec.raw.credit.phase)?.amend(was, rec.status),
    onWriteError: (err) => {
      writeError ??= err;
      env.control.stop();
    },
    crashAtBatch: recordWorkerCrashHook(),
  });

  let result: BenchmarkResult;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await transport.close();
    await pipeline.close();
  };
  try {
    // The samplers (GPU telemetry, the server's metrics) run from before the first request to after the last.
    for (const o of list) await o.start?.();
    // Workers load their tokenizer before the first send, not while requests go out.
    await pipeline.ready();
    // The closed loop's connections, up before the load starts (as wrk does), so the first wave is
    // not timed through a connect burst of the harness's own making.
    const preconnected = await preconnectRun(cfg, mode, plan, connections, transport);
    if (preconnected && preconnected.opened < preconnected.asked)
      env.log(`preconnect: ${preconnected.opened} of ${preconnected.asked} connections came up before the load; the rest open on demand`);
    for (const o of list) o.loadStart?.();
    result = await runBenchmark(
      // The native engine stamps on its own threads, so the pacer may nap instead of spinning.
      { ...plan, nap: transport.name === 'native', startAtNs, ...slotGatePlan(transport, source, plan, sent.length > 0) },
      source,
      {
        dispatch: async (credit, opts) => {
          for (let i = 0; i < sent.length; i++) sent[i].requestSent!(credit);
          const raw = await transport.sendCredit(credit, opts.signal);
          // Never sent (the slot gate's waiting requests at a stop): no record, counted unsent.
          if (raw.unsent) return { status: 'unsent', reply: null };
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
          for (let i = 0; i < done.length; i++) done[i].requestDone!(raw, rec);
          // Counts, metrics and the line follow off this thread; the record is slimmed there.
          pipeline.submit(prepared);
          return { status: rec.status, reply };
        },
        cancelAll: (reason) => transport.cancelAll(reason),
        onPhaseStart: (phase, phaseCounters, spec) => {
          counters.set(phase, phaseCounters);
          for (const o of list) o.phaseStart?.(phase, phaseCounters, spec);
        },
        onPhaseEnd: (phase) => {
          for (const o of list) o.phaseEnd?.(phase);
        },
      },
      outputs.saturation?.control ?? env.control,
    );
    // Every record has been handed over by now: the backlog's peak is known.
    const backlog = { maxWaiting: pipeline.maxWaiting, workers: cfg.record_workers, countedHere: pipeline.countedHere };
    for (const o of list) result = o.loadEnd?.({ result, preconnect: preconnected, backlog }) ?? result;
    await close();
    for (const o of [...list].reverse()) await o.stop?.(result);
  } finally {
    await close();
    for (const o of [...list].reverse()) await o.close?.();
  }

  // The summary, once the outputs that feed it are done (GPU energy, the network RTT).
  let end: SummaryEnd = {};
  for (const o of list) if (o.summaryEnd) end = { ...end, ...(await o.summaryEnd()) };
  const summary = outputs.summary.summarize({ ...end, measurement_window: measurementWindow(result) });
  warnReplayLag(summary, env.log);
  // Each output's files, export section and console table; the first that cannot be written is the run's write error.
  const color = process.stdout.isTTY === true;
  const reports = new Map<RunOutput, OutputReport>();
  for (const o of list) {
    try {
      const r = await o.finish?.({ result, summary, dir: env.dir, color });
      if (r) reports.set(o, r);
    } catch (err) {
      if (!(err instanceof ArtifactWriteError)) throw err;
      writeError ??= err;
    }
  }
  try {
    await writeSummaryArtifacts(env.dir, summary, {
      config: { ...redactConfig(cfg), artifact_dir: env.dir, resolved_url: cfg.url === null ? env.baseUrl : cfg.url },
      run: { start_ns: result.profiling?.start_ns ?? null, end_ns: result.profiling?.end_ns ?? null, wall_anchor: wallAnchor },
      extra: {
        servebench_version: servebenchVersion(),
        ...sections(reports),
        ...env.extra,
      },
    });
  } catch (err) {
    if (!(err instanceof ArtifactWriteError)) throw err;
    writeError ??= err;
  }
  if (writeError === null) writeRunReport(env.dir, env.log);
  return {
    dir: env.dir,
    mode,
    summary,
    result,
    firstError: outputs.firstError.first,
    writeError,
    console: consoleText(reports),
    overSaturated: outputs.saturation?.stopped ?? false,
  };
}

/** The outputs' export sections, merged in list order. */
function sections(reports: ReadonlyMap<RunOutput, OutputReport>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of reports.values()) Object.assign(out, r.section);
  return out;
}

/** The outputs' console tables: CONSOLE_ORDER's first, then the others in list order; null: none. */
function consoleText(reports: ReadonlyMap<RunOutput, OutputReport>): string | null {
  const rank = (o: RunOutput) => {
    const i = CONSOLE_ORDER.indexOf(o.name);
    return i < 0 ? CONSOLE_ORDER.length : i;
  };
  const texts = [...reports]
    .map(([o, r], i) => ({ text: r.console, key: rank(o), i }))
    .filter((t): t is { text: string; key: number; i: number } => !!t.text)
    .sort((a, b) => a.key - b.key || a.i - b.i)
    .map((t) => t.text);
  return texts.length === 0 ? null : texts.join('\n\n');
}

/** A replay's warnings about its trace, before anything is sent. */
function logReplay(replay: NonNullable<ResolvedPlan['replay']>, log: (msg: string) => void): void {
  if (replay.outOfOrder > 0) log(`warning: ${replay.outOfOrder} trace entries are out of time order; replaying in time order`);
  if (replay.missingTimestamp > 0) log(`warning: ${replay.missingTimestamp} conversations have no timestamp; sent at the schedule start`);
  if (replay.skipped > 0) log(`fixed schedule: ${replay.skipped} conversations outside the start/end offsets are skipped`);
  const first = replay.schedule.entries[0].offsetNs / 1e9;
  if (first > 60)
    log(
      `fixed schedule: the first request is due ${first.toFixed(0)} s after the start (--fixed-schedule-auto-offset starts at the first timestamp)`,
    );
}

/** A replay that fell behind its schedule (metrics/ replay_sched_*): one warning with its send lag. */
function warnReplayLag(summary: MetricsSummary, log: (msg: string) => void): void {
  const degraded = findMetric(summary, 'replay_sched_degraded');
  if (degraded?.kind !== 'single' || degraded.stats.avg !== 1) return;
  const ms = (tag: string) => {
    const m = findMetric(summary, tag);
    return m?.kind === 'single' ? (m.stats.avg / 1e6).toFixed(1) : '?';
  };
  log(
    `warning: the replay fell behind its schedule (send lag p50 ${ms('replay_sched_lag_p50')} ms, p90 ${ms('replay_sched_lag_p90')} ms, p99 ${ms('replay_sched_lag_p99')} ms > 500 ms); the server saw a lower rate than the trace's`,
  );
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

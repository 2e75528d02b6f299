// `profile` wiring: config → (mock) → tokenizer → dataset → scheduler → transport → records →
// summary → exports. Each stage is built here and handed the previous stage's output; no logic lives here.
import path from 'node:path';
import fs from 'node:fs/promises';
import { resolveArtifactDir } from '../config/validate.js';
import { redactConfig, scrubSecrets } from '../config/redact.js';
import type { RunConfig } from '../config/types.js';
import { SyntheticDataset } from '../dataset/synthetic.js';
import { adapterFor } from '../endpoints/index.js';
import { RequestBuilder } from '../endpoints/request.js';
import { AllRequestsFailedError } from '../errors.js';
import { RECORDS_JSONL, writeSummaryArtifacts } from '../export/artifacts.js';
import { renderConsole } from '../export/console.js';
import { RecordsWriter } from '../export/records.js';
import { displayUnitOf } from '../export/units.js';
import { runBenchmark, type BenchmarkPlan } from '../load/benchmark.js';
import { StopToken } from '../load/concurrency.js';
import { summarize } from '../metrics/compute.js';
import { RunTelemetry } from '../telemetry/run.js';
import { spawnMock, type SpawnedMock } from '../mock/spawn.js';
import { RecordProcessor } from '../records/process.js';
import type { ProcessedRecord } from '../records/types.js';
import { loadTokenizer } from '../tokenizer/load.js';
import { UndiciTransport } from '../transport/undici.js';
import { ProgressLine } from '../ui/progress.js';
import { preflight, requireModel } from './preflight.js';

function log(msg: string): void {
  process.stderr.write(`servebench: ${msg}\n`);
}

function mockArgs(cfg: RunConfig): string[] {
  const a: string[] = ['--model-name', cfg.model];
  if (cfg.mock.ttft_ms !== null) a.push('--ttft-ms', String(cfg.mock.ttft_ms));
  if (cfg.mock.itl_ms !== null) a.push('--itl-ms', String(cfg.mock.itl_ms));
  return a;
}

/** Keep what the summary needs; the payloads are already on disk (or not wanted). */
function slim(rec: ProcessedRecord): ProcessedRecord {
  rec.raw.event_data = [];
  rec.raw.event_type = [];
  rec.raw.event_ns = [];
  rec.raw.body = null;
  rec.responses = [];
  rec.metric_input.token_ns = [];
  return rec;
}

export async function runProfile(initial: RunConfig): Promise<void> {
  let cfg = initial;
  let mock: SpawnedMock | null = null;
  let telemetry: RunTelemetry | null = null;
  const secrets = [cfg.api_key, ...Object.values(cfg.headers)];
  try {
    // Bad input (a tokenizer that does not load) fails before anything is started.
    const tokenizer = await loadTokenizer(cfg.tokenizer ?? undefined);
    let baseUrl: string;
    if (cfg.url === null) {
      mock = await spawnMock(mockArgs(cfg));
      baseUrl = mock.url;
      log(`started the built-in mock server at ${baseUrl}`);
    } else {
      baseUrl = cfg.url;
      const auth: Record<string, string> = { ...cfg.headers };
      if (cfg.api_key) auth.authorization = `Bearer ${cfg.api_key}`;
      const pre = await preflight(baseUrl, auth);
      cfg = Object.freeze({ ...cfg, model: requireModel(cfg.model, pre) });
    }

    const dataset = new SyntheticDataset(
      { isl_mean: cfg.isl_mean, isl_stddev: cfg.isl_stddev, osl_mean: cfg.osl_mean, osl_stddev: cfg.osl_stddev, seed: cfg.random_seed },
      tokenizer,
    );
    const adapter = adapterFor(cfg.endpoint_type);
    const builder = new RequestBuilder(cfg, adapter);
    const processor = new RecordProcessor({ adapter, tokenizer, useServerTokenCount: cfg.use_server_token_count });
    const transport = new UndiciTransport({
      baseUrl,
      connections: cfg.concurrency,
      requestTimeoutMs: cfg.request_timeout_s * 1000,
    });

    const dir = resolveArtifactDir(cfg, new Date());
    await fs.mkdir(dir, { recursive: true });
    const writer =
      cfg.export_level === 'summary' ? null : new RecordsWriter(path.join(dir, RECORDS_JSONL), cfg.export_level, displayUnitOf);
    const records: ProcessedRecord[] = [];
    const stop = new StopToken();
    const progress = new ProgressLine(process.stdout, cfg.ui === 'auto' && process.stdout.isTTY === true);

    let interrupted = 0;
    const onSigint = () => {
      interrupted++;
      if (interrupted > 1) process.exit(130);
      log('interrupted: no new requests; cancelling those in flight and writing the exports (Ctrl-C again to quit now)');
      stop.stop();
      transport.cancelAll('cancelled by the user (SIGINT)');
    };
    process.on('SIGINT', onSigint);

    const plan: BenchmarkPlan = {
      warmup:
        cfg.warmup_request_count > 0
          ? { phase: 'warmup', concurrency: cfg.concurrency, requestCount: cfg.warmup_request_count, durationNs: null }
          : null,
      profiling: {
        phase: 'profiling',
        concurrency: cfg.concurrency,
        requestCount: cfg.request_count,
        durationNs: cfg.benchmark_duration_s === null ? null : BigInt(Math.round(cfg.benchmark_duration_s * 1e9)),
      },
    };

    const wallAnchor = { monotonic_ns: process.hrtime.bigint(), unix_ns: BigInt(Date.now()) * 1_000_000n };
    log(`profiling ${baseUrl}${cfg.endpoint} (model ${cfg.model}, concurrency ${cfg.concurrency}); artifacts in ${dir}`);
    // GPU telemetry runs from before warmup to one grace period after the profiling window.
    telemetry = cfg.gpu_telemetry ? await RunTelemetry.start(cfg.gpu_telemetry, log) : null;
    const result = await runBenchmark(plan, dataset, {
      dispatch: async (credit) => {
        const raw = await transport.send(credit, builder.build(credit));
        let rec: ProcessedRecord;
        try {
          rec = processor.process(raw);
        } catch (err) {
          // A processing bug must not lose the request: it becomes an error record.
          rec = processor.process({ ...raw, status: 'error', error: { type: 'parse_error', message: String(err), http_status: raw.http_status } });
        }
        if (rec.error) rec.error.message = scrubSecrets(rec.error.message, secrets);
        writer?.write(rec);
        records.push(slim(rec));
        return rec.status;
      },
      onPhaseStart: (spec, counters) =>
        progress.start(spec.phase, counters, {
          requestCount: spec.requestCount,
          durationS: spec.durationNs === null ? null : Number(spec.durationNs) / 1e9,
        }),
      onPhaseEnd: () => progress.stop(),
    }, stop);
    process.off('SIGINT', onSigint);
    await transport.close();
    await writer?.close();

    const gpu =
      telemetry && result.profiling
        ? await telemetry.finish({ start_ns: result.profiling.start_ns, end_ns: result.profiling.end_ns }, cfg.concurrency, dir)
        : null;
    const summary = summarize(records, { gpuEnergy: gpu?.gpuEnergy });
    await writeSummaryArtifacts(dir, summary, {
      config: { ...redactConfig(cfg), artifact_dir: dir, resolved_url: cfg.url === null ? baseUrl : cfg.url },
      run: { start_ns: result.profiling.start_ns, end_ns: result.profiling.end_ns, wall_anchor: wallAnchor },
      extra: { ...(gpu ? { gpu_telemetry: gpu.section } : {}), tokenizer: tokenizer.name, transport: transport.name },
    });
    process.stdout.write('\n' + renderConsole(summary, { color: process.stdout.isTTY === true, width: process.stdout.columns || undefined }) + '\n');
    const c = summary.counts;
    log(`requests: ${c.issued} issued, ${c.succeeded} succeeded, ${c.errored} errored, ${c.cancelled} cancelled`);
    log(`exports written to ${dir}`);
    if (c.issued > 0 && c.succeeded === 0) {
      const firstErr = records.find((r) => r.error)?.error;
      throw new AllRequestsFailedError(`every request failed${firstErr ? ` (first error: ${firstErr.type}: ${firstErr.message})` : ''}; see ${dir}`);
    }
  } finally {
    await telemetry?.stop();
    await mock?.stop();
  }
}

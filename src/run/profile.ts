// `profile` wiring: tokenizer → server (the built-in mock, or a preflight of --url) → one run or a
// sweep (run-once.ts, sweep.ts, multi-run.ts) → console. Ctrl-C: the first stops issuing and lets
// in-flight requests finish within the grace period, the second cancels them now, the third quits;
// the exports are written either way.
import path from 'node:path';
import { resolveArtifactDir } from '../config/validate.js';
import type { RunConfig } from '../config/types.js';
import { AllRequestsFailedError } from '../errors.js';
import { renderConsole } from '../export/console.js';
import { RunControl } from '../load/control.js';
import { prepareRun, runOnce } from './run-once.js';
import { checkSweep, runSweep } from './sweep.js';
import { SWEEP_CSV } from './sweep-summary.js';
import { renderSweepTable } from './sweep-table.js';
import { spawnMock, type SpawnedMock } from '../mock/spawn.js';
import { loadTokenizer } from '../tokenizer/load.js';
import { ProgressLine } from '../ui/progress.js';
import { preflight, requireModel } from '../transport/preflight.js';
import { runRepeated } from './multi-run.js';
import { renderAggregateTable } from '../export/aggregate.js';

function log(msg: string): void {
  process.stderr.write(`servebench: ${msg}\n`);
}

function mockArgs(cfg: RunConfig): string[] {
  const a: string[] = ['--model-name', cfg.model];
  if (cfg.mock.ttft_ms !== null) a.push('--ttft-ms', String(cfg.mock.ttft_ms));
  if (cfg.mock.itl_ms !== null) a.push('--itl-ms', String(cfg.mock.itl_ms));
  return a;
}

function describeLoad(cfg: RunConfig): string {
  const l = cfg.load;
  if (l.sweep?.kind === 'auto') return `sweep of ${l.sweep.size} points`;
  if (l.sweep) return `sweep over ${l.sweep.kind} ${l.sweep.values.join(', ')}`;
  if (l.request_rate !== null)
    return `${l.arrival_pattern} rate ${l.request_rate} req/s${l.concurrency_cap ? `, at most ${l.concurrency_cap} in flight` : ''}`;
  return `concurrency ${cfg.concurrency}`;
}

/** Ctrl-C handling for the whole command. */
function onInterrupt(control: RunControl, graceS: number | null): () => void {
  let count = 0;
  const handler = () => {
    count++;
    if (count === 1) {
      control.stop();
      log(
        `interrupted: no new requests; waiting ${graceS === null ? 'without limit' : `up to ${graceS} s`} for those in flight, then writing the exports (Ctrl-C again to cancel them now)`,
      );
    } else if (count === 2) {
      control.cancel();
      log('interrupted again: cancelling the requests in flight and writing the exports (Ctrl-C again to quit now)');
    } else {
      process.exit(130);
    }
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

export async function runProfile(initial: RunConfig): Promise<void> {
  let cfg = initial;
  let mock: SpawnedMock | null = null;
  const control = new RunControl();
  const offInterrupt = onInterrupt(control, cfg.load.grace_period_s);
  try {
    // Bad input (a tokenizer that does not load, a bad dataset, flags that conflict with the
    // dataset) fails before anything is started.
    const tokenizer = await loadTokenizer(cfg.tokenizer ?? undefined);
    const prepared = cfg.load.sweep === null ? await prepareRun(cfg, tokenizer, log) : null;
    if (cfg.load.sweep !== null) await checkSweep(cfg, tokenizer, log);
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

    const dir = resolveArtifactDir(cfg, new Date());
    const progress = new ProgressLine(process.stdout, cfg.ui === 'auto' && process.stdout.isTTY === true);
    const env = { baseUrl, tokenizer, control, dir, log, progress };
    log(`profiling ${baseUrl}${cfg.endpoint} (model ${cfg.model}, ${describeLoad(cfg)}); artifacts in ${dir}`);

    if (cfg.load.sweep !== null) {
      const sweep = await runSweep(cfg, env);
      process.stdout.write('\n' + renderSweepTable(sweep.rows, { color: process.stdout.isTTY === true }) + '\n');
      log(`sweep: ${sweep.rows.length} points written to ${dir} (summary: ${path.join(dir, SWEEP_CSV)})`);
      if (sweep.rows.length > 0 && sweep.rows.every((r) => r.issued > 0 && r.succeeded === 0)) {
        throw new AllRequestsFailedError(`every request of every sweep point failed; see ${dir}`);
      }
      return;
    }

    // --num-profile-runs N: the run repeated, run_<i>/ each, statistics across them (multi-run.ts).
    if (cfg.statistics.num_profile_runs > 1) {
      const multi = await runRepeated(cfg, env, prepared!);
      const table = renderAggregateTable(multi.runs, cfg.statistics.confidence, { color: process.stdout.isTTY === true });
      if (table) process.stdout.write('\n' + table + '\n');
      log(
        `${multi.runs.length} of ${multi.labels.length} runs succeeded${multi.failed.length > 0 ? ` (failed: ${multi.failed.map((f) => f.label).join(', ')})` : ''}; aggregate: ${multi.aggregateFile}`,
      );
      if (multi.runs.length === 0) throw new AllRequestsFailedError(`no run succeeded; see ${dir}`);
      return;
    }

    const run = await runOnce(cfg, { ...env, prepared: prepared! });
    const { summary } = run;
    process.stdout.write(
      '\n' +
        renderConsole(summary, {
          color: process.stdout.isTTY === true,
          width: process.stdout.columns || undefined,
          showTraceTiming: cfg.metrics.show_trace_timing,
        }) +
        '\n' +
        (run.console ? run.console + '\n\n' : ''),
    );
    const c = summary.counts;
    log(`requests: ${c.issued} issued, ${c.succeeded} succeeded, ${c.errored} errored, ${c.cancelled} cancelled`);
    log(`exports written to ${dir}`);
    if (c.issued > 0 && c.succeeded === 0) {
      const e = run.firstError;
      throw new AllRequestsFailedError(`every request failed${e ? ` (first error: ${e.type}: ${e.message})` : ''}; see ${dir}`);
    }
  } finally {
    offInterrupt();
    await mock?.stop();
  }
}

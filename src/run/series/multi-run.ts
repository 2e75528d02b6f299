// --num-profile-runs N: the same benchmark N times against the same server, each run's exports in
// run_<i>/ (run-once.ts does each run), a cooldown between runs, and the statistics across
// the successful runs in aggregate/profile_export_aggregate.json. A run that throws, or whose every
// request failed, is listed in failed_runs and left out of the statistics; the rest go on. Ctrl-C
// ends the current run as usual and starts no further one.
import path from 'node:path';
import { redactConfig } from '../../config/redact.js';
import type { RunConfig } from '../../config/types.js';
import { ArtifactWriteError, InvalidArgumentError } from '../../errors.js';
import { writeAggregateExport, type FailedRun, type RunOutcomeForAggregate } from '../../export/aggregate.js';
import type { RunControl } from '../../load/control.js';
import { prepareRun, runOnce } from '../single/run-once.js';
import type { PreparedRun, RunEnv } from '../single/types.js';
import { waitUntil } from '../../load/timer.js';
import { writeRunReport } from '../single/run-report.js';
import { secondsToNs } from '../../timers.js';

export interface RepeatedRuns {
  runs: RunOutcomeForAggregate[];
  failed: FailedRun[];
  labels: string[];
  aggregateFile: string;
  interrupted: boolean;
}

export const runLabel = (i: number): string => `run_${i}`;

export async function runRepeated(
  cfg: RunConfig,
  env: Omit<RunEnv, 'dir' | 'prepared' | 'source' | 'extra'> & { dir: string; control: RunControl },
  first: PreparedRun,
): Promise<RepeatedRuns> {
  const n = cfg.statistics.num_profile_runs;
  const cooldownNs = BigInt(secondsToNs(cfg.statistics.profile_run_cooldown_s));
  const runs: RunOutcomeForAggregate[] = [];
  const failed: FailedRun[] = [];
  const labels: string[] = [];
  for (let i = 1; i <= n && !env.control.stopped; i++) {
    if (i > 1 && cooldownNs > 0n) {
      env.log(`cooldown: ${cfg.statistics.profile_run_cooldown_s} s before run ${i} of ${n}`);
      if (!(await waitUntil(process.hrtime.bigint() + cooldownNs, env.control))) break;
    }
    const label = runLabel(i);
    labels.push(label);
    env.log(`run ${i} of ${n} (${label})`);
    try {
      // A fresh source per run, so every run sends the same conversations in the same order.
      const prepared = i === 1 ? first : await prepareRun(cfg, env.tokenizer, env.log);
      const out = await runOnce(cfg, {
        ...env,
        dir: path.join(env.dir, label),
        prepared,
        extra: { profile_run: { label, index: i, of: n } },
      });
      // A full disk ends the series: the runs after it could not be written either.
      if (out.writeError) throw out.writeError;
      const c = out.summary.counts;
      if (c.issued > 0 && c.succeeded === 0) {
        const e = out.firstError;
        failed.push({ label, error: `every request failed${e ? ` (first error: ${e.type}: ${e.message})` : ''}` });
      } else {
        runs.push({ label, summary: out.summary });
      }
    } catch (err) {
      // Bad input is the same for every run, and a full disk too: stop at once.
      if (err instanceof InvalidArgumentError || err instanceof ArtifactWriteError) throw err;
      failed.push({ label, error: err instanceof Error ? err.message : String(err) });
      env.log(`${label} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const interrupted = env.control.stopped;
  const aggregateFile = await writeAggregateExport(env.dir, runs, {
    num_profile_runs: n,
    run_labels: labels,
    failed_runs: failed,
    confidence_level: cfg.statistics.confidence,
    cooldown_seconds: cfg.statistics.profile_run_cooldown_s,
    extra: { interrupted, config: { ...redactConfig(cfg), artifact_dir: env.dir } },
  });
  // The runs overlaid in one report (each run_<i> has its own too).
  if (runs.length > 0) writeRunReport(env.dir, env.log);
  return { runs, failed, labels, aggregateFile, interrupted };
}

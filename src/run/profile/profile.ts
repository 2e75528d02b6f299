// `profile` wiring: tokenizer → server (the built-in mock, or a preflight of --url) → one run or a
// sweep (run-once.ts, sweep.ts, multi-run.ts) → console. SIGINT, SIGTERM and SIGHUP: the first stops
// issuing and lets in-flight requests finish within the grace period, the second cancels them now;
// the exports are written either way (signals.ts).
import path from 'node:path';
import { resolveArtifactDir } from '../../config/validate.js';
import { authWarnings } from '../../endpoints/auth.js';
import { environmentSecrets, secretsOf } from '../../config/redact.js';
import type { RunConfig } from '../../config/types.js';
import { addSecrets, scrub } from '../../secrets.js';
import { hubToken } from '../../hub/index.js';
import { AllRequestsFailedError } from '../../errors.js';
import { renderConsole } from '../../export/console.js';
import { RunControl } from '../../load/control.js';
import { prepareRun, runOnce } from '../single/run-once.js';
import { checkSweep, runSweep } from '../series/sweep.js';
import { SWEEP_CSV } from '../series/sweep-summary.js';
import { renderSweepTable } from '../series/sweep-table.js';
import { runSearch } from '../series/search.js';
import { SEARCH_JSON, renderSearchTable } from '../series/search-summary.js';
import { spawnMock, type SpawnedMock } from '../../mock/spawn.js';
import { chooseTokenizer, serverTokenizer, tokenizerNeedsServer } from './tokenizer-choice.js';
import { SERVER_TOKENIZER } from '../../config/defaults.js';
import type { TextTokenizer } from '../../tokenizer/types.js';
import { ProgressLine } from '../../ui/progress.js';
import { preflight, requireModel } from '../../transport/preflight.js';
import { probeEndpoint } from '../../transport/endpoint-probe.js';
import { adapterFor } from '../../endpoints/index.js';
import { requestAuthHeaders } from '../../endpoints/request.js';
import { endpointUrl } from '../../transport/url.js';
import { runRepeated } from '../series/multi-run.js';
import { clearPreviousRun } from './artifact-dir.js';
import { reportLine } from '../single/run-report.js';
import { onStopSignals } from './signals.js';
import { renderAggregateTable } from '../../export/aggregate.js';

// Every line this command prints goes through the scrubber (src/secrets.ts).
function log(msg: string): void {
  process.stderr.write(scrub(`servebench: ${msg}\n`));
}

function print(text: string): void {
  process.stdout.write(scrub(text));
}

function mockArgs(cfg: RunConfig): string[] {
  const a: string[] = ['--model-name', cfg.model];
  // --tokenizer server against the built-in mock: it counts with its own tokenizer and serves /tokenize.
  if (cfg.tokenizer === SERVER_TOKENIZER) a.push('--tokenizer-kind', 'words');
  if (cfg.mock.ttft_ms !== null) a.push('--ttft-ms', String(cfg.mock.ttft_ms));
  if (cfg.mock.itl_ms !== null) a.push('--itl-ms', String(cfg.mock.itl_ms));
  return a;
}

function describeLoad(cfg: RunConfig): string {
  const l = cfg.load;
  if (cfg.search) return `search for the ${cfg.search.kind.replace('-', ' ')} meeting the SLOs for ${cfg.search.fraction} of requests`;
  if (l.sweep?.kind === 'auto') return `sweep of ${l.sweep.size} points`;
  if (l.sweep) return `sweep over ${l.sweep.kind} ${l.sweep.values.join(', ')}`;
  if (l.stages) return `${l.stages.stages.length} stages of ${l.stages.target}`;
  if (l.request_rate !== null)
    return `${l.arrival_pattern} rate ${l.request_rate} req/s${l.concurrency_cap ? `, at most ${l.concurrency_cap} in flight` : ''}`;
  return `concurrency ${cfg.concurrency}`;
}

export async function runProfile(initial: RunConfig): Promise<void> {
  let cfg = initial;
  // Before anything is printed or written: every string out of this process is scrubbed of these.
  addSecrets([...secretsOf(cfg), ...environmentSecrets(process.env)]);
  hubToken(); // the Hugging Face token (HF_TOKEN or its file), a secret from here on (read here, registered as it is read)
  for (const w of authWarnings(cfg)) log(`warning: ${w}`);
  if (cfg.tls.warning !== null) log(`warning: ${cfg.tls.warning}`);
  let server: Promise<Server> | null = null;
  const control = new RunControl();
  const offInterrupt = onStopSignals(control, cfg.load.grace_period_s, log);
  // A stop before the run started (Ctrl-C during a Hub download) ends the download: nothing is sent then.
  const downloads = new AbortController();
  const offDownloads = control.onChange(() => downloads.abort());
  try {
    // The built-in mock starts while the tokenizer loads and the dataset is made (each takes a good
    // part of a second); a --url is reached after them, so bad input sends it nothing.
    if (cfg.url === null) {
      server = reachServer(cfg);
      server.catch(() => {}); // its failure is reported below, after bad input's
    }
    // Bad input (a tokenizer that does not load, a bad dataset, flags that conflict with the
    // dataset) is reported before the mock's failure and before anything is sent to a --url, unless
    // the tokenizer needs the server (it is the server's, or the --model's, named by the server).
    const early = tokenizerNeedsServer(cfg) ? null : await chooseTokenizer(cfg, downloads.signal);
    const prepare = async (tok: TextTokenizer) => {
      if (cfg.load.sweep !== null) await checkSweep(cfg, tok, log);
      return cfg.load.sweep === null ? prepareRun(cfg, tok, log) : null;
    };
    let prepared = early ? await prepare(early.tokenizer) : null;
    server ??= reachServer(cfg);
    const up = await server;
    const baseUrl = up.baseUrl;
    const auth = up.auth;
    if (up.mock !== null) log(`started the built-in mock server at ${baseUrl}`);
    else cfg = Object.freeze({ ...cfg, model: up.model });
    const chosen =
      early ??
      (cfg.tokenizer === SERVER_TOKENIZER
        ? { tokenizer: await serverTokenizer(cfg, baseUrl, auth, log), note: null }
        : await chooseTokenizer(cfg, downloads.signal));
    // Said once the server answered, so a run that cannot start reports only why.
    if (chosen.note !== null) log(chosen.note);
    const tokenizer = chosen.tokenizer;
    if (early === null) prepared = await prepare(tokenizer);

    const dir = resolveArtifactDir(cfg, new Date());
    // A reused dir: the previous run's exports go, so none is mistaken for this run's (artifact-dir.ts).
    const removed = await clearPreviousRun(dir);
    if (removed.length > 0) {
      const shown = removed.slice(0, 4).join(', ') + (removed.length > 4 ? `, and ${removed.length - 4} more` : '');
      log(`${dir} holds a previous run's exports: removed ${shown} (other files are kept)`);
    }
    const progress = new ProgressLine(process.stdout, cfg.ui === 'auto' && process.stdout.isTTY === true);
    const env = { baseUrl, tokenizer, control, dir, log, progress };
    log(`profiling ${endpointUrl(baseUrl, cfg.endpoint)} (model ${cfg.model}, ${describeLoad(cfg)}); artifacts in ${dir}`);

    if (cfg.search !== null) {
      // --search: points picked one after another (run/series/search.ts); the first is checked like any run's.
      const search = await runSearch(cfg, env);
      print('\n' + renderSearchTable(cfg.search, search.rows, { color: process.stdout.isTTY === true }) + '\n' + search.line + '\n');
      log(`search: ${search.rows.length} points written to ${dir} (summary: ${path.join(dir, SEARCH_JSON)})`);
      if (search.rows.length > 0) log(`reports: one report.html in each point's folder, ${path.join(dir, 'point-*')}`);
      if (search.rows.length > 0 && search.rows.every((r) => r.total > 0 && r.succeeded === 0)) {
        throw new AllRequestsFailedError(`every request of every search point failed; see ${dir}`);
      }
      return;
    }

    if (cfg.load.sweep !== null) {
      const sweep = await runSweep(cfg, env);
      print('\n' + renderSweepTable(sweep.rows, { color: process.stdout.isTTY === true }) + '\n');
      log(`sweep: ${sweep.rows.length} points written to ${dir} (summary: ${path.join(dir, SWEEP_CSV)})`);
      sayReport(dir, log);
      if (sweep.rows.length > 0 && sweep.rows.every((r) => r.issued > 0 && r.succeeded === 0)) {
        throw new AllRequestsFailedError(`every request of every sweep point failed; see ${dir}`);
      }
      return;
    }

    // --num-profile-runs N: the run repeated, run_<i>/ each, statistics across them (multi-run.ts).
    if (cfg.statistics.num_profile_runs > 1) {
      const multi = await runRepeated(cfg, env, prepared!);
      const table = renderAggregateTable(multi.runs, cfg.statistics.confidence, { color: process.stdout.isTTY === true });
      if (table) print('\n' + table + '\n');
      log(
        `${multi.runs.length} of ${multi.labels.length} runs succeeded${multi.failed.length > 0 ? ` (failed: ${multi.failed.map((f) => f.label).join(', ')})` : ''}; aggregate: ${multi.aggregateFile}`,
      );
      sayReport(dir, log);
      if (multi.runs.length === 0) throw new AllRequestsFailedError(`no run succeeded; see ${dir}`);
      return;
    }

    const run = await runOnce(cfg, { ...env, prepared: prepared! });
    const { summary } = run;
    print(
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
    // The summary above is whole (it is computed in memory); what could not be written is one line, exit code 1.
    if (run.writeError) throw run.writeError;
    log(`exports written to ${dir}`);
    sayReport(dir, log);
    if (c.issued > 0 && c.succeeded === 0) {
      const e = run.firstError;
      throw new AllRequestsFailedError(`every request failed${e ? ` (first error: ${e.type}: ${e.message})` : ''}; see ${dir}`);
    }
  } finally {
    offInterrupt();
    offDownloads();
    // A mock still starting is waited for, so it is stopped.
    await (await server?.catch(() => null))?.mock?.stop();
  }
}

/** The last line of a run: where its report.html is (a run, a sweep, repeated runs). */
function sayReport(dir: string, log: (msg: string) => void): void {
  const line = reportLine(dir);
  if (line !== null) log(line);
}

interface Server {
  baseUrl: string;
  auth: Record<string, string>;
  /** The built-in mock, when no --url was given. */
  mock: SpawnedMock | null;
  /** The model to ask for (--url: --model, else the one the server names). */
  model: string;
}

/** The built-in mock started, or every --url reached (the preflight). */
async function reachServer(cfg: RunConfig): Promise<Server> {
  if (cfg.url === null) {
    const mock = await spawnMock(mockArgs(cfg));
    return { baseUrl: mock.url, auth: {}, mock, model: cfg.model };
  }
  const baseUrl = cfg.url;
  const adapter = adapterFor(cfg.endpoint_type, cfg);
  const auth = requestAuthHeaders(cfg, adapter);
  const pre = await preflight(baseUrl, auth, undefined, process.env, cfg.tls);
  // Chat and completions are the preflight's own; a template server's body and the Realtime WebSocket are the user's.
  if (!['chat', 'completions', 'template', 'realtime'].includes(cfg.endpoint_type))
    await probeEndpoint(baseUrl, cfg.endpoint, cfg.endpoint_type, auth, undefined, process.env, cfg.tls);
  // Every further --url is reached before the run too (each with its own credentials).
  for (const t of cfg.targets.urls.slice(1))
    await preflight(t.url, requestAuthHeaders({ ...cfg, url_credentials: t.credentials }, adapter), undefined, process.env, cfg.tls);
  return { baseUrl, auth, mock: null, model: requireModel(cfg.model, pre) };
}

// The scaling rows of the end-to-end bench (issue 11, item 5): the real `servebench profile` with
// --transport-threads 1 and 2, at the cost setting of bench/e2e.js (same load, same marginal method),
// with the CPU split by kind of thread that each run writes (harness.cpu.threads: the JS main thread,
// the engine's I/O threads, the rest), and from that split a prediction for a 16-core host
// (bench/scale-model.js). bench/e2e.js runs these rows in each repetition, after its own.
import { CLIENT_CPU, MOCK_CPU, canPin, cores } from './harness-procs.js';
import { over } from './e2e-report.js';
import { ASSUMPTIONS, bestIoThreads, predict } from './scale-model.js';

export const PREDICT_CORES = 16;
const PREDICT_IO = [1, 2, 4, 8];

/**
 * The rows: key → { label, extra (profile flags), cpus (taskset list), spread (client not on one CPU) }.
 * With two cores the spread client shares the mock's CPU; with more it gets every CPU but the mock's.
 */
export function scaleClients({ quick = false } = {}) {
  const spreadCpus = cores > 2 ? `0-${MOCK_CPU - 1}` : `0-${cores - 1}`;
  const spreadText = cores > 2 ? `client on CPUs ${spreadCpus}` : `client on both CPUs, sharing CPU ${MOCK_CPU} with the mock`;
  const t = (n) => ['--transport-threads', String(n)];
  const rows = {
    'sb-t1': { label: 'servebench --transport-threads 1', extra: t(1), cpus: CLIENT_CPU, spread: false },
    'sb-t2': { label: 'servebench --transport-threads 2', extra: t(2), cpus: CLIENT_CPU, spread: false },
  };
  if (canPin) {
    if (!quick)
      rows['sb-t1-spread'] = { label: `servebench --transport-threads 1, ${spreadText}`, extra: t(1), cpus: spreadCpus, spread: true };
    rows['sb-t2-spread'] = { label: `servebench --transport-threads 2, ${spreadText}`, extra: t(2), cpus: spreadCpus, spread: true };
  }
  return rows;
}

const f = (x, d = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '—');
const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '—');
const cpuText = (c) => (canPin ? `${c.cpus} (mock: ${MOCK_CPU})` : 'not pinned');

/**
 * Tables, lines and the JSON-ready prediction of the scaling rows. `results.runs` holds `<key>:small`,
 * `<key>:big` and (full runs) `<key>:keep`; `setting`: { C, OSL, COST, KEEP, offeredCost, offeredKeep }.
 */
export function scaleReport(results, rows, setting) {
  const r = results.runs;
  const keys = Object.keys(rows).filter((k) => r[`${k}:big`]);
  const marg = (k, field) => over(r, [`${k}:small`, `${k}:big`], (s, b) => ((b[field] - s[field]) / (b.events - s.events)) * 1e6);
  const fig = (k, mode, fn) => over(r, [`${k}:${mode}`], fn);
  const evs = (k, mode) => fig(k, mode, (x) => x.events / x.wall_s);
  const split = (k) => ({ main_us: marg(k, 'thread_main_s'), io_us: marg(k, 'thread_io_s'), other_us: marg(k, 'thread_other_s') });
  const own = (k, kind) => fig(k, 'big', (x) => x.thread_per_event_us?.[kind] ?? NaN);
  const why = (k) => {
    const e = [`${k}:small`, `${k}:big`, `${k}:keep`].flatMap((n) => r[n] ?? []).find((x) => x?.error || x?.errors > 0);
    return e ? ` (${e.error ?? `${e.errors} errors`})` : '';
  };
  const withKeep = keys.some((k) => r[`${k}:keep`]);
  const tables = [
    {
      title:
        `End to end, I/O threads: concurrency ${f(setting.C)}, OSL ${setting.OSL}, mock TTFT ${setting.COST.ttft} ms / ITL ${setting.COST.itl} ms ` +
        `(${f(setting.offeredCost)} events/s offered); marginal µs/event = (${f(results.big)}-request run − ${f(results.small)}-request run) / events: ` +
        `total from wait4 rusage, by thread from each run's harness.cpu.threads (JS main thread, engine I/O threads, other: record workers, GC, compiler); ` +
        `"run's own" = that run's per_event_us (whole run, start-up included); medians of ${results.reps} interleaved repetitions`,
      columns: [
        'client',
        'client CPUs',
        'events/s (big run)',
        '÷ offered',
        ...(withKeep ? [`keeps up (ITL ${setting.KEEP.itl} ms): events/s ÷ offered`] : []),
        'total µs/event',
        'JS main µs/event',
        'I/O µs/event',
        'other µs/event',
        "run's own main / I/O / other µs/event",
        'JS thread busy (big)',
        'mock CPU',
      ],
      rows: keys.map((k) => {
        const s = split(k);
        const total = marg(k, 'user_s') + marg(k, 'sys_s');
        return [
          rows[k].label + why(k),
          cpuText(rows[k]),
          f(evs(k, 'big')),
          pct(evs(k, 'big') / setting.offeredCost),
          ...(withKeep ? [r[`${k}:keep`] ? `${f(evs(k, 'keep'))} (${pct(evs(k, 'keep') / setting.offeredKeep)})` : '—'] : []),
          f(total, 2),
          f(s.main_us, 2),
          f(s.io_us, 2),
          f(s.other_us, 2),
          `${f(own(k, 'main'), 2)} / ${f(own(k, 'io'), 2)} / ${f(own(k, 'other'), 2)}`,
          pct(fig(k, 'big', (x) => x.elu)),
          pct(fig(k, 'big', (x) => x.mock_cpu_share)),
        ];
      }),
    },
  ];
  const lines = [];
  if (canPin && cores === 2)
    lines.push(
      `on this 2-core host the mock and the client are pinned one CPU each: with --transport-threads 2 both I/O threads share the client's one CPU ` +
        `with the JS thread and the record worker, so that row shows the cost of threading (more wake-ups, fewer events per read), not scaling; ` +
        `the "both CPUs" rows let the client's threads run on the mock's CPU too, so they show what a second CPU adds less what the mock ` +
        `(its share of one CPU: the last column) and the host's other load take of it`,
    );
  else if (!canPin) lines.push('client and mock not pinned (fewer than two cores, or no taskset): every row shares all CPUs with the mock');

  // The basis: one I/O thread on one core, the closest measured case to an I/O thread with a core of its own.
  const basis = ['sb-t1', 'sb-t2'].find((k) => keys.includes(k) && validSplit(split(k)));
  const prediction = {
    cores: PREDICT_CORES,
    basis: basis ?? null,
    split: basis ? split(basis) : null,
    rows: [],
    best: null,
    assumptions: ASSUMPTIONS,
  };
  if (!basis) {
    lines.push(`16-core prediction: no run gave a per-thread CPU split (harness.cpu.threads needs Linux /proc)`);
    return { tables, lines, prediction };
  }
  const sp = prediction.split;
  prediction.rows = PREDICT_IO.map((n) => ({ io_threads: n, ...predict(sp, { cores: PREDICT_CORES, ioThreads: n }) }));
  prediction.best = bestIoThreads(sp, { cores: PREDICT_CORES });
  const row = (n, p) => [String(n), f(p.events_per_s), p.limit_text, f(p.bounds.main), f(p.bounds.io), f(p.bounds.cores)];
  const bestIn = PREDICT_IO.includes(prediction.best.ioThreads);
  tables.push({
    title:
      `Prediction for a ${PREDICT_CORES}-core host (bench/scale-model.js), from the marginal split of "${rows[basis].label}" measured here: ` +
      `JS main ${f(sp.main_us, 2)}, I/O ${f(sp.io_us, 2)}, other ${f(sp.other_us, 2)} µs/event; events/s = the lowest of the three bounds`,
    columns: [
      'I/O threads',
      'predicted events/s',
      'limit',
      'JS thread: 1e6 / main',
      'I/O: N × 1e6 / io',
      `cores: ${PREDICT_CORES - 1} × 1e6 / (io + other)`,
    ],
    rows: [
      ...prediction.rows.map((p) => row(p.io_threads, p)),
      ...(bestIn ? [] : [row(`${prediction.best.ioThreads} (fewest that reach the best)`, prediction.best)]),
    ],
  });
  const t2 = split('sb-t2');
  const t2p = basis !== 'sb-t2' && validSplit(t2) ? predict(t2, { cores: PREDICT_CORES, ioThreads: 2 }) : null;
  // The spread row's I/O threads are not preempted by the JS thread on their core: the nearest case here to a big host's.
  const spread = keys.includes('sb-t2-spread') ? split('sb-t2-spread') : null;
  const spreadBest = spread && validSplit(spread) ? bestIoThreads(spread, { cores: PREDICT_CORES }) : null;
  if (spreadBest) prediction.from_spread = { split: spread, best: spreadBest };
  lines.push(
    `${PREDICT_CORES}-core prediction: ${f(prediction.best.events_per_s)} events/s with ${prediction.best.ioThreads} I/O thread(s) (more add nothing); ` +
      `the limit is ${prediction.best.limit_text}` +
      (t2p
        ? `; from the 2-thread row's split (its threading overhead included) 2 I/O threads give ${f(t2p.events_per_s)} events/s, limit: ${t2p.limit}`
        : '') +
      (spreadBest
        ? `; from the both-CPUs 2-thread row's split (I/O ${f(spread.io_us, 2)} µs/event) ${f(spreadBest.events_per_s)} events/s with ` +
          `${spreadBest.ioThreads} I/O thread(s), limit: ${spreadBest.limit}`
        : ''),
  );
  lines.push(`${PREDICT_CORES}-core prediction ${ASSUMPTIONS}`);
  return { tables, lines, prediction };
}

const validSplit = (s) =>
  [s.main_us, s.io_us, s.other_us].every((v) => Number.isFinite(v) && v >= 0) && s.main_us + s.io_us + s.other_us > 0;

// Tables and target lines of the end-to-end section of the harness benchmark (bench/e2e.js runs
// it). Every figure is a median over repetitions; marginal figures pair the small and the big run of
// one repetition.
import { median } from './lib.js';

export const good = (x) => x && !x.error && x.requests > 0;
export const med = (xs) => {
  const v = xs.filter(Number.isFinite);
  return v.length ? median(v) : NaN;
};
/** Median over repetitions of fn(run of rep i, …) for the named runs. */
export function over(runs, names, fn) {
  const lists = names.map((n) => runs[n] ?? []);
  const n = Math.min(...lists.map((l) => l.length));
  const vals = [];
  for (let i = 0; i < n; i++) {
    const xs = lists.map((l) => l[i]);
    if (xs.every(good)) vals.push(fn(...xs));
  }
  return med(vals);
}
const f = (x, d = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '—');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '—');
const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '—');
const firstError = (runs, names) => names.flatMap((n) => runs[n] ?? []).find((x) => x?.error || x?.errors > 0);
const why = (runs, names) => {
  const e = firstError(runs, names);
  return e ? ` (${e.error ?? `${e.errors} errors`})` : '';
};
const verdict = (ok) => (ok ? 'met' : 'missed');

/**
 * The section's tables and target lines from its runs. `labels`: client key → row label; `setting`: the
 * settings ({ C, OSL, COST, KEEP, offeredCost, offeredKeep }).
 */
export function report(results, keys, labels, setting) {
  const { C, OSL, COST, KEEP } = setting;
  const r = results.runs;
  const marg = (k, field) => over(r, [`${k}:small`, `${k}:big`], (s, b) => ((b[field] - s[field]) / (b.events - s.events)) * 1e6);
  const m = Object.fromEntries(
    keys.map((k) => {
      const user = marg(k, 'user_s');
      const sys = marg(k, 'sys_s');
      return [k, { user, sys, total: user + sys, main: marg(k, 'main_thread_s'), busy: marg(k, 'js_busy_s') }];
    }),
  );
  const evs = (k, mode) => over(r, [`${k}:${mode}`], (x) => x.events / x.wall_s);
  const fig = (k, mode, field) => over(r, [`${k}:${mode}`], (x) => x[field]);
  const offCost = setting.offeredCost;
  const offKeep = setting.offeredKeep;
  const tables = [];
  tables.push({
    title:
      `End to end, cost: concurrency ${f(C)}, OSL ${OSL}, mock TTFT ${COST.ttft} ms / ITL ${COST.itl} ms (${f(offCost)} events/s offered, more than one core reads); ` +
      `marginal CPU per event = (${f(results.big)}-request run − ${f(results.small)}-request run) / events, whole client process (wait4 rusage); medians of ${results.reps} interleaved repetitions`,
    columns: [
      'client',
      'user µs/event',
      'sys µs/event',
      'total µs/event',
      '÷ aiohttp',
      '÷ C reader',
      'main thread CPU µs/event',
      'JS busy µs/event',
      'events/s (big run)',
      'ITL p50 ms (client / server stamps)',
      'peak RSS MiB (big)',
      'mock CPU',
    ],
    rows: keys.map((k) => [
      labels[k] + why(r, [`${k}:small`, `${k}:big`]),
      f(m[k].user, 2),
      f(m[k].sys, 2),
      f(m[k].total, 2),
      ratio(m[k].total, m.aiohttp?.total),
      ratio(m[k].total, m.c?.total),
      f(m[k].main, 2),
      k.startsWith('sb') ? f(m[k].busy, 2) : '—',
      f(evs(k, 'big')),
      `${f(fig(k, 'big', 'itl_ms_p50'), 2)} / ${f(fig(k, 'big', 'server_itl_ms_p50'), 2)}`,
      f(fig(k, 'big', 'maxrss_mib'), 1),
      pct(fig(k, 'big', 'mock_cpu_share')),
    ]),
  });
  // CPU per event over the keeps-up run (not marginal: one run; servebench's start left out).
  const runCost = (k) => over(r, [`${k}:keep`], (x) => (x.run_cpu_s / x.events) * 1e6);
  // servebench's default rows carry no server stamps; the raw run of the same setting gives them.
  const serverItl = (k) => (k.startsWith('sb') ? fig('sb', 'raw', 'server_itl_ms_p50') : fig(k, 'keep', 'server_itl_ms_p50'));
  tables.push({
    title: `End to end, keeps up: concurrency ${f(C)}, OSL ${OSL}, mock TTFT ${KEEP.ttft} ms / ITL ${KEEP.itl} ms, ${f(results.keep_requests)} requests (${f(offKeep)} events/s offered); medians`,
    columns: [
      'client',
      'events/s',
      '÷ offered',
      'TTFT p50 ms',
      'ITL p50 ms',
      'server-stamp ITL p50 ms',
      'ITL ÷ server',
      'JS thread busy',
      'harness names client bottleneck',
      'client CPU µs/event',
      'client CPU ÷ one core',
      'mock CPU',
    ],
    rows: keys
      .filter((k) => r[`${k}:keep`])
      .map((k) => {
        const itl = fig(k, 'keep', 'itl_ms_p50');
        const named = (r[`${k}:keep`] ?? []).filter(good).map((x) => x.bottleneck);
        return [
          labels[k] + why(r, [`${k}:keep`]),
          f(evs(k, 'keep')),
          pct(evs(k, 'keep') / offKeep),
          f(fig(k, 'keep', 'ttft_ms_p50'), 2),
          f(itl, 3),
          f(serverItl(k), 3),
          ratio(itl, serverItl(k)),
          pct(fig(k, 'keep', 'elu')),
          named.length && k.startsWith('sb') ? `${named.filter(Boolean).length}/${named.length} runs` : '—',
          f(runCost(k), 2),
          pct(over(r, [`${k}:keep`], (x) => x.run_cpu_s / x.run_wall_s)),
          pct(fig(k, 'keep', 'mock_cpu_share')),
        ];
      }),
  });
  const rawStamp = (q, mode = 'raw') => over(r, [`sb:${mode}`], (x) => x.stamp_error_ms?.[q]);
  tables.push({
    title: `End to end, stamps: client stamp − mock send stamp per event (ms), keeps-up setting; servebench at --export-level raw (its chunk stamps), the peers by their own stamps`,
    columns: ['client', 'events stamped', 'p50', 'p99', 'max', 'ITL p50 by client stamps', 'by server stamps'],
    rows: [
      [
        'servebench profile (native, --export-level raw)' + why(r, ['sb:raw']),
        f(over(r, ['sb:raw'], (x) => x.stamp_error_ms?.count)),
        f(rawStamp('p50'), 3),
        f(rawStamp('p99'), 3),
        f(rawStamp('max'), 3),
        f(fig('sb', 'raw', 'stamped_itl_ms_p50'), 3),
        f(fig('sb', 'raw', 'server_itl_ms_p50'), 3),
      ],
      ...(r['sb:rawk']
        ? [
            [
              'servebench profile (native, --export-level raw --kernel-stamps)' + why(r, ['sb:rawk']),
              f(over(r, ['sb:rawk'], (x) => x.stamp_error_ms?.count)),
              f(rawStamp('p50', 'rawk'), 3),
              f(rawStamp('p99', 'rawk'), 3),
              f(rawStamp('max', 'rawk'), 3),
              f(fig('sb', 'rawk', 'stamped_itl_ms_p50'), 3),
              f(fig('sb', 'rawk', 'server_itl_ms_p50'), 3),
            ],
          ]
        : []),
      ...['c', 'c-coalesce', 'aiohttp']
        .filter((k) => r[`${k}:keep`])
        .map((k) => {
          const s = (q) => over(r, [`${k}:keep`], (x) => x.stamp_error_ms?.[q]);
          return [
            labels[k],
            f(s('count')),
            f(s('p50'), 3),
            f(s('p99'), 3),
            f(s('max'), 3),
            f(fig(k, 'keep', 'itl_ms_p50'), 3),
            f(fig(k, 'keep', 'server_itl_ms_p50'), 3),
          ];
        }),
    ],
  });

  const targets = [];
  const ach = evs('sb', 'keep') / offKeep;
  const itl = fig('sb', 'keep', 'itl_ms_p50');
  const ttft = fig('sb', 'keep', 'ttft_ms_p50');
  const named = (r['sb:keep'] ?? []).filter(good).map((x) => x.bottleneck);
  // What that asks of the client's one core, beside what the floor spends in the same setting.
  const budget = 1e6 / (0.95 * offKeep);
  targets.push(
    `keeps up, events/s ≥ 95% of offered (${f(offKeep)}/s): ${pct(ach)} (${f(evs('sb', 'keep'))}/s; on its one core that rate leaves ` +
      `${f(budget, 2)} µs of CPU per event for everything, and over the run servebench spent ${f(runCost('sb'), 2)}, ` +
      `the minimal C reader ${f(runCost('c'), 2)} (${pct(runCost('c') / budget)} of it), aiohttp ${f(runCost('aiohttp'), 2)}) — ${verdict(ach >= 0.95)}`,
  );
  targets.push(
    `keeps up, ITL p50 within 5% of ${KEEP.itl} ms: ${f(itl, 3)} ms (${f(((itl - KEEP.itl) / KEEP.itl) * 100, 1)}%; server stamps ${f(serverItl('sb'), 3)} ms) — ${verdict(Math.abs(itl - KEEP.itl) <= 0.05 * KEEP.itl)}`,
  );
  targets.push(`keeps up, TTFT p50 < 10 ms: ${f(ttft, 2)} ms — ${verdict(ttft < 10)}`);
  targets.push(
    `keeps up, harness report does not name the client as the bottleneck: named in ${named.filter(Boolean).length} of ${named.length} runs — ${verdict(named.length > 0 && !named.some(Boolean))}`,
  );
  const sb = m.sb;
  targets.push(
    `cost, marginal CPU ≤ 3 µs/event at c=1024, ITL 1 ms: ${f(sb?.total, 2)} µs (user ${f(sb?.user, 2)}, sys ${f(sb?.sys, 2)}; today 10.7) — ${ratio(sb?.total, m.aiohttp?.total)} aiohttp (${f(m.aiohttp?.total, 2)} µs), ${ratio(sb?.total, m.c?.total)} the C reader (${f(m.c?.total, 2)} µs) — ${verdict(sb?.total <= 3)}`,
  );
  targets.push(
    `cost, JS main thread ≤ 1 µs/event: ${f(sb?.main, 2)} µs of its CPU (/proc of the thread); busy (event-loop utilisation × wall, preemption included) ${f(sb?.busy, 2)} µs — ${verdict(sb?.main <= 1)}`,
  );
  const mem = over(r, ['sb:small', 'sb:one'], (s, one) => (s.maxrss_mib - one.maxrss_mib) / ((C - 1) / 1000));
  const memAll = over(r, ['sb:small'], (s) => s.maxrss_mib / (C / 1000));
  targets.push(
    `memory, RSS per 1,000 open streams ≤ 13.7 MiB (peak RSS of the ${f(results.small)}-request c=${f(C)} run minus a one-stream run, ÷ streams): ${f(mem, 1)} MiB (whole peak ÷ streams: ${f(memAll, 1)}) — ${verdict(mem <= 13.7)}`,
  );
  return { tables, targets };
}

// The HTTPS section of the harness benchmark (issue 17): `servebench profile` with default settings
// against the fast mock serving TLS (`servebench mock --fast --tls-cert --tls-key`, a throwaway CA
// made here with the openssl CLI, bench/tls-certs.js), native and undici, beside native against the
// same mock in plain HTTP.
//   node bench/harness.js --https-only [--quick] [--https-reps N]   (this section alone, ~1 min with --quick)
//   npm run bench:harness                                          (after the others)
// Measured as the end-to-end section measures (bench/e2e.js, whose runner this reuses): every client
// process under the rusage wrapper, pinned to the client core, the mocks to the last one;
//   - cost: concurrency 1,024, OSL 128, mock TTFT 1 ms / ITL 1 ms (flat out); marginal user+sys CPU
//     per event = (big run − small run) / events difference, so start-up and the 1,024 handshakes
//     cancel; medians over interleaved repetitions (each runs every client once per run size);
//   - stamp error: client chunk stamp − the mock's send stamp per event, from one run per client
//     and repetition at --export-level raw in the keeps-up setting (TTFT 5 ms / ITL 5 ms).
// Targets: native HTTPS ≤ 1.5× native plain HTTP per event, and undici HTTPS ≥ 2× native HTTPS.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { C, COST, KEEP, buildTools, servebench, withMockShare } from './e2e.js';
import { good, med, over } from './e2e-report.js';
import { fdLimit, startMock } from './harness-procs.js';
import { makeTestCerts } from './tls-certs.js';

const f = (x, d = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '—');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '—');

/** Run sizes: full, --quick, and --tiny (the smoke test's: a few streams, figures meaningless). */
function sizes(mode) {
  if (mode === 'tiny') return { reps: 1, concurrency: 8, small: 16, big: 32, keepN: 16 };
  if (mode === 'quick') return { reps: 1, concurrency: C, small: C, big: 2 * C, keepN: C };
  return { reps: 3, concurrency: C, small: C, big: 4 * C, keepN: 2 * C };
}

/**
 * Runs the section; resolves with { results, tables, targets } (tables in bench/lib.js
 * formatTable's shape). `mode`: 'full' | 'quick' | 'tiny'.
 */
export async function runHttps({ mode = 'full', reps = null, log = () => {} } = {}) {
  const s = sizes(mode);
  const R = reps ?? s.reps;
  const results = { mode, ...s, reps: R, runs: {} };
  if (s.concurrency + 300 > fdLimit) {
    log(`  https: skipped, needs ~${s.concurrency + 300} descriptors per process, the limit is ${fdLimit}`);
    return { results, tables: [], targets: [`HTTPS section skipped: fd limit ${fdLimit} < ${s.concurrency + 300}`] };
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'servebench-https-'));
  const mocks = [];
  try {
    const certs = makeTestCerts(path.join(tmp, 'certs'));
    const ctx = { tmp, tools: buildTools(tmp) };
    const tls = ['--tls-cert', certs.serverCert, '--tls-key', certs.serverKey];
    const lat = (x) => ['--ttft-ms', String(x.ttft), '--itl-ms', String(x.itl)];
    const start = async (flags) => {
      const m = await startMock(flags);
      mocks.push(m);
      return m;
    };
    const keep = (flags) => (mode === 'tiny' ? null : start(flags));
    const mock = {
      http: { cost: await start(lat(COST)), keep: await keep(lat(KEEP)) },
      https: { cost: await start([...lat(COST), ...tls]), keep: await keep([...lat(KEEP), ...tls]) },
    };
    const ca = ['--ca-cert', certs.ca];
    const clients = {
      'native-http': { label: 'native, plain HTTP', proto: 'http', extra: ['--transport', 'native'] },
      'native-https': { label: 'native, HTTPS', proto: 'https', extra: ['--transport', 'native', ...ca] },
      'undici-https': { label: 'undici, HTTPS', proto: 'https', extra: ['--transport', 'undici', ...ca] },
    };
    if (mode === 'full') clients['undici-http'] = { label: 'undici, plain HTTP', proto: 'http', extra: ['--transport', 'undici'] };
    const keys = Object.keys(clients);
    const runs = results.runs;
    const put = (k, r) => (runs[k] ??= []).push(r);
    const opt = { concurrency: s.concurrency };
    for (let rep = 0; rep < R; rep++) {
      for (const k of keys) {
        const { proto, extra, label } = clients[k];
        const m = mock[proto];
        log(
          `  https ${rep + 1}/${R}: ${label} — ${s.small} and ${s.big} requests at ITL ${COST.itl} ms${m.keep ? `, ${s.keepN} raw at ITL ${KEEP.itl} ms` : ''} …`,
        );
        put(`${k}:small`, await withMockShare(m.cost, () => servebench(ctx, m.cost, s.small, extra, opt)));
        if (mode === 'tiny') {
          // Two runs per client: the stamps come from the big run itself (at raw, on the cost mock).
          const big = await withMockShare(m.cost, () =>
            servebench(ctx, m.cost, s.big, [...extra, '--export-level', 'raw'], { ...opt, raw: true }),
          );
          put(`${k}:big`, big);
          put(`${k}:raw`, big);
        } else {
          put(`${k}:big`, await withMockShare(m.cost, () => servebench(ctx, m.cost, s.big, extra, opt)));
          put(`${k}:raw`, await servebench(ctx, m.keep, s.keepN, [...extra, '--export-level', 'raw'], { ...opt, raw: true }));
        }
      }
    }
    return { results, ...report(results, keys, clients) };
  } finally {
    await Promise.all(mocks.map((m) => m.stop()));
    rmSync(tmp, { recursive: true, force: true });
  }
}

function report(results, keys, clients) {
  const r = results.runs;
  const cpu = (x) => x.user_s + x.sys_s;
  const marg = (k, field) => over(r, [`${k}:small`, `${k}:big`], (a, b) => ((field(b) - field(a)) / (b.events - a.events)) * 1e6);
  const m = Object.fromEntries(keys.map((k) => [k, { user: marg(k, (x) => x.user_s), sys: marg(k, (x) => x.sys_s), total: marg(k, cpu) }]));
  const stamp = (k, q) => med((r[`${k}:raw`] ?? []).filter(good).map((x) => x.stamp_error_ms?.[q]));
  const evs = (k) => over(r, [`${k}:big`], (x) => x.events / x.wall_s);
  const errs = (k) =>
    ['small', 'big', 'raw']
      .flatMap((p) => r[`${k}:${p}`] ?? [])
      .map((x) => (x.error ? x.error : x.errors > 0 ? `${x.errors} errors` : null))
      .find((x) => x !== null);
  const base = m['native-http']?.total;
  const table = {
    title:
      `HTTPS: servebench profile (defaults) against the fast mock with TLS (RSA-2048 certificate, TLS 1.3) vs plain HTTP, concurrency ${f(results.concurrency)}, OSL 128; ` +
      `marginal CPU per event = (${f(results.big)}-request run − ${f(results.small)}-request run) / events, whole client process (wait4 rusage); ` +
      (results.mode === 'tiny'
        ? 'stamp error from the big run (--tiny: a smoke run, figures meaningless)'
        : `stamp error at TTFT ${KEEP.ttft} ms / ITL ${KEEP.itl} ms (--export-level raw, ${f(results.keepN)} requests)`) +
      `; medians of ${results.reps} interleaved repetitions`,
    columns: [
      'client',
      'user µs/event',
      'sys µs/event',
      'total µs/event',
      '÷ native plain HTTP',
      'events/s (big run)',
      'stamp error p50 / p99 (ms)',
      'mock CPU (big run)',
    ],
    rows: keys.map((k) => {
      const e = errs(k);
      return [
        clients[k].label + (e ? ` (${e})` : ''),
        f(m[k].user, 2),
        f(m[k].sys, 2),
        f(m[k].total, 2),
        ratio(m[k].total, base),
        f(evs(k)),
        `${f(stamp(k, 'p50'), 3)} / ${f(stamp(k, 'p99'), 3)}`,
        Number.isFinite(over(r, [`${k}:big`], (x) => x.mock_cpu_share))
          ? `${Math.round(over(r, [`${k}:big`], (x) => x.mock_cpu_share) * 100)}%`
          : '—',
      ];
    }),
  };
  const nh = m['native-https']?.total;
  const uh = m['undici-https']?.total;
  const verdict = (a, b, ok) => (Number.isFinite(a / b) && a > 0 && b > 0 ? (ok(a / b) ? 'met' : 'missed') : 'not measured');
  const targets = [
    `native HTTPS ≤ 1.5× native plain HTTP CPU per event: ${ratio(nh, base)} — ${verdict(nh, base, (x) => x <= 1.5)}`,
    `undici HTTPS ≥ 2× native HTTPS CPU per event: ${ratio(uh, nh)} — ${verdict(uh, nh, (x) => x >= 2)}`,
  ];
  return { tables: [table], targets };
}

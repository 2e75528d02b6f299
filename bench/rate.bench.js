// Open-loop pacing at high rates: does the scheduler hold 1k, 5k and 20k req/s against the mock
// in its zero-latency mode (its own process), and how late is each send?
//   achieved rate = (sent − 1) / (last send − first send), sends stamped by the transport (start_ns)
//   send lag      = start_ns − targeted_start_ns (the pacer's absolute target from the phase start)
// The path is the product's: pacer (rate.ts) → credit issuer → request builder → transport, for
// each transport (native: the C++ engine stamps start_ns when its I/O thread writes the request;
// undici: stamped on the JS thread at dispatch). Responses are settled but not parsed (records are
// dropped), so the figures are the scheduler's and the transport's. CPU columns: the client
// process (JS and engine threads) and the mock, per request; the load average shows what else the
// host was running. `npm run bench` runs it, `--quick` shortens every run.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { importDist } from './lib.js';

export const description = 'open-loop pacing: achieved rate and send lag at 1k/5k/20k req/s against the mock (zero latency)';

const RATES = [1000, 5000, 20_000];

function pct(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

const fmtUs = (ns) => (ns / 1000).toFixed(ns < 10_000 ? 1 : 0);

/** CPU time of another process in ms (user + system, from /proc; 0 where there is no /proc). */
function cpuMsOf(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // clock ticks at USER_HZ = 100
  } catch {
    return 0;
  }
}

export async function run(ctx) {
  const mods = {
    spawn: await importDist('mock/spawn.js'),
    benchmark: await importDist('load/benchmark.js'),
    control: await importDist('load/control.js'),
    select: await importDist('transport/select.js'),
    request: await importDist('endpoints/request.js'),
    endpoints: await importDist('endpoints/index.js'),
    validate: await importDist('config/validate.js'),
  };
  if (Object.values(mods).some((m) => m === null)) throw new Error('dist/ is not built: run `npx tsc -p tsconfig.build.json`');
  const durationS = ctx.quick ? 0.5 : 5;
  const rows = [];
  const notes = [];
  // The TS mock, and the native one (--fast) where this build has it: its serving threads cost the
  // host far less CPU per request, which on a small host is what the client competes with.
  for (const [mockName, mockArgs] of [
    ['ts', []],
    ['fast', ['--fast']],
  ]) {
    let mock;
    try {
      mock = await mods.spawn.spawnMock([...mockArgs, '--ttft-ms', '0', '--itl-ms', '0']);
    } catch (err) {
      notes.push(`mock ${mockName}: not available (${String(err.message).split('\n')[0]})`);
      continue;
    }
    try {
      const kinds = mods.select.nativeUnsupported(mock.url) === null ? ['native', 'undici'] : ['undici'];
      for (const kind of kinds) {
        for (const rate of RATES) {
          const r = await paced(mods, mock, kind, rate, durationS);
          rows.push([mockName, ...r.row]);
          if (r.note) notes.push(r.note);
          ctx.log(`mock ${mockName}, ${r.row[0]} ${rate}: ${r.row[2]} sent, achieved ${r.row[3]} req/s`);
        }
      }
    } finally {
      await mock.stop();
    }
  }
  const pacerRows = await pacerOnly(mods, ctx, durationS);
  notes.push(
    `${durationS} s per rate, constant pattern, non-streaming max_tokens 1, at most 64 connections; the mock (ts: servebench mock; fast: servebench mock --fast, one native worker) is its own process on the same host (${os.cpus().length} cores).`,
  );
  notes.push('achieved = (sent − 1) / (last start_ns − first start_ns); lag = start_ns − targeted_start_ns.');
  return {
    tables: [
      {
        title: 'Open-loop pacing against the mock (--ttft-ms 0 --itl-ms 0)',
        columns: [
          'mock',
          'transport',
          'target',
          'sent',
          'achieved req/s',
          'vs target',
          'lag p50 (µs)',
          'lag p99 (µs)',
          'failed',
          'client CPU µs/req',
          'mock CPU µs/req',
          'load avg',
        ],
        rows,
      },
      {
        title: 'The pacer alone (dispatch resolves at once: no transport, no server)',
        columns: ['target', 'sent', 'achieved req/s', 'vs target', 'lag p50 (µs)', 'lag p99 (µs)', 'CPU µs/req', 'load avg'],
        rows: pacerRows,
      },
    ],
    notes,
  };
}

/** One rate phase against `mock` over the `kind` transport; returns the table row (less the mock column). */
async function paced(mods, mock, kind, rate, durationS) {
  const cfg = mods.validate.buildRunConfig({ url: mock.url, model: 'mock-model', streaming: false, osl: 1, transport: kind }, {});
  const builder = new mods.request.RequestBuilder(cfg, mods.endpoints.adapterFor('chat'));
  // Enough connections for the in-flight requests of a zero-latency server at 20k req/s.
  const transport = await mods.select.openTransport(cfg, mock.url, 64, () => {});
  const sends = new Float64Array(Math.ceil(rate * durationS) + 16);
  const lags = new Float64Array(sends.length);
  let n = 0;
  let failed = 0;
  const plan = {
    warmup: null,
    profiling: {
      phase: 'profiling',
      mode: { kind: 'rate', arrival: { pattern: 'constant', rate, smoothness: 1, rampNs: null, seed: 0 }, cap: null, capRampNs: null },
      requestCount: null,
      durationNs: durationS * 1e9,
      cooldownNs: null,
    },
    graceNs: 10e9,
    cancellation: null,
    // As runOnce does: nap rather than spin near send times when the engine stamps off the JS thread.
    nap: transport.name === 'native',
  };
  globalThis.gc?.();
  const load = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  const mock0 = cpuMsOf(mock.child.pid);
  const result = await mods.benchmark.runBenchmark(
    plan,
    SOURCE,
    {
      dispatch: async (credit) => {
        const raw = await transport.send(credit, builder.build(credit));
        if (n < sends.length) {
          sends[n] = Number(raw.start_ns); // exact below 2^53 ns (~104 days of uptime)
          lags[n] = Number(raw.start_ns - credit.targeted_start_ns);
          n++;
        }
        if (raw.status !== 'ok') failed++;
        return { status: raw.status, reply: null };
      },
      cancelAll: (why) => transport.cancelAll(why),
    },
    new mods.control.RunControl(),
  );
  const cpu = process.cpuUsage(cpu0);
  const mockMs = cpuMsOf(mock.child.pid) - mock0;
  await transport.close();
  const s = Array.from(sends.subarray(0, n)).sort((a, b) => a - b);
  const l = Array.from(lags.subarray(0, n)).sort((a, b) => a - b);
  const achieved = n > 1 ? ((n - 1) / (s[n - 1] - s[0])) * 1e9 : NaN;
  const sent = result.profiling.counters.sent;
  return {
    row: [
      transport.name,
      `${rate / 1000}k req/s`,
      String(n),
      achieved.toFixed(0),
      `${((achieved / rate - 1) * 100).toFixed(2)} %`,
      fmtUs(pct(l, 50)),
      fmtUs(pct(l, 99)),
      String(failed),
      ((cpu.user + cpu.system) / n).toFixed(1),
      mockMs > 0 ? ((mockMs * 1000) / n).toFixed(1) : '-',
      load.toFixed(1),
    ],
    note: sent !== n ? `${transport.name} ${rate} req/s: counters sent ${sent}, stamped ${n}` : null,
  };
}

/** Every request is the same tiny one: the figures are the harness's, not the dataset's. */
const SOURCE = {
  kind: 'bench',
  size: null,
  hasTimestamps: false,
  next: () => ({ id: 'c', turns: [{ prompt: 'hi', isl: 1, max_tokens: 1, timestamp_ms: null, delay_ms: null }] }),
};

/** The scheduler's own ceiling: the same rate phase with a dispatch that does nothing. */
async function pacerOnly(mods, ctx, durationS) {
  const rows = [];
  for (const rate of [...RATES, 100_000]) {
    const sends = new Float64Array(Math.ceil(rate * durationS) + 16);
    const lags = new Float64Array(sends.length);
    let n = 0;
    globalThis.gc?.();
    const load = os.loadavg()[0];
    const cpu0 = process.cpuUsage();
    await mods.benchmark.runBenchmark(
      {
        warmup: null,
        profiling: {
          phase: 'profiling',
          mode: { kind: 'rate', arrival: { pattern: 'constant', rate, smoothness: 1, rampNs: null, seed: 0 }, cap: null, capRampNs: null },
          requestCount: null,
          durationNs: durationS * 1e9,
          cooldownNs: null,
        },
        graceNs: 1e9,
        cancellation: null,
      },
      SOURCE,
      {
        dispatch: async (credit) => {
          const now = process.hrtime.bigint();
          if (n < sends.length) {
            sends[n] = Number(now);
            lags[n] = Number(now - credit.targeted_start_ns);
            n++;
          }
          return { status: 'ok', reply: null };
        },
        cancelAll: () => {},
      },
      new mods.control.RunControl(),
    );
    const cpu = process.cpuUsage(cpu0);
    const l = Array.from(lags.subarray(0, n)).sort((a, b) => a - b);
    const achieved = n > 1 ? ((n - 1) / (sends[n - 1] - sends[0])) * 1e9 : NaN;
    rows.push([
      `${rate / 1000}k req/s`,
      String(n),
      achieved.toFixed(0),
      `${((achieved / rate - 1) * 100).toFixed(2)} %`,
      fmtUs(pct(l, 50)),
      fmtUs(pct(l, 99)),
      ((cpu.user + cpu.system) / n).toFixed(1),
      load.toFixed(1),
    ]);
    ctx.log(`pacer only ${rate}: achieved ${achieved.toFixed(0)} req/s`);
  }
  return rows;
}

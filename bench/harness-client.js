#!/usr/bin/env node
// One client configuration of the harness benchmark (bench/harness.js runs it as its own process,
// pinned to a core): a closed loop of C streams through one transport for a fixed time against a
// running mock, reporting one JSON line:
//   requests and SSE events completed in the measured window, client CPU (all threads) and wall
//   time over it, RSS before the transport existed and in the middle of the window, errors, and —
//   when the mock stamps its events (--stamp-events) — client stamp − server send stamp per event.
// Work per event on the client: what the transport does (stamp, frame, one string per event), plus
// a scan for the send stamp when measuring fidelity. With "decode": true, also JSON.parse of every
// event, as the record processor (and the Python peer) does; without it, transport work only.
//   node bench/harness-client.js '{"url":"http://127.0.0.1:8000","transport":"native","concurrency":256,
//                                  "warmupS":1,"durationS":4,"osl":64,"threads":1}'
import { readdirSync, readFileSync } from 'node:fs';
import { importDist } from './lib.js';

/** CPU seconds (user + system) of each thread of this process, by name: from /proc (Linux); `split` gets user and system apart. */
function threadCpu(split = {}) {
  const out = {};
  try {
    const tick = 100; // USER_HZ
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = tid === String(process.pid) ? 'js-main' : name;
      out[key] = (out[key] ?? 0) + (Number(f[11]) + Number(f[12])) / tick;
      split[key] ??= { user: 0, system: 0 };
      split[key].user += Number(f[11]) / tick;
      split[key].system += Number(f[12]) / tick;
    }
  } catch {
    /* not Linux */
  }
  return out;
}

const cfg = JSON.parse(process.argv[2] ?? '{}');
const {
  url,
  transport: kind,
  concurrency,
  warmupS = 1,
  durationS = 4,
  osl = 64,
  threads = 1,
  rssAtS = null,
  decode = false,
  fidelity = true,
} = cfg;

const rssBase = process.memoryUsage().rss;
const undiciMod = await importDist('transport/undici.js');
const nativeMod = await importDist('transport/native.js');
if (!undiciMod || !nativeMod) {
  console.error('harness-client: dist/ is not built (run `npx tsc -p tsconfig.build.json`)');
  process.exit(2);
}
const transport =
  kind === 'native'
    ? new nativeMod.NativeTransport({
        baseUrl: url,
        address: '127.0.0.1',
        connections: concurrency,
        requestTimeoutMs: 120_000,
        threads,
        priority: cfg.priority ?? 'realtime',
        readCoalesceUs: cfg.readCoalesceUs ?? 0,
      })
    : new undiciMod.UndiciTransport({ baseUrl: url, connections: concurrency, requestTimeoutMs: 120_000, trace: false });

const body = Buffer.from(
  JSON.stringify({ model: 'mock-model', messages: [{ role: 'user', content: 'Tell me a story.' }], max_tokens: osl, stream: true }),
);
const request = {
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
  body,
  streaming: true,
};

const STAMP = '"sb_send_ns":"';
/** Client stamp − send stamp (ns) of each stamped event, as a growable Float64Array. */
let fid = new Float64Array(1 << 16);
let fidN = 0;
let measuring = false;
let stopping = false;
let requests = 0;
let events = 0;
let errors = 0;
let firstError = null;
let index = 0;
let completed = 0;

function account(r) {
  completed++;
  if (!measuring) return;
  if (r.status !== 'ok') {
    errors++;
    firstError ??= r.error;
    return;
  }
  requests++;
  const data = r.event_data;
  events += data.length;
  if (decode) for (const d of data) if (d !== '[DONE]') JSON.parse(d);
  if (!fidelity) return;
  for (let i = 0; i < data.length; i++) {
    const d = data[i];
    const at = d.lastIndexOf(STAMP);
    if (at < 0) continue;
    const sent = BigInt(d.slice(at + STAMP.length, at + STAMP.length + 19));
    if (fidN === fid.length) {
      const next = new Float64Array(fid.length * 2);
      next.set(fid);
      fid = next;
    }
    fid[fidN++] = Number(r.event_ns[i] - sent);
  }
}

async function worker() {
  while (!stopping) {
    const credit = {
      index: index++,
      phase: 'profiling',
      x_request_id: String(index),
      credit_issued_ns: process.hrtime.bigint(),
      targeted_start_ns: null,
      turn: { prompt: '', isl: null, max_tokens: osl },
    };
    account(await transport.send(credit, request));
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const workers = Array.from({ length: concurrency }, worker);
await sleep(warmupS * 1000);
measuring = true;
const cpu0 = process.cpuUsage();
const split0 = {};
const threads0 = threadCpu(split0);
const stats0 = typeof transport.stats === 'function' ? transport.stats() : null;
const t0 = process.hrtime.bigint();
let rssMid = 0;
let heapMid = 0;
let inFlightAtRss = 0;
const rssTimer = setTimeout(
  () => {
    // Garbage collected first (with --expose-gc), so what is left is what the streams in flight hold.
    globalThis.gc?.();
    const m = process.memoryUsage();
    rssMid = m.rss;
    heapMid = m.heapUsed;
    inFlightAtRss = index - completed;
  },
  (rssAtS ?? durationS / 2) * 1000,
);
await sleep(durationS * 1000);
const cpu = process.cpuUsage(cpu0);
const wallNs = Number(process.hrtime.bigint() - t0);
const split1 = {};
const threads1 = threadCpu(split1);
const stats1 = typeof transport.stats === 'function' ? transport.stats() : null;
const threadCpuS = {};
for (const [k, v] of Object.entries(threads1)) {
  const d = v - (threads0[k] ?? 0);
  if (d >= 0.01) threadCpuS[k] = Math.round(d * 100) / 100;
}
measuring = false;
clearTimeout(rssTimer);
stopping = true;
const engineStats = typeof transport.stats === 'function' ? transport.stats() : null;
await Promise.race([Promise.all(workers), sleep(10_000)]);
transport.cancelAll('benchmark over');
await transport.close();

const sorted = fid.subarray(0, fidN).sort();
const q = (p) => (fidN ? sorted[Math.min(fidN - 1, Math.ceil(p * fidN) - 1)] / 1e6 : null);
process.stdout.write(
  JSON.stringify({
    transport: kind,
    concurrency,
    requests,
    events,
    errors,
    first_error: firstError,
    wall_s: wallNs / 1e9,
    cpu_s: (cpu.user + cpu.system) / 1e6,
    thread_cpu_s: threadCpuS,
    io_threads: engineStats
      ? {
          realtime: engineStats.realtime_threads,
          raised: engineStats.raised_threads,
          realtime_demotions: engineStats.realtime_demotions,
          reads: engineStats.reads,
        }
      : null,
    // The I/O threads over the measured window: user and system seconds, reads, read delay (whole run).
    io_window:
      stats0 && stats1
        ? {
            user_s: (split1['sb-engine-io']?.user ?? 0) - (split0['sb-engine-io']?.user ?? 0),
            system_s: (split1['sb-engine-io']?.system ?? 0) - (split0['sb-engine-io']?.system ?? 0),
            reads: stats1.reads - stats0.reads,
            polls: stats1.polls - stats0.polls,
            coalesce_sleeps: stats1.coalesce_sleeps - stats0.coalesce_sleeps,
            read_delay_us: {
              mean: stats1.read_delay_mean_ns / 1e3,
              p50: stats1.read_delay_p50_ns / 1e3,
              p99: stats1.read_delay_p99_ns / 1e3,
              max: stats1.read_delay_max_ns / 1e3,
            },
          }
        : null,
    rss_base: rssBase,
    rss_mid: rssMid,
    heap_mid: heapMid,
    in_flight_at_rss: inFlightAtRss,
    fidelity_ms: fidN ? { count: fidN, p50: q(0.5), p99: q(0.99), max: sorted[fidN - 1] / 1e6, min: sorted[0] / 1e6 } : null,
  }) + '\n',
);
process.exit(0);

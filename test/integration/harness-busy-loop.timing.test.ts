// A JS main thread kept busy on purpose (30 ms blocks every 35 ms) while streams run against a real
// mock process (the fast mock, which writes the CLOCK_MONOTONIC time of each send into the event):
// the native engine stamps reads on its own I/O thread, so its stamps stay within a fraction of a
// millisecond of the send; undici stamps on the blocked thread, so its stamps lag by up to a block,
// its chunks bunch up, and the harness monitor's warning says so.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessMonitor, type HarnessReport } from '../../src/harness/monitor.js';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import type { Credit } from '../../src/model/credit.js';
import type { RawRecord } from '../../src/model/raw-record.js';
import { NativeTransport } from '../../src/transport/native.js';
import type { RenderedRequest } from '../../src/endpoints/request.js';
import type { Transport } from '../../src/transport/types.js';
import { UndiciTransport } from '../../src/transport/undici.js';
import { remeasured } from '../helpers/remeasure.js';

const TTFT_MS = 20;
const ITL_MS = 10;
const TOKENS = 24;
const STREAMS = 6;

function request(): RenderedRequest {
  const body = { model: 'mock-model', messages: [{ role: 'user', content: 'hello there' }], max_tokens: TOKENS, stream: true };
  return {
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
    streaming: true,
  };
}

function credit(i: number): Credit {
  return {
    index: i,
    phase: 'profiling',
    x_request_id: `busy-${i}`,
    credit_issued_ns: process.hrtime.bigint(),
    targeted_start_ns: null,
    turn: { prompt: '', isl: null, max_tokens: TOKENS },
  };
}

/** Runs STREAMS concurrent streams while the main thread is blocked most of the time. */
async function runBusy(transport: Transport): Promise<{ records: RawRecord[]; report: HarnessReport }> {
  const monitor = new HarnessMonitor(transport).start();
  const busy = setInterval(() => {
    const t = performance.now();
    while (performance.now() - t < 30);
  }, 35);
  try {
    const records = await Promise.all(Array.from({ length: STREAMS }, (_, i) => transport.send(credit(i), request())));
    for (const r of records) monitor.observe(r);
    return { records, report: monitor.finish() };
  } finally {
    clearInterval(busy);
  }
}

/** Gaps between the arrival stamps of consecutive token events (ms); the role chunk and the closing events are left out. */
function tokenGaps(r: RawRecord): number[] {
  const tokens = r.event_ns.filter((_, i) => r.event_data[i].includes('"content":"') && !r.event_data[i].includes('"content":""'));
  const gaps: number[] = [];
  for (let i = 1; i < tokens.length; i++) gaps.push(Number(tokens[i] - tokens[i - 1]) / 1e6);
  return gaps;
}

/** Client stamp − server send stamp of every event that carries one (ms). */
function stampErrors(r: RawRecord): number[] {
  const out: number[] = [];
  r.event_data.forEach((d, i) => {
    const m = /"sb_send_ns":"(\d+)"/.exec(d);
    if (m) out.push(Number(r.event_ns[i] - BigInt(m[1])) / 1e6);
  });
  return out;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

describe('a saturated JS event loop', () => {
  let mock: SpawnedMock;
  // Both runs, one after the other; a failed test takes them again before its retry.
  const runs = remeasured(async () => {
    const n = new NativeTransport({ baseUrl: mock.url, address: '127.0.0.1', connections: STREAMS, requestTimeoutMs: 30_000, threads: 1 });
    const native = await runBusy(n);
    await n.close();
    const u = new UndiciTransport({ baseUrl: mock.url, connections: STREAMS, requestTimeoutMs: 30_000 });
    const undici = await runBusy(u);
    await u.close();
    return { native, undici };
  });

  beforeAll(async () => {
    mock = await spawnMock(['--fast', '--stamp-events', '--ttft-ms', String(TTFT_MS), '--itl-ms', String(ITL_MS)]);
    await runs.prime();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('both runs complete every stream with every token', async () => {
    const { native, undici } = await runs.get();
    for (const { records } of [native, undici]) {
      expect(records.every((r) => r.status === 'ok')).toBe(true);
      for (const r of records) expect(tokenGaps(r)).toHaveLength(TOKENS - 1);
    }
  });

  it('keeps native stamps close to the send while undici stamps wait for the blocked thread', async () => {
    const { native, undici } = await runs.get();
    const n = native.records.flatMap(stampErrors);
    const u = undici.records.flatMap(stampErrors);
    expect(n.length).toBeGreaterThanOrEqual(STREAMS * TOKENS);
    expect(u.length).toBe(n.length);
    expect(Math.min(...n)).toBeGreaterThan(0);
    // An event that lands during a 30 ms block waits for its end on the JS thread: about half a block
    // at the median. The engine's I/O thread stamps it on arrival; what is left is how long the
    // machine takes to run that thread (on a shared 2-core VM under load: up to a few ms), well
    // below a block.
    expect(quantile(u, 0.5)).toBeGreaterThan(5);
    expect(quantile(u, 0.99)).toBeGreaterThan(15);
    expect(quantile(n, 0.5)).toBeLessThan(5);
    expect(quantile(n, 0.5)).toBeLessThan(quantile(u, 0.5) / 4);
    expect(quantile(n, 0.9)).toBeLessThan(quantile(u, 0.9) / 2);
    // Where the kernel let the I/O thread run SCHED_FIFO, it preempts the busy thread at once; other
    // test files' engines may hold the second core at the same priority, so a few ms, not zero.
    if (native.report.io_threads?.realtime === 1) expect(quantile(n, 0.99)).toBeLessThan(Math.min(5, quantile(u, 0.99) / 4));
  });

  it('bunches the undici stamps: tokens that left 10 ms apart arrive together', async () => {
    const { undici } = await runs.get();
    const gaps = undici.records.flatMap(tokenGaps);
    const together = gaps.filter((g) => g < 1).length / gaps.length;
    expect(together).toBeGreaterThan(0.3);
    expect(Math.max(...gaps)).toBeGreaterThan(ITL_MS + 10);
  });

  it("fires undici's harness warning about stamps, and the native report says its stamps are not affected", async () => {
    const { native, undici } = await runs.get();
    expect(undici.report.event_loop_delay_ms.p99).toBeGreaterThan(undici.report.thresholds.event_loop_delay_p99_ms);
    expect(undici.report.warnings.some((w) => /stamps chunks on that thread, so TTFT and ITL may be inflated/.test(w))).toBe(true);
    expect(native.report.stamps_taken_on).toBe('io_thread');
    expect(native.report.io_threads).toBeDefined();
    expect(undici.report.io_threads).toBeUndefined();
    expect(native.report.warnings.some((w) => /may be inflated/.test(w))).toBe(false);
    expect(native.report.warnings.some((w) => /not affected/.test(w))).toBe(true);
    expect(native.report.event_loop_utilization).toBeGreaterThan(0.5);
  });
});

// The harness monitor in-process: what it measures from records and the process, and which warning
// each threshold gives for a transport that stamps on the JS thread versus one that does not.
import { describe, expect, it } from 'vitest';
import { DEFAULT_HARNESS_THRESHOLDS, HarnessMonitor, harnessWarnings, type HarnessReport } from '../../src/harness/monitor.js';
import type { RawRecord } from '../../src/model/raw-record.js';

function raw(issued: bigint, start: bigint, target: bigint | null): RawRecord {
  return {
    credit: {
      index: 0,
      phase: 'profiling',
      x_request_id: 'x',
      credit_issued_ns: issued,
      targeted_start_ns: target,
      turn: { prompt: '', isl: null, max_tokens: null },
    },
    start_ns: start,
    end_ns: start + 1n,
    http_status: 200,
    status: 'ok',
    error: null,
    streaming: true,
    event_data: [],
    event_ns: [],
    event_type: [],
    body: null,
    bytes_sent: 0,
    bytes_received: 0,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('HarnessMonitor', () => {
  it('measures dispatch delay and send-schedule lag from the records, in ms', async () => {
    const m = new HarnessMonitor('undici').start();
    for (let i = 1; i <= 100; i++) m.observe(raw(0n, BigInt(i) * 1_000_000n, i % 2 ? BigInt(i) * 1_000_000n - 500_000n : null));
    await sleep(20);
    const r = m.finish();
    expect(r.dispatch_delay_ms).toEqual({ count: 100, p50: 50, p90: 90, p99: 99, max: 100 });
    expect(r.send_schedule_lag_ms).toEqual({ count: 50, p50: 0.5, p90: 0.5, p99: 0.5, max: 0.5 });
    expect(r.cpu.wall_s).toBeGreaterThan(0.015);
    expect(r.cpu.share_of_machine).toBeCloseTo(r.cpu.share_of_one_core / r.cpu.cores, 10);
    expect(r.stamps_taken_on).toBe('js_thread');
    expect(r.io_threads).toBeUndefined();
  });

  it('has no lag section in closed loop and sees a blocked event loop', async () => {
    const m = new HarnessMonitor('native').start();
    m.observe(raw(10n, 20n, null));
    await sleep(15);
    const t = performance.now();
    while (performance.now() - t < 60);
    await sleep(15);
    const r = m.finish();
    expect(r.send_schedule_lag_ms).toBeNull();
    expect(r.event_loop_delay_ms.max).toBeGreaterThan(40);
    expect(r.event_loop_utilization).toBeGreaterThan(0.3);
    expect(r.cpu.user_s + r.cpu.system_s).toBeGreaterThan(0.04);
  });

  it('reports how the native I/O threads were scheduled, from the transport', () => {
    const transport = { name: 'native', stats: () => ({ realtime_threads: 1, raised_threads: 0, realtime_demotions: 3 }) };
    const r = new HarnessMonitor(transport, undefined, 2).start().finish();
    expect(r.io_threads).toEqual({ realtime: 1, raised: 0, normal: 1, realtime_demotions: 3 });
    expect(r.stamps_taken_on).toBe('io_thread');
  });
});

describe('harnessWarnings', () => {
  const base = (over: Partial<HarnessReport>): HarnessReport => ({
    transport: 'undici',
    stamps_taken_on: 'js_thread',
    event_loop_delay_ms: { p50: 0.1, p99: 1, max: 2, mean: 0.2, samples: 1000 },
    event_loop_utilization: 0.2,
    send_schedule_lag_ms: null,
    dispatch_delay_ms: { count: 10, p50: 0.1, p90: 0.2, p99: 0.3, max: 0.4 },
    cpu: { user_s: 1, system_s: 0, wall_s: 10, share_of_one_core: 0.1, share_of_machine: 0.05, cores: 2 },
    thresholds: { ...DEFAULT_HARNESS_THRESHOLDS },
    warnings: [],
    ...over,
  });

  it('stays quiet under every threshold', () => {
    expect(harnessWarnings(base({}))).toEqual([]);
  });

  it('says stamps may be inflated when a JS-thread transport saw event-loop delay, and not when the engine stamps', () => {
    const loop = { p50: 3, p99: 12, max: 40, mean: 4, samples: 1000 };
    const [u] = harnessWarnings(base({ event_loop_delay_ms: loop }));
    expect(u).toMatch(/p99 12 ms, max 40 ms.*undici transport stamps chunks on that thread.*try --transport native/);
    const [n] = harnessWarnings(base({ transport: 'native', stamps_taken_on: 'io_thread', event_loop_delay_ms: loop }));
    expect(n).toMatch(/stamps are taken on the engine's I\/O threads and are not affected/);
  });

  it('warns about a busy JS thread, late sends and dispatch waits', () => {
    const w = harnessWarnings(
      base({
        event_loop_utilization: 0.97,
        send_schedule_lag_ms: { count: 5, p50: 3, p90: 8, p99: 25, max: 30 },
        dispatch_delay_ms: { count: 5, p50: 3, p90: 8, p99: 11, max: 12 },
      }),
    );
    expect(w).toHaveLength(3);
    expect(w[0]).toMatch(/busy 97% of the run/);
    expect(w[1]).toMatch(/behind their schedule \(lag p99 25 ms, max 30 ms\)/);
    expect(w[2]).toMatch(/dispatch delay p99 11 ms/);
  });

  it('warns when the engine read late after the bytes arrived (kernel stamps), and only past the threshold', () => {
    const reads = (p99Us: number): HarnessReport['reads'] => ({
      coalesce_window_us: 0,
      reads: 100,
      events: 100,
      reads_per_event: 1,
      polls_per_event: 0.5,
      coalesce_sleeps: 0,
      read_delay_us: { mean: 1, p50: 1, p99: 2, max: 3, count: 100 },
      stamp_source: 'kernel',
      arrival_lag_us: { mean: 100, p50: 50, p99: p99Us, max: 2 * p99Us, count: 100 },
    });
    const native = { transport: 'native', stamps_taken_on: 'io_thread' } as const;
    expect(harnessWarnings(base({ ...native, reads: reads(4_000) }))).toEqual([]);
    const [w, ...rest] = harnessWarnings(base({ ...native, reads: reads(8_000) }));
    expect(rest).toEqual([]);
    expect(w).toMatch(/read p99 8\.00 ms after the bytes arrived \(max 16 ms\).*share the later one/);
    // recv-return stamps: no arrival lag is known, so nothing is said of it.
    expect(harnessWarnings(base({ ...native, reads: { ...reads(8_000)!, stamp_source: 'read', arrival_lag_us: null } }))).toEqual([]);
  });
});

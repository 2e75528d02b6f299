// Kernel receive stamps in the native engine (--kernel-stamps): a reader held off its sockets
// (read coalescing, 10 ms) reads every event late, yet with kernel stamps each event carries the
// time its bytes reached the kernel, within a fraction of a millisecond of the server's write; with
// recv-return stamps the same events carry the hold-off. The harness says which stamps the chunks
// got and how late the reads came.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessMonitor } from '../../../src/harness/monitor.js';
import { native } from '../../../src/native.js';
import { NativeTransport } from '../../../src/transport/native.js';
import { credit, request, scriptedServer, type ScriptedServer } from './engine-helpers.js';

const EVENTS = 24; // per stream
const GAP_MS = 6; // between writes, alternating streams: each stream gets an event every 12 ms
const WINDOW_US = 10_000;

let server: ScriptedServer | null = null;
const transports: NativeTransport[] = [];

afterEach(async () => {
  for (const t of transports.splice(0)) await t.close();
  await server?.close();
  server = null;
});

const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;

/** Two streams written in turn, GAP_MS apart; each payload holds the time it was written. */
function alternating(): (sock: Socket) => void {
  let socks: Socket[] = [];
  return (sock) => {
    sock.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n');
    socks.push(sock);
    if (socks.length < 2) return;
    const pair = socks;
    socks = [];
    let k = 0;
    const tick = () => {
      const s = pair[k % 2];
      if (k < 2 * EVENTS) {
        if (!s.destroyed) s.write(chunk(`data: {"i":${k},"t":"${process.hrtime.bigint()}"}\n\n`));
        k++;
        setTimeout(tick, GAP_MS);
      } else {
        for (const p of pair) if (!p.destroyed) p.write(chunk('data: [DONE]\n\n') + '0\r\n\r\n');
      }
    };
    tick();
  };
}

/** Per event: its stamp − when the server wrote it, ms, sorted. */
async function stampErrors(kernelStamps: boolean) {
  const t = new NativeTransport({
    baseUrl: server!.url,
    address: '127.0.0.1',
    connections: 2,
    requestTimeoutMs: 30_000,
    threads: 1,
    readCoalesceUs: WINDOW_US,
    kernelStamps,
  });
  transports.push(t);
  const monitor = new HarnessMonitor(t).start();
  const rs = await Promise.all([t.send(credit(), request()), t.send(credit(), request())]);
  for (const r of rs) monitor.observe(r);
  const errs: number[] = [];
  for (const r of rs) {
    expect(r.status).toBe('ok');
    expect(r.event_data).toHaveLength(EVENTS + 1);
    for (let i = 1; i < r.event_ns.length; i++) expect(r.event_ns[i]).toBeGreaterThanOrEqual(r.event_ns[i - 1]);
    expect(r.event_ns[0]).toBeGreaterThan(r.start_ns);
    r.event_data.slice(0, EVENTS).forEach((d, i) => {
      const sent = BigInt((JSON.parse(d) as { t: string }).t);
      errs.push(Number(r.event_ns[i] - sent) / 1e6);
    });
  }
  errs.sort((a, b) => a - b);
  return { errs, median: errs[errs.length >> 1], stats: t.stats(), reads: monitor.finish().reads! };
}

describe('native engine: kernel receive stamps', () => {
  it('stamp events with when their bytes arrived, however late the engine read them', { retry: 2 }, async () => {
    server = await scriptedServer(alternating());
    const kernel = await stampErrors(true);
    const returned = await stampErrors(false);

    // Both read late: the hold-off kept most events waiting for a look at the sockets.
    expect(kernel.stats.coalesce_sleeps).toBeGreaterThan(0);
    expect(kernel.stats.kernel_stamped_reads).toBe(kernel.stats.reads);
    expect(kernel.stats.arrival_lag_p50_ns).toBeGreaterThan(1e6);
    expect(kernel.stats.arrival_lag_max_ns).toBeGreaterThanOrEqual(kernel.stats.arrival_lag_p99_ns);
    // Kernel stamps: no earlier than the write (causality), and the hold-off is not in them.
    expect(kernel.errs[0]).toBeGreaterThanOrEqual(0);
    expect(kernel.median).toBeLessThan(0.5);
    // recv-return stamps carry it.
    expect(returned.stats.kernel_stamped_reads).toBe(0);
    expect(returned.median).toBeGreaterThan(1.5);
    expect(returned.median).toBeGreaterThan(kernel.median + 1);

    // The harness report says which stamps the chunks got and how late the reads came.
    expect(kernel.reads.stamp_source).toBe('kernel');
    expect(kernel.reads.arrival_lag_us).toEqual({
      mean: kernel.stats.arrival_lag_mean_ns / 1e3,
      p50: kernel.stats.arrival_lag_p50_ns / 1e3,
      p99: kernel.stats.arrival_lag_p99_ns / 1e3,
      max: kernel.stats.arrival_lag_max_ns / 1e3,
      count: kernel.stats.reads,
    });
    expect(returned.reads.stamp_source).toBe('read');
    expect(returned.reads.arrival_lag_us).toBeNull();
  });

  it('refuses a kernelStamps that is not a boolean', () => {
    const Engine = native.Engine!;
    expect(() => new Engine({ address: '127.0.0.1', port: 9, kernelStamps: 1 as unknown as boolean }, () => {})).toThrow(
      expect.objectContaining({ code: 'SB_NATIVE_BAD_ARG' }),
    );
  });
});

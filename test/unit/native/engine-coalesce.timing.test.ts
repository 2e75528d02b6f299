// Read coalescing in the native engine (--read-coalesce-us): against a server that streams many
// small events, one write each about 1 ms apart, a coalescing engine takes several events per
// read where an eager one takes about one, while every event still arrives, in order, with
// monotonic recv-time stamps; and the engine reports the delay it added.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessMonitor } from '../../../src/harness/monitor.js';
import { native } from '../../../src/native.js';
import { NativeTransport } from '../../../src/transport/native.js';
import { credit, request, scriptedServer, type ScriptedServer } from './engine-helpers.js';

const EVENTS = 60;
const STREAMS = 4;
const WINDOW_US = 10_000;

let server: ScriptedServer | null = null;
const transports: NativeTransport[] = [];

afterEach(async () => {
  for (const t of transports.splice(0)) await t.close();
  await server?.close();
  server = null;
});

/** A chunked SSE response written one event per write, each `gapMs` after the last. */
function trickle(sock: Socket, gapMs: number): void {
  sock.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n');
  let i = 0;
  const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
  const tick = () => {
    if (sock.destroyed) return;
    if (i < EVENTS) {
      sock.write(chunk(`data: {"i":${i}}\n\n`));
      i++;
      setTimeout(tick, gapMs);
    } else {
      sock.write(chunk('data: [DONE]\n\n') + '0\r\n\r\n');
    }
  };
  tick();
}

async function streamAll(readCoalesceUs: number) {
  const t = new NativeTransport({
    baseUrl: server!.url,
    address: '127.0.0.1',
    connections: STREAMS,
    requestTimeoutMs: 30_000,
    threads: 1,
    readCoalesceUs,
  });
  transports.push(t);
  const monitor = new HarnessMonitor(t).start();
  const rs = await Promise.all(Array.from({ length: STREAMS }, () => t.send(credit(), request())));
  for (const r of rs) monitor.observe(r);
  const stats = t.stats();
  const events = rs.reduce((n, r) => n + r.event_data.length, 0);
  return { rs, stats, readsPerEvent: stats.reads / events, harness: monitor.finish() };
}

describe('native engine: read coalescing', () => {
  it('takes fewer reads per event than eager reads, and every event still arrives with monotonic stamps', { retry: 2 }, async () => {
    server = await scriptedServer((sock) => trickle(sock, 1));
    const eager = await streamAll(0);
    const coalesced = await streamAll(WINDOW_US);
    const want = [...Array.from({ length: EVENTS }, (_, i) => `{"i":${i}}`), '[DONE]'];
    for (const { rs } of [eager, coalesced]) {
      for (const r of rs) {
        expect(r.status).toBe('ok');
        expect(r.event_data).toEqual(want);
        for (let i = 1; i < r.event_ns.length; i++) expect(r.event_ns[i]).toBeGreaterThanOrEqual(r.event_ns[i - 1]);
        expect(r.event_ns[0]).toBeGreaterThan(r.start_ns);
        expect(r.end_ns).toBe(r.event_ns[r.event_ns.length - 1]);
      }
    }
    // Eager: about one read per event (less when this loaded machine delays the reader); with a
    // 10 ms window, about one read per 10 events of a stream.
    expect(coalesced.readsPerEvent).toBeLessThan(eager.readsPerEvent / 2);
    expect(coalesced.readsPerEvent).toBeLessThan(0.4);
    // Fewer wake-ups, too: each look reads every stream that has bytes.
    expect(coalesced.stats.polls).toBeLessThan(eager.stats.polls / 2);
    expect(coalesced.stats.polls).toBeLessThanOrEqual(coalesced.stats.reads);
    expect(eager.stats.coalesce_sleeps).toBe(0);
    expect(coalesced.stats.coalesce_sleeps).toBeGreaterThan(0);
    // The added delay is measured, and it is the coalescing engine's that is larger.
    expect(coalesced.stats.read_delay_count).toBeGreaterThan(0);
    expect(coalesced.stats.read_delay_p50_ns).toBeGreaterThan(eager.stats.read_delay_p50_ns);
    expect(coalesced.stats.read_delay_max_ns).toBeGreaterThanOrEqual(coalesced.stats.read_delay_p99_ns);
    expect(coalesced.stats.read_delay_p99_ns).toBeGreaterThanOrEqual(coalesced.stats.read_delay_p50_ns);
    // The run's harness report states the window and what it added.
    for (const [run, window] of [
      [eager, 0],
      [coalesced, WINDOW_US],
    ] as const) {
      const reads = run.harness.reads!;
      expect(reads).toMatchObject({ coalesce_window_us: window, reads: run.stats.reads, events: STREAMS * (EVENTS + 1) });
      expect(reads.reads_per_event).toBeCloseTo(run.readsPerEvent, 9);
      expect(reads.polls_per_event).toBeCloseTo(run.stats.polls / reads.events, 9);
      expect(reads.read_delay_us.p50).toBe(run.stats.read_delay_p50_ns / 1e3);
      expect(reads.read_delay_us.count).toBe(run.stats.read_delay_count);
    }
  });

  it('refuses a window outside 0–10000 µs', () => {
    const Engine = native.Engine!;
    for (const readCoalesceUs of [-1, 10_001, 1.5]) {
      expect(() => new Engine({ address: '127.0.0.1', port: 9, readCoalesceUs }, () => {})).toThrow(
        expect.objectContaining({ code: 'SB_NATIVE_BAD_ARG' }),
      );
    }
  });
});

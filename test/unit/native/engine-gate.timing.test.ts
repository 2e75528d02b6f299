// The engine's slot gate (setGate, native/engine/engine_loop_gate.cc): a closed loop run on the I/O thread.
// Against a scripted server that answers each request after a delay: never more than `slots` in
// flight; the requests beyond wait in order and each starts when one ends, carrying that moment as
// its credit time; a held gate starts nothing until released; cancelWaiting ends only the waiting
// ones (never sent); setGate(0) starts them all.
import { afterEach, describe, expect, it } from 'vitest';
import { native } from '../../../src/native.js';
import type { RawRecord } from '../../../src/model/raw-record.js';
import { NativeTransport } from '../../../src/transport/native.js';
import { peakInFlight as peak } from '../../helpers/in-flight.js';
import { credit, request, scriptedServer, sseResponse, type ScriptedServer } from './engine-helpers.js';

let server: ScriptedServer | null = null;
let transport: NativeTransport | null = null;

afterEach(async () => {
  await transport?.close();
  transport = null;
  await server?.close();
  server = null;
});

/** A server that answers every request `delayMs` after it arrives. */
async function setup(delayMs: number) {
  server = await scriptedServer((sock) => {
    setTimeout(() => {
      if (!sock.destroyed) sock.write(sseResponse(['{"a":1}']));
    }, delayMs);
  });
  transport = new NativeTransport({ baseUrl: server.url, address: '127.0.0.1', connections: null, requestTimeoutMs: 10_000, threads: 1 });
  return transport;
}

/** The most of these records in flight at one instant. */
const peakInFlight = (recs: RawRecord[]) => peak(recs.map((r) => ({ start: r.start_ns, end: r.end_ns })));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('native engine: slot gate', () => {
  it('runs at most `slots` at once; each waiting request starts when one ends, credited from that moment', async () => {
    const t = await setup(40);
    const before = process.hrtime.bigint();
    t.setGate(2);
    const recs = await Promise.all(Array.from({ length: 6 }, () => t.send(credit(), request())));
    expect(recs.map((r) => r.status)).toEqual(Array(6).fill('ok'));
    expect(peakInFlight(recs)).toBe(2);
    // Three rounds of two, 40 ms each: the gate held them, the server never saw more than two.
    const byStart = [...recs].sort((a, b) => (a.start_ns < b.start_ns ? -1 : 1));
    expect(Number(byStart[5].start_ns - byStart[0].start_ns) / 1e6).toBeGreaterThan(70);
    // The first two: credited from the gate's opening. The others: exactly when an earlier one ended.
    const ends = new Set(recs.map((r) => r.end_ns));
    for (const r of byStart.slice(0, 2)) {
      expect(r.credit.credit_issued_ns).toBeGreaterThanOrEqual(before);
      expect(r.credit.credit_issued_ns).toBeLessThanOrEqual(r.start_ns);
    }
    for (const r of byStart.slice(2)) {
      expect(ends.has(r.credit.credit_issued_ns)).toBe(true);
      expect(r.start_ns).toBeGreaterThanOrEqual(r.credit.credit_issued_ns);
      expect(Number(r.start_ns - r.credit.credit_issued_ns) / 1e6).toBeLessThan(20);
    }
    expect(t.stats().gate_waiting).toBe(0);
  });

  it('held: nothing starts until the gate is released, then the wave starts together, credited from the release', async () => {
    const t = await setup(20);
    t.setGate(3, true);
    const sent = Array.from({ length: 3 }, () => t.send(credit(), request()));
    await sleep(60);
    expect(server!.requests().length).toBe(0);
    expect(t.stats().gate_waiting).toBe(3);
    const released = process.hrtime.bigint();
    t.setGate(3);
    const recs = await Promise.all(sent);
    expect(recs.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    const planned = new Set(recs.map((r) => r.credit.credit_issued_ns));
    expect(planned.size).toBe(1);
    expect([...planned][0]).toBeGreaterThanOrEqual(released);
    for (const r of recs) expect(Number(r.start_ns - r.credit.credit_issued_ns) / 1e6).toBeLessThan(20);
  });

  it('cancelWaiting ends the waiting requests at once, never sent, and leaves the running one', async () => {
    const t = await setup(300);
    t.setGate(1);
    const sent = Array.from({ length: 3 }, () => t.send(credit(), request()));
    await sleep(50);
    expect(t.stats().gate_waiting).toBe(2);
    const t0 = performance.now();
    t.cancelWaiting();
    const [first, ...rest] = await Promise.all(sent);
    expect(rest.map((r) => [r.unsent, r.error?.type])).toEqual([
      [true, 'cancelled'],
      [true, 'cancelled'],
    ]);
    expect(rest[0].error?.message).toMatch(/never sent/);
    expect(rest.every((r) => r.trace?.send_start_ns === null)).toBe(true);
    expect(first.status).toBe('ok');
    expect(first.unsent).toBeUndefined();
    // The first ran its 300 ms; the others did not wait for it.
    expect(performance.now() - t0).toBeGreaterThan(200);
    expect(server!.requests().length).toBe(1);
  });

  it('setGate(0) starts every waiting request at once', async () => {
    const t = await setup(150);
    t.setGate(1);
    const t0 = performance.now();
    const credits = Array.from({ length: 4 }, () => credit());
    const sent = credits.map((c) => t.send(c, request()));
    await sleep(30);
    t.setGate(0);
    const recs = await Promise.all(sent);
    expect(recs.map((r) => r.status)).toEqual(Array(4).fill('ok'));
    expect(peakInFlight(recs)).toBe(4);
    // Not four rounds of 150 ms.
    expect(performance.now() - t0).toBeLessThan(450);
    // The first went out on a slot (credited from the gate's opening); the others, let go, keep the callers' credits.
    expect(recs[0].credit).not.toBe(credits[0]);
    expect(recs.slice(1).map((r, i) => r.credit === credits[i + 1])).toEqual([true, true, true]);
  });

  it('refuses a slot count that is not an integer in [0, 1e7]', () => {
    const Engine = native.Engine!;
    const e = new Engine({ address: '127.0.0.1', port: 9 }, () => {});
    try {
      for (const bad of [-1, 1.5, Number.NaN, 1e8]) expect(() => e.setGate(bad)).toThrow(/slots must be an integer/);
      expect(() => (e.setGate as (x: unknown) => void)('2')).toThrow(/bad arguments/);
      expect(() => (e.setGate as (x: unknown, y: unknown) => void)(2, 'yes')).toThrow(/bad arguments/);
      e.setGate(3, true);
      e.setGate(3);
      e.setGate(0);
    } finally {
      e.close();
    }
  });
});

// Multi-turn sessions: history, think time, no overlap; in closed loop, open loop and replay.
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../src/dataset/types.js';
import { runBenchmark } from '../../../src/load/benchmark.js';
import { RunControl } from '../../../src/load/control.js';
import { buildTurn, SessionFeeder } from '../../../src/load/sessions.js';
import type { PhaseSpec } from '../../../src/load/types.js';
import { fakeTransport, listSource, ms, turn, type Sent } from './fakes.js';

const threeTurns = (id: string, delayMs: number, system?: string): Conversation => ({
  id,
  ...(system ? { system_prompt: system } : {}),
  turns: [turn(`${id}-a`), turn(`${id}-b`, { delay_ms: delayMs }), turn(`${id}-c`, { delay_ms: delayMs })],
});

function bySession(sent: Sent[]): Map<string, Sent[]> {
  const out = new Map<string, Sent[]>();
  for (const s of sent) {
    const id = s.credit.turn.session_id!;
    out.set(id, [...(out.get(id) ?? []), s]);
  }
  return out;
}

function checkSessions(sent: Sent[], delayMs: number): number {
  let complete = 0;
  for (const turns of bySession(sent).values()) {
    turns.sort((a, b) => a.credit.turn.turn_index! - b.credit.turn.turn_index!);
    turns.forEach((s, k) => {
      expect(s.credit.turn.turn_index).toBe(k);
      const msgs = s.credit.turn.messages!;
      // History: every earlier user message and the reply it got, then this turn's input.
      expect(msgs).toHaveLength(2 * k + 1);
      for (let j = 0; j < k; j++) {
        expect(msgs[2 * j]).toEqual({ role: 'user', content: turns[j].credit.turn.prompt });
        expect(msgs[2 * j + 1]).toEqual({ role: 'assistant', content: `reply to ${turns[j].credit.turn.prompt}` });
      }
      expect(msgs[2 * k]).toEqual({ role: 'user', content: s.credit.turn.prompt });
      if (k > 0) {
        // No overlap, and the think time is respected after the previous turn completed.
        const prev = turns[k - 1];
        expect(s.at >= prev.end!).toBe(true);
        expect(ms(s.at - prev.end!)).toBeGreaterThanOrEqual(delayMs - 0.5);
      }
    });
    if (turns.length === 3) complete++;
  }
  return complete;
}

describe('buildTurn', () => {
  it('a plain single turn is the dataset turn as it is', () => {
    const f = new SessionFeeder(listSource([{ id: 'x', turns: [turn('hello', { isl: 7 })] }]));
    expect(f.nextNew().turn).toEqual({ prompt: 'hello', isl: 7, max_tokens: 4 });
  });

  it('a system prompt goes first and the ISL is left to the processor to count', () => {
    const f = new SessionFeeder(listSource([{ id: 'x', system_prompt: 'be brief', turns: [turn('hi')] }]));
    const t = f.nextNew().turn;
    expect(t.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ]);
    expect(t.isl).toBeNull();
  });

  it('verbatim messages of a single-turn entry are sent unchanged', () => {
    const messages = [
      { role: 'system' as const, content: 's' },
      { role: 'user' as const, content: 'u' },
    ];
    const f = new SessionFeeder(listSource([{ id: 'x', turns: [turn('u', { messages })] }]));
    expect(f.nextNew().turn.messages).toEqual(messages);
  });

  it('turn k+1 exists only after turn k settled ok, and is ready after the think time', () => {
    const f = new SessionFeeder(listSource([threeTurns('s', 40)]));
    const t0 = f.nextNew();
    expect(t0.wantReply).toBe(true);
    const next = f.settle(t0, { status: 'ok', reply: 'R0' }, 1_000_000_000n)!;
    expect(next.readyAt).toBe(1_040_000_000n);
    expect(next.ticket.turn.messages!.map((m) => m.content)).toEqual(['s-a', 'R0', 's-b']);
    f.defer(next.ticket, next.readyAt);
    expect(f.takeReady(1_039_999_999n)).toBeNull();
    expect(f.takeReady(1_040_000_000n)).toBe(next.ticket);
    // A failed turn ends the session.
    expect(f.settle(next.ticket, { status: 'error', reply: null }, 2n)).toBeNull();
    expect(f.counts).toEqual({ started: 1, completed: 0, abandoned: 1 });
    expect(() => buildTurn({ id: 'q', conversation: { id: 'q', turns: [] }, history: [] }, 0)).toThrow(RangeError);
  });
});

describe('sessions under load', () => {
  const convs = [threeTurns('u', 30), threeTurns('v', 30), threeTurns('w', 30)];

  it('closed loop: a slot runs one session at a time; turns never overlap, carry the history and wait the think time', async () => {
    const t = fakeTransport(() => 10);
    const spec: PhaseSpec = {
      phase: 'profiling',
      mode: { kind: 'concurrency', concurrency: 2, rampNs: null },
      requestCount: 18,
      durationNs: null,
      cooldownNs: null,
    };
    const r = await runBenchmark(
      { warmup: null, profiling: spec, graceNs: null, cancellation: null },
      listSource(convs),
      t.hooks,
      new RunControl(),
    );
    expect(t.sent).toHaveLength(18);
    expect(t.peak).toBe(2);
    // 18 requests, 2 users, 3 turns each: 6 whole conversations.
    expect(checkSessions(t.sent, 30)).toBe(6);
    expect(r.profiling!.sessions).toEqual({ started: 6, completed: 6, abandoned: 0 });
  });

  it('closed loop: a session cut short by the count is abandoned, not left waiting', async () => {
    const t = fakeTransport(() => 5);
    const spec: PhaseSpec = {
      phase: 'profiling',
      mode: { kind: 'concurrency', concurrency: 2, rampNs: null },
      requestCount: 4,
      durationNs: null,
      cooldownNs: null,
    };
    const r = await runBenchmark(
      { warmup: null, profiling: spec, graceNs: null, cancellation: null },
      listSource(convs),
      t.hooks,
      new RunControl(),
    );
    expect(t.sent).toHaveLength(4);
    expect(r.profiling!.sessions).toEqual({ started: 2, completed: 0, abandoned: 2 });
  });

  it('open loop: a tick sends a ready continuation before a new conversation', async () => {
    const t = fakeTransport(() => 5);
    const spec: PhaseSpec = {
      phase: 'profiling',
      mode: { kind: 'rate', arrival: { pattern: 'constant', rate: 100, smoothness: 1, rampNs: null, seed: 0 }, cap: null, capRampNs: null },
      requestCount: 24,
      durationNs: null,
      cooldownNs: null,
    };
    await runBenchmark({ warmup: null, profiling: spec, graceNs: null, cancellation: null }, listSource(convs), t.hooks, new RunControl());
    expect(checkSessions(t.sent, 30)).toBeGreaterThanOrEqual(5);
  });

  it('fixed schedule: first turns at their trace times, later turns after completion + think time (and not before their own timestamp)', async () => {
    const t = fakeTransport(() => 10);
    const trace: Conversation[] = [
      { id: 'a', turns: [turn('a1', { timestamp_ms: 1000 }), turn('a2', { delay_ms: 20 })] },
      { id: 'b', turns: [turn('b1', { timestamp_ms: 1030 }), turn('b2', { timestamp_ms: 1150, delay_ms: 0 })] },
    ];
    const { planReplay } = await import('../../../src/load/replay.js');
    const schedule = planReplay(trace, { startOffsetMs: null, endOffsetMs: null, autoOffset: true }).schedule;
    const spec: PhaseSpec = {
      phase: 'profiling',
      mode: { kind: 'fixed_schedule', cap: null, schedule },
      requestCount: null,
      durationNs: null,
      cooldownNs: null,
    };
    const r = await runBenchmark(
      { warmup: null, profiling: spec, graceNs: null, cancellation: null },
      listSource(trace, true),
      t.hooks,
      new RunControl(),
    );
    const start = r.profiling!.start_ns;
    const at = (p: string) => t.sent.find((s) => s.credit.turn.prompt === p)!;
    expect(t.sent).toHaveLength(4);
    // a1 at 0, b1 at 30 ms, a2 at a1's end + 20 ms, b2 at 150 ms.
    expect(ms(at('a1').at - start)).toBeLessThan(8);
    expect(ms(at('b1').at - start)).toBeGreaterThanOrEqual(30);
    expect(ms(at('b1').at - start)).toBeLessThan(38);
    expect(ms(at('a2').at - at('a1').end!)).toBeGreaterThanOrEqual(19.5);
    expect(ms(at('b2').at - start)).toBeGreaterThanOrEqual(150);
    expect(ms(at('b2').at - start)).toBeLessThan(160);
    // Sent at a trace time: a1, b1, b2; a2 followed its predecessor.
    expect(at('a1').credit.trace_timestamp_ms).toBe(1000);
    expect(at('b2').credit.trace_timestamp_ms).toBe(1150);
    expect(at('a2').credit.trace_timestamp_ms).toBeUndefined();
    expect(at('a2').credit.turn.messages!.map((m) => m.content)).toEqual(['a1', 'reply to a1', 'a2']);
    expect(r.profiling!.reason).toBe('schedule_end');
    expect(r.profiling!.sessions).toEqual({ started: 2, completed: 2, abandoned: 0 });
  });
});

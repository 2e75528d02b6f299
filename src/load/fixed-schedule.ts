// Fixed-schedule replay, sending side: each conversation's first turn at its trace offset from
// the phase start (the same pacer as the rate mode, over a list of offsets). A later turn goes
// once the previous one completed plus its think time, and not before its own trace timestamp
// when it has one. Only turns sent at a trace timestamp carry trace_timestamp_ms, so only they
// count in the replay schedule lag (a turn held back by its predecessor has no absolute time).
import type { ModeContext } from './concurrency.js';
import { ListSchedule, pace } from './pacer.js';
import { type IssueResult, PhaseWindow } from './phase-window.js';
import type { Ticket } from './sessions.js';
import { waitUntil } from './timer.js';
import { setLongTimeout } from '../timers.js';
import type { DispatchResult, PhaseSpec } from './types.js';

const MAX_BURST = 64;
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runFixedSchedule(spec: PhaseSpec, ctx: ModeContext): Promise<IssueResult> {
  if (spec.mode.kind !== 'fixed_schedule') throw new Error('runFixedSchedule: not a fixed-schedule phase');
  const { cap, schedule } = spec.mode;
  const { issuer, feeder, control } = ctx;
  const entries = schedule.entries;
  const list = new ListSchedule(entries.map((e) => e.offsetNs));
  const start = process.hrtime.bigint();
  // The trace itself is the count; a duration may cut it short. No cooldown after a trace.
  const win = new PhaseWindow({ ...spec, requestCount: null, cooldownNs: null }, start, control, ctx.onLabel);
  const deadline = spec.durationNs === null ? null : start + BigInt(Math.round(spec.durationNs));
  issuer.setLimit(cap === null ? null : () => cap);

  // Sessions with turns still to send, and continuations waiting for their time.
  let openSessions = 0;
  let closed = false;
  let wakeIdle: (() => void) | null = null;
  const sessionEnded = () => {
    openSessions--;
    if (openSessions === 0) wakeIdle?.();
  };
  const issuingOver = (now: bigint) => closed || control.stopped || (deadline !== null && now >= deadline);

  const onSettled = (t: Ticket, r: DispatchResult, end: bigint): void => {
    const next = feeder.settle(t, r, end);
    if (!next) {
      if (t.session.conversation.turns.length > 1) sessionEnded();
      return;
    }
    const ts = next.ticket.timestampMs;
    if (ts !== null && schedule.endOffsetMs !== null && ts > schedule.endOffsetMs) {
      feeder.drop(next.ticket);
      sessionEnded();
      return;
    }
    const traceAt = ts === null ? null : start + BigInt(Math.round(Math.max(0, ts - schedule.zeroMs) * 1e6));
    const readyAt = traceAt !== null && traceAt > next.readyAt ? traceAt : next.readyAt;
    void waitUntil(readyAt, control).then((reached) => {
      const now = process.hrtime.bigint();
      if (!reached || issuingOver(now)) {
        feeder.drop(next.ticket);
        sessionEnded();
        return;
      }
      issuer.issue({
        ticket: next.ticket,
        phase: spec.phase,
        counters: win.counters,
        targetedNs: readyAt,
        // Sent at its trace time only when its predecessor did not hold it back.
        ...(traceAt !== null && traceAt >= next.readyAt ? { traceTimestampMs: ts! } : {}),
        onSettled,
      });
    });
  };

  let sent = 0;
  let burst = 0;
  for (;;) {
    if (control.stopped) break;
    const now = process.hrtime.bigint();
    const d = pace(list, Number(now - start), sent, { count: entries.length, durationNs: spec.durationNs });
    if (d.action === 'stop') break;
    if (d.action === 'wait') {
      burst = 0;
      await waitUntil(now + BigInt(Math.ceil(d.ns)), control, { nap: ctx.nap });
      continue;
    }
    const entry = entries[sent];
    const ticket = feeder.start(entry.conversation);
    if (entry.conversation.turns.length > 1) openSessions++;
    issuer.issue({
      ticket,
      phase: spec.phase,
      counters: win.counters,
      targetedNs: start + BigInt(Math.round(entry.offsetNs)),
      traceTimestampMs: entry.timestampMs,
      onSettled,
    });
    sent++;
    win.taken++;
    if (++burst >= MAX_BURST) {
      burst = 0;
      await yieldNow();
    }
  }

  // Multi-turn traces: issuing goes on until every session has sent its last turn, the
  // duration ends, or the run is stopped.
  if (openSessions > 0 && !control.stopped) {
    await new Promise<void>((resolve) => {
      const done = () => {
        off();
        timer?.clear();
        wakeIdle = null;
        resolve();
      };
      const off = control.onChange(done);
      const timer = deadline === null ? null : setLongTimeout(done, Math.max(0, Number(deadline - process.hrtime.bigint()) / 1e6));
      wakeIdle = done;
    });
  }
  closed = true;
  const end = process.hrtime.bigint();
  const byDuration = deadline !== null && end >= deadline && (sent < entries.length || openSessions > 0);
  win.endMeasured(byDuration ? deadline : end, byDuration ? 'duration' : 'schedule_end');
  return win.result(end);
}

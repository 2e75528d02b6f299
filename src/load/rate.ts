// Open loop: request i goes at its absolute target from the phase start (pacer.ts), whatever
// happened to the requests before it. All requests already due are sent in one go (catch-up),
// each keeping its planned targeted_start. With a cap, a due request waits for a free slot; it
// was issued (credit_issued_ns) when due, so the wait shows in effective latency and dispatch delay.
import type { ModeContext } from './concurrency.js';
import { pace, type PaceBounds } from './pacer.js';
import { arrivalSchedule } from './shard-plan.js';
import type { IssueResult } from './phase-window.js';
import { PhaseWindow } from './phase-window.js';
import { concurrencyAt } from './ramp.js';
import { waitUntil } from './timer.js';
import { setLongInterval, type LongTimer } from '../timers.js';
import type { PhaseSpec } from './types.js';

/** Yield to the event loop after this many back-to-back sends, so a long catch-up cannot starve I/O. */
const MAX_BURST = 64;

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runRate(spec: PhaseSpec, ctx: ModeContext): Promise<IssueResult> {
  if (spec.mode.kind !== 'rate') throw new Error('runRate: not a rate phase');
  if (spec.requestCount === null && spec.durationNs === null) throw new Error('a phase needs a request count or a duration');
  const { arrival, cap, capRampNs } = spec.mode;
  const { issuer, feeder, control } = ctx;
  const schedule = arrivalSchedule(arrival);
  const start = process.hrtime.bigint();
  const win = new PhaseWindow(spec, start, control, ctx.onLabel);
  const elapsed = () => Number(process.hrtime.bigint() - start);

  let rampTimer: LongTimer | null = null;
  if (cap === null) issuer.setLimit(null);
  else {
    issuer.setLimit(() => concurrencyAt(elapsed(), cap, capRampNs));
    // While the cap ramps, re-check the queue as each new slot opens.
    if (capRampNs !== null && cap > 1) {
      rampTimer = setLongInterval(
        () => {
          issuer.pump();
          if (elapsed() >= capRampNs) rampTimer?.clear();
        },
        Math.max(1, Math.floor(capRampNs / cap / 1e6)),
      );
    }
  }

  let sent = 0;
  let bounds: PaceBounds = { count: spec.requestCount, durationNs: spec.durationNs };
  let label = { phase: spec.phase, counters: win.counters };
  let burst = 0;
  try {
    for (;;) {
      if (control.stopped) break;
      const now = process.hrtime.bigint();
      const e = Number(now - start);
      const d = pace(schedule, e, sent, bounds);
      if (d.action === 'stop') {
        if (win.inCooldown || win.measuredEndNs !== null) break;
        const byCount = bounds.count !== null && sent >= bounds.count;
        win.endMeasured(now, byCount ? 'count' : 'duration');
        if (!win.inCooldown) break;
        // The cooldown continues the same schedule until its end.
        label = { phase: 'cooldown', counters: win.cooldownCounters! };
        bounds = { count: null, durationNs: Number(win.cooldownEndNs()! - start) };
        continue;
      }
      if (d.action === 'wait') {
        burst = 0;
        await waitUntil(now + BigInt(Math.ceil(d.ns)), control, { nap: ctx.nap });
        continue;
      }
      issuer.issue({
        ticket: feeder.next(now),
        phase: label.phase,
        counters: label.counters,
        targetedNs: start + BigInt(Math.round(schedule.targetNs(sent))),
        onSettled: (t, r, end) => {
          const next = feeder.settle(t, r, end);
          if (next) {
            if (win.closed) feeder.drop(next.ticket);
            else feeder.defer(next.ticket, next.readyAt);
          }
        },
      });
      sent++;
      if (label.phase === spec.phase) win.taken++;
      if (++burst >= MAX_BURST) {
        burst = 0;
        await yieldNow();
      }
    }
  } finally {
    rampTimer?.clear();
  }
  return win.result(process.hrtime.bigint());
}

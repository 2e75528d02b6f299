// Closed loop: N slots, each issues its next credit the moment its last request settles.
// With a ramp, slot k opens at k/N of the ramp duration. Sessions in think time hold no slot:
// a slot takes a continuation whose think time is over first, else starts a new conversation.
import type { RunControl } from './control.js';
import type { CreditIssuer } from './issuer.js';
import { type IssueResult, type LabelListener, PhaseWindow } from './phase-window.js';
import { slotOpensAtNs } from './ramp.js';
import type { SessionFeeder } from './sessions.js';
import { waitUntil } from './timer.js';
import type { PhaseSpec } from './types.js';

export interface ModeContext {
  issuer: CreditIssuer;
  feeder: SessionFeeder;
  control: RunControl;
  onLabel?: LabelListener;
}

export async function runClosedLoop(spec: PhaseSpec, ctx: ModeContext): Promise<IssueResult> {
  if (spec.mode.kind !== 'concurrency') throw new Error('runClosedLoop: not a concurrency phase');
  if (spec.requestCount === null && spec.durationNs === null) throw new Error('a phase needs a request count or a duration');
  const { concurrency, rampNs } = spec.mode;
  const { issuer, feeder, control } = ctx;
  issuer.setLimit(null); // the slots themselves bound what is in flight
  const start = process.hrtime.bigint();
  const win = new PhaseWindow(spec, start, control, ctx.onLabel);

  const slot = async (k: number): Promise<void> => {
    const opensAt = slotOpensAtNs(k, concurrency, rampNs);
    if (opensAt > 0 && !(await waitUntil(start + BigInt(opensAt), control))) return;
    for (;;) {
      const now = process.hrtime.bigint();
      const label = win.take(now);
      if (label === null) return;
      await issuer.issueNow({
        ticket: feeder.next(now),
        phase: label.label,
        counters: label.counters,
        targetedNs: null,
        onSettled: (t, r, end) => {
          const next = feeder.settle(t, r, end);
          if (next) {
            if (win.closed) feeder.drop(next.ticket);
            else feeder.defer(next.ticket, next.readyAt);
          }
        },
      });
    }
  };

  // A count below the concurrency needs no more slots than requests (unless a cooldown follows).
  const slots = spec.requestCount !== null && spec.durationNs === null && spec.cooldownNs === null ? Math.min(concurrency, spec.requestCount) : concurrency;
  // Issuing ends when no slot will take another credit; the requests still in flight then are the
  // drain's (benchmark.ts), so a duration's grace period starts at the deadline, not after them.
  await Promise.race([Promise.all(Array.from({ length: slots }, (_, k) => slot(k))), win.issuingOver()]);
  return win.result(process.hrtime.bigint());
}

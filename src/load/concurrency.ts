// Closed loop: N slots, each issues its next credit the moment its last request settles.
// With a ramp, slot k opens at k/N of the ramp duration. A slot is a user: it runs one session
// at a time, turn after turn, waiting out the think time between them (so a multi-turn run at
// concurrency N has N conversations going, at most N requests in flight), then starts the next.
import type { RunControl } from './control.js';
import type { CreditIssuer } from './issuer.js';
import { type IssueResult, type LabelListener, PhaseWindow } from './phase-window.js';
import { slotOpensAtNs } from './ramp.js';
import { slotActiveFromNs } from './stages.js';
import type { SessionFeeder, Ticket } from './sessions.js';
import { waitUntil } from './timer.js';
import type { PhaseSpec, SlotGate } from './types.js';

export interface ModeContext {
  issuer: CreditIssuer;
  feeder: SessionFeeder;
  control: RunControl;
  onLabel?: LabelListener;
  /** Nap rather than spin when close to a send time (timer.ts): the transport stamps off the JS thread. */
  nap?: boolean;
  /** The transport's slot gate, where it has one (SlotGate). */
  gate?: SlotGate;
}

export async function runClosedLoop(spec: PhaseSpec, ctx: ModeContext): Promise<IssueResult> {
  if (spec.mode.kind !== 'concurrency') throw new Error('runClosedLoop: not a concurrency phase');
  if (spec.requestCount === null && spec.durationNs === null) throw new Error('a phase needs a request count or a duration');
  const { concurrency, rampNs, stages } = spec.mode;
  const { issuer, feeder, control } = ctx;
  issuer.setLimit(null); // the slots themselves bound what is in flight
  const start = process.hrtime.bigint();
  const win = new PhaseWindow(spec, start, control, ctx.onLabel);

  const slot = async (k: number): Promise<void> => {
    const opensAt = slotOpensAtNs(k, concurrency, rampNs);
    if (opensAt > 0 && !(await waitUntil(start + BigInt(opensAt), control))) return;
    // The session's next turn, once this slot's last request settled.
    // (Typed through `as`: it is set in a callback, which TypeScript's narrowing does not follow.)
    let pending = null as { ticket: Ticket; readyAt: bigint } | null;
    for (;;) {
      if (pending && !(await waitUntil(pending.readyAt, control))) {
        feeder.drop(pending.ticket);
        return;
      }
      // Stages: a new conversation only while the target is above this slot (k6's ramping VUs).
      if (stages && !pending) {
        const now = Number(process.hrtime.bigint() - start);
        const at = slotActiveFromNs(k, now, stages);
        if (at === null || (at > now && !(await waitUntil(start + BigInt(at), control)))) return;
      }
      const label = win.take(process.hrtime.bigint());
      if (label === null) {
        if (pending) feeder.drop(pending.ticket);
        return;
      }
      const ticket = pending?.ticket ?? feeder.nextNew();
      pending = null;
      await issuer.issueNow({
        ticket,
        phase: label.label,
        counters: label.counters,
        targetedNs: null,
        onSettled: (t, r, end) => {
          const next = feeder.settle(t, r, end);
          if (next) {
            if (win.closed) feeder.drop(next.ticket);
            else pending = next;
          }
        },
      });
    }
  };

  // A plain count may hand its slots to the transport's gate: `ahead` more slots here keep that many
  // requests waiting there, and a slot that frees starts the next at once, with no JS turn between
  // (a wave of 1,024 completions on a busy JS thread would otherwise delay the next wave's sends).
  // Not with a ramp, stages, a duration or a cooldown, whose openings and ends the JS slots time.
  const counted = spec.requestCount !== null && spec.durationNs === null && spec.cooldownNs === null;
  const gate = counted && !rampNs && !stages && ctx.gate?.open(concurrency) ? ctx.gate : undefined;
  const ahead = gate ? gate.ahead(concurrency) : 0;
  if (gate) win.counters.gateSlots = concurrency;
  // A count below the concurrency needs no more slots than requests (unless a cooldown follows).
  const slots = counted ? Math.min(concurrency + ahead, spec.requestCount!) : concurrency;
  // Each slot builds and sends its first request before its first await. Behind a held gate the
  // first wave is all built before any of it starts, and then starts together (the load starts
  // there; built one by one as they went out, 1,024 requests spread the first wave over 100 ms).
  const first = Array.from({ length: Math.min(slots, concurrency) }, (_, k) => slot(k));
  gate?.release();
  const rest = Array.from({ length: slots - first.length }, (_, k) => slot(first.length + k));
  // Issuing ends when no slot will take another credit; the requests still in flight then are the
  // drain's (benchmark.ts), so a duration's grace period starts at the deadline, not after them.
  await Promise.race([Promise.all([...first, ...rest]), win.issuingOver()]);
  return win.result(process.hrtime.bigint());
}

// Waiting for an absolute CLOCK_MONOTONIC deadline with sub-millisecond accuracy.
// setTimeout alone is only good to ~1 ms (and fires late under load), so sleep with setTimeout
// until SPIN_NS before the deadline, then yield with setImmediate until it passes: the event
// loop keeps serving I/O between checks, and the CPU is only busy for the last stretch.
// With `nap`, that last stretch sleeps in short Atomics.wait naps between the checks instead of
// spinning: a fraction of the CPU (which a 2-core host needs for the server and the I/O threads),
// at the price of I/O callbacks waiting out a nap (≤ NAP_MAX_NS). Only for transports that stamp
// responses off the JS thread (the native engine); undici's chunk stamps are taken on it.
import { MAX_TIMER_MS } from '../timers.js';
import type { RunControl } from './control.js';

/** Hand over from the timer to the setImmediate spin this long before the deadline. */
export const SPIN_NS = 1_500_000;
/** Nap only when at least this far from the deadline; a nap can overshoot by the kernel's timer slack (50 µs by default). */
const NAP_MIN_NS = 20_000;
/** Wake this much before the deadline, to meet it despite the slack more often than not. */
const NAP_GUARD_NS = 10_000;
const NAP_MAX_NS = 500_000;
const napCell = new Int32Array(new SharedArrayBuffer(4));

export interface WaitOptions {
  /** What ends the wait early: a stop (default) or only a cancel. */
  interruptOn?: 'stop' | 'cancel';
  /** Sleep in short naps instead of spinning near the deadline (see above). */
  nap?: boolean;
}

const now = (): bigint => process.hrtime.bigint();

/**
 * Resolves once `deadline` has passed (true), or early when `control` stops or cancels (false).
 * A deadline already passed resolves at once, without yielding.
 */
export function waitUntil(deadline: bigint, control?: RunControl, opts: WaitOptions = {}): Promise<boolean> {
  const interruptOn = opts.interruptOn ?? 'stop';
  const nap = opts.nap ?? false;
  const interrupted = () => (control ? (interruptOn === 'stop' ? control.stopped : control.cancelled) : false);
  if (deadline <= now()) return Promise.resolve(true);
  if (interrupted()) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    let timer: NodeJS.Timeout | null = null;
    let done = false;
    const finish = (reached: boolean) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      off?.();
      resolve(reached);
    };
    const off = control?.onChange(() => {
      if (interrupted()) finish(false);
    });
    let first = true;
    const step = () => {
      timer = null;
      if (done) return;
      // Never nap before one turn of the event loop: whatever the caller just queued with
      // setImmediate (the native transport's batch flush) must go out first.
      const mayNap = nap && !first;
      first = false;
      const left = Number(deadline - now());
      if (left <= 0) finish(true);
      // Each step re-aims at the deadline, so a wait longer than one Node timer is a chain of them.
      else if (left > SPIN_NS) timer = setTimeout(step, Math.min(MAX_TIMER_MS, Math.floor((left - SPIN_NS) / 1e6)));
      else {
        if (mayNap && left > NAP_MIN_NS) Atomics.wait(napCell, 0, 0, Math.min(left - NAP_GUARD_NS, NAP_MAX_NS) / 1e6);
        setImmediate(step);
      }
    };
    step();
  });
}

/** waitUntil for a delay from now. */
export function sleepNs(ns: number, control?: RunControl, opts: WaitOptions = {}): Promise<boolean> {
  return waitUntil(now() + BigInt(Math.max(0, Math.round(ns))), control, opts);
}

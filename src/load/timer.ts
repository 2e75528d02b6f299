// Waiting for an absolute CLOCK_MONOTONIC deadline with sub-millisecond accuracy.
// setTimeout alone is only good to ~1 ms (and fires late under load), so sleep with setTimeout
// until SPIN_NS before the deadline, then yield with setImmediate until it passes: the event
// loop keeps serving I/O between checks, and the CPU is only busy for the last stretch.
import type { RunControl } from './control.js';

/** Hand over from the timer to the setImmediate spin this long before the deadline. */
export const SPIN_NS = 1_500_000;

const now = (): bigint => process.hrtime.bigint();

/**
 * Resolves once `deadline` has passed (true), or early when `control` stops or cancels (false).
 * A deadline already passed resolves at once, without yielding.
 */
export function waitUntil(deadline: bigint, control?: RunControl, interruptOn: 'stop' | 'cancel' = 'stop'): Promise<boolean> {
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
    const step = () => {
      timer = null;
      if (done) return;
      const left = Number(deadline - now());
      if (left <= 0) finish(true);
      else if (left > SPIN_NS) timer = setTimeout(step, Math.floor((left - SPIN_NS) / 1e6));
      else setImmediate(step);
    };
    step();
  });
}

/** waitUntil for a delay from now. */
export function sleepNs(ns: number, control?: RunControl, interruptOn: 'stop' | 'cancel' = 'stop'): Promise<boolean> {
  return waitUntil(now() + BigInt(Math.max(0, Math.round(ns))), control, interruptOn);
}

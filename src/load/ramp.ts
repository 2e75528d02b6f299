// Linear concurrency ramp: the number of requests allowed in flight grows from 1 to the target
// over the ramp, one step at a time. Pure functions of the elapsed time, like the pacer.

/** Requests allowed in flight `elapsedNs` after the phase start (target when there is no ramp). */
export function concurrencyAt(elapsedNs: number, target: number, rampNs: number | null): number {
  if (rampNs === null || rampNs <= 0 || elapsedNs >= rampNs) return target;
  return Math.min(target, Math.max(1, Math.floor((target * Math.max(0, elapsedNs)) / rampNs) + 1));
}

/** When slot k (0-based) opens: the first elapsed time at which concurrencyAt exceeds k. */
export function slotOpensAtNs(k: number, target: number, rampNs: number | null): number {
  if (rampNs === null || rampNs <= 0 || k <= 0) return 0;
  return Math.ceil((k * rampNs) / target);
}

// Timers of any length. Node keeps a timer's delay in a signed 32-bit count of ms: a longer delay
// (about 24.8 days) fires after 1 ms instead, with a TimeoutOverflowWarning each time. Every timer
// whose length a user gives (timeouts, grace periods, durations, delays, intervals) is set here,
// as a chain of timers no longer than MAX_TIMER_MS, each re-aimed at the same deadline.

/** The longest delay one Node timer holds (2^31 − 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The longest wait anything is set for: 1e12 ms, about 31.7 years, far beyond any run. A longer
 * (finite) duration is cut to it where it becomes nanoseconds, so no deadline overflows a double
 * or the native engine's int64 (whose request timeout is bounded by the same value).
 */
export const MAX_WAIT_MS = 1e12;

/** ms, cut to MAX_WAIT_MS (a duration longer than that outlasts the run anyway). */
export const capWaitMs = (ms: number): number => Math.min(ms, MAX_WAIT_MS);

/** Seconds → integer nanoseconds, cut to MAX_WAIT_MS. */
export const secondsToNs = (s: number): number => Math.round(capWaitMs(s * 1000) * 1e6);

export interface LongTimer {
  /** Cancels the timer (safe to call twice, and after it fired). */
  clear(): void;
  /** Lets the process exit while the timer waits (as Timeout.unref). */
  unref(): LongTimer;
}

export interface LongTimerOptions {
  /** The longest single timer of the chain; only tests shorten it. */
  maxMs?: number;
}

/** setTimeout for any delay ≥ 0 (ms). Infinity never fires. */
export function setLongTimeout(fn: () => void, ms: number, opts: LongTimerOptions = {}): LongTimer {
  if (Number.isNaN(ms) || ms < 0) throw new RangeError(`setLongTimeout: the delay must be a number >= 0, got ${ms}`);
  const maxMs = opts.maxMs ?? MAX_TIMER_MS;
  const deadline = performance.now() + ms;
  let timer: NodeJS.Timeout | null = null;
  let unrefd = false;
  const arm = () => {
    const left = deadline - performance.now();
    if (left <= 0) {
      timer = null;
      fn();
      return;
    }
    timer = setTimeout(arm, Math.min(Math.ceil(left), maxMs));
    if (unrefd) timer.unref();
  };
  const handle: LongTimer = {
    clear() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
    unref() {
      unrefd = true;
      timer?.unref();
      return handle;
    },
  };
  if (ms === Infinity) return handle;
  // The first link is set now (not after a turn), so a 0 ms timer orders like setTimeout(fn, 0).
  timer = setTimeout(arm, Math.min(Math.ceil(ms), maxMs));
  return handle;
}

/** setInterval for any period > 0 (ms): `fn` runs every `ms` (timed from when the last one ran). */
export function setLongInterval(fn: () => void, ms: number, opts: LongTimerOptions = {}): LongTimer {
  if (!(ms > 0)) throw new RangeError(`setLongInterval: the period must be a number > 0, got ${ms}`);
  let current: LongTimer | null = null;
  let cleared = false;
  let unrefd = false;
  const next = () => {
    current = setLongTimeout(
      () => {
        if (cleared) return;
        next();
        fn();
      },
      ms,
      opts,
    );
    if (unrefd) current.unref();
  };
  next();
  const handle: LongTimer = {
    clear() {
      cleared = true;
      current?.clear();
    },
    unref() {
      unrefd = true;
      current?.unref();
      return handle;
    },
  };
  return handle;
}

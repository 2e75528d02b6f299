// How a run stops on a signal. SIGINT (Ctrl-C), SIGTERM (a service manager, `kill`, a CI timeout)
// and SIGHUP (a closed terminal) all count alike, in one count: the first stops issuing and lets the
// requests in flight finish within the grace period; the second cancels them now; either way every
// export is written. The third gives the exports QUIT_AFTER_MS more, then quits (exit code 130); the
// fourth quits at once. records.jsonl is written line by line as records finish (run/pipeline/record-pipeline.ts,
// synchronously), so even a quit keeps every finished record, and `servebench analyze` rebuilds the rest.
import type { RunControl } from '../../load/control.js';

export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** After the third signal, the exports get this long to be written before the process quits anyway. */
export const QUIT_AFTER_MS = 5000;

/** Exit code of a run quit by signals (128 + SIGINT's number, as a shell reports it). */
export const QUIT_EXIT_CODE = 130;

export interface SignalOptions {
  /** What quitting does (default: process.exit(QUIT_EXIT_CODE)); tests replace it. */
  quit?: () => void;
  quitAfterMs?: number;
}

/** Installs the handlers for the whole command; returns the function that removes them. */
export function onStopSignals(
  control: RunControl,
  graceS: number | null,
  log: (msg: string) => void,
  opts: SignalOptions = {},
): () => void {
  const quit = opts.quit ?? (() => process.exit(QUIT_EXIT_CODE));
  const quitAfterMs = opts.quitAfterMs ?? QUIT_AFTER_MS;
  let count = 0;
  let quitTimer: NodeJS.Timeout | null = null;
  const handler = (signal: NodeJS.Signals) => {
    count++;
    if (count === 1) {
      control.stop();
      log(
        `interrupted: no new requests; waiting ${graceS === null ? 'without limit' : `up to ${graceS} s`} for those in flight, then writing the exports (${signal}; a second signal or Ctrl-C cancels them now)`,
      );
    } else if (count === 2) {
      control.cancel();
      log(`interrupted again: cancelling the requests in flight and writing the exports (${signal}; a third signal quits)`);
    } else if (count === 3) {
      log(
        `interrupted a third time (${signal}): quitting within ${quitAfterMs / 1000} s, with or without the summary; records.jsonl keeps every finished record (servebench analyze rebuilds the summary from it); a fourth signal quits now`,
      );
      // Unref'd: a run that finishes its exports first exits as it would have, with its own exit code.
      quitTimer = setTimeout(quit, quitAfterMs);
      quitTimer.unref();
    } else {
      quit();
    }
  };
  for (const s of STOP_SIGNALS) process.on(s, handler);
  return () => {
    for (const s of STOP_SIGNALS) process.off(s, handler);
    if (quitTimer) clearTimeout(quitTimer);
  };
}

// One-time warnings: a condition that can repeat on every response (a usage field of the wrong type,
// an inconsistent per-chunk count) is reported once per run, not once per record, and the run goes on.

import { scrub } from './secrets.js';

type Sink = (line: string) => void;

const defaultSink: Sink = (line) => {
  process.stderr.write(scrub(`servebench: warning: ${line}\n`));
};

let sink: Sink = defaultSink;
const seen = new Set<string>();

/** Write `message` the first time `key` is seen in this process; later calls with the same key are ignored. */
export function warnOnce(key: string, message: string): void {
  if (seen.has(key)) return;
  seen.add(key);
  sink(message);
}

/** A warning that is not deduplicated (end-of-run summaries). Goes to the same sink. */
export function warn(message: string): void {
  sink(message);
}

/** Redirect warnings (tests); returns a function restoring the previous sink. */
export function setWarningSink(next: Sink): () => void {
  const prev = sink;
  sink = next;
  return () => {
    sink = prev;
  };
}

/** Forget which keys were warned about (tests, or a second run in the same process). */
export function resetWarnings(): void {
  seen.clear();
}

// How long a `profile` process takes from its launch to its profiling phase on this host now (the
// shared 2-core host can take tens of seconds under load), read from a finished run's export: the
// lead a --start-at test needs for several such processes started at once.
import path from 'node:path';
import { readJson } from './cli.js';

/** Seconds from `launchedMs` (Date.now() before the spawn) to the profiling start of the run in `dir`. */
export function startupSeconds(dir: string, launchedMs: number): number {
  const p = readJson(path.join(dir, 'profile_export.json'));
  const a = p.run.wall_anchor;
  // Integers past 2^53 lose a few ns as doubles: nothing at this scale.
  const startUnixMs = (a.unix_ns + (p.phases.profiling.start_ns - a.monotonic_ns)) / 1e6;
  return (startUnixMs - launchedMs) / 1000;
}

/** A --start-at lead for `n` processes started at once: `minS`, or more on a host as slow as `oneS` shows. */
export function leadFor(n: number, oneS: number, minS: number): number {
  return Math.max(minS, Math.ceil(2 * n * oneS + 5));
}

// Statistics settings of a run: confidence intervals (--confidence), whose metric definitions
// (--convention) and repeated runs (--num-profile-runs, --profile-run-cooldown-seconds).
// Parsed from the flags once; bad values are InvalidArgumentError (one line, exit code 2).
import { badFlag as bad } from '../errors.js';
import { parseConfidence } from '../metrics/core/confidence.js';
import { CONVENTION_CHOICES, DEFAULT_CONVENTION, type ConventionChoice } from '../metrics/conventions.js';

export const MAX_PROFILE_RUNS = 10;

export interface StatisticsFlags {
  confidence?: string | number;
  convention?: string;
  'num-profile-runs'?: number;
  'profile-run-cooldown-seconds'?: number;
}

export interface StatisticsSettings {
  /** Level of the distributions' confidence intervals (default 0.95); null: --confidence none. */
  readonly confidence: number | null;
  /** Whose definitions the metrics follow; `all` adds the side-by-side comparison. */
  readonly convention: ConventionChoice;
  /** Profiling runs (1–10); above 1, each run's exports go to run_<i>/ and aggregate/ holds their statistics. */
  readonly num_profile_runs: number;
  /** Pause between repeated runs, seconds. */
  readonly profile_run_cooldown_s: number;
}

/** `sweep`: the run is a sweep, which repeated runs do not combine with. */
export function parseStatisticsFlags(f: StatisticsFlags, sweep = false): StatisticsSettings {
  const convention = f.convention ?? DEFAULT_CONVENTION;
  if (!CONVENTION_CHOICES.includes(convention as ConventionChoice)) {
    bad('convention', `expected one of ${CONVENTION_CHOICES.join(', ')}, got ${JSON.stringify(convention)}`);
  }
  const runs = f['num-profile-runs'] ?? 1;
  if (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 1 || runs > MAX_PROFILE_RUNS) {
    bad('num-profile-runs', `expected an integer from 1 to ${MAX_PROFILE_RUNS}, got ${String(runs)}`);
  }
  if (runs > 1 && sweep) bad('num-profile-runs', 'cannot be combined with a sweep (--profile sweep or a list of rates or concurrencies)');
  const cooldown = f['profile-run-cooldown-seconds'] ?? 0;
  if (typeof cooldown !== 'number' || !Number.isFinite(cooldown) || cooldown < 0) {
    bad('profile-run-cooldown-seconds', `expected a number of seconds ≥ 0, got ${String(cooldown)}`);
  }
  return {
    confidence: parseConfidence(f.confidence),
    convention: convention as ConventionChoice,
    num_profile_runs: runs,
    profile_run_cooldown_s: cooldown,
  };
}

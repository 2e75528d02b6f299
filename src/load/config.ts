// The scheduling part of the run config: load mode, arrival pattern, ramps, phases, grace,
// cancellation, fixed-schedule replay and sweeps. Parsed from the `profile` flags here, so the
// rules (and the conflicts between flags) live in one place; config/validate.ts calls parseLoadFlags.
import { badFlag as bad, flagConflict as conflict } from '../errors.js';
import { parseStagesFlags, type StagesConfig, type StagesFlags } from './stages-config.js';
import { stagesPeak } from './stages.js';

export type ArrivalPattern = 'constant' | 'poisson' | 'gamma';
export const ARRIVAL_PATTERNS: readonly ArrivalPattern[] = ['constant', 'poisson', 'gamma'];

export type SweepConfig =
  /** --profile sweep: synchronous, throughput, then size − 2 rates between the two measured rates. */
  | { kind: 'auto'; size: number }
  /** --concurrency 1,4,16: one closed-loop point per value. */
  | { kind: 'concurrency'; values: number[] }
  /** --request-rate 10,20,40: one open-loop point per value. */
  | { kind: 'rate'; values: number[] };

export interface LoadConfig {
  /** --request-rate (single run): open-loop rate in requests/s; null: closed loop or fixed schedule. */
  readonly request_rate: number | null;
  /**
   * A single --concurrency value as given (null when absent or a list): under --request-rate, a
   * fixed schedule or a sweep's rate points it caps requests in flight (closed loop reads
   * RunConfig.concurrency instead).
   */
  readonly concurrency_cap: number | null;
  readonly arrival_pattern: ArrivalPattern;
  /** Gamma shape k: inter-arrival CV is 1/sqrt(k) (1 = poisson, larger = smoother). */
  readonly arrival_smoothness: number;
  readonly request_rate_ramp_s: number | null;
  readonly concurrency_ramp_s: number | null;
  readonly warmup_duration_s: number | null;
  readonly warmup_concurrency: number | null;
  readonly warmup_request_rate: number | null;
  /** Load kept on after the measured part, its requests left out of the metrics. */
  readonly cooldown_duration_s: number | null;
  /** Wait for in-flight requests after the duration (or Ctrl-C) before cancelling them; null = no limit ('inf'). */
  readonly grace_period_s: number | null;
  /** Share of requests cancelled on purpose, in [0, 1], chosen with the run's seed. */
  readonly cancellation_rate: number;
  readonly cancellation_delay_s: number;
  /** true: --fixed-schedule; false: --no-fixed-schedule; null: on when the dataset has timestamps. */
  readonly fixed_schedule: boolean | null;
  readonly fixed_schedule_start_offset_ms: number | null;
  readonly fixed_schedule_end_offset_ms: number | null;
  readonly fixed_schedule_auto_offset: boolean;
  readonly sweep: SweepConfig | null;
  readonly sweep_stop_on_slo: boolean;
  readonly slo_attainment_fraction: number | null;
  /** --stages: a piecewise-linear rate or concurrency over time (load/stages.ts); null: none. */
  readonly stages: StagesConfig | null;
}

/** The flags this module reads, as yargs hands them over. */
export interface LoadFlags extends StagesFlags {
  concurrency?: number | string | (number | string)[];
  'request-rate'?: number | string | (number | string)[];
  'arrival-pattern'?: string;
  'arrival-smoothness'?: number;
  'request-rate-ramp-duration'?: number;
  'concurrency-ramp-duration'?: number;
  'warmup-request-count'?: number;
  'warmup-duration'?: number;
  'warmup-concurrency'?: number;
  'warmup-request-rate'?: number;
  'cooldown-duration'?: number;
  'benchmark-duration'?: number;
  'benchmark-grace-period'?: number | string;
  'request-cancellation-rate'?: number;
  'request-cancellation-delay'?: number;
  'fixed-schedule'?: boolean;
  'fixed-schedule-start-offset'?: number;
  'fixed-schedule-end-offset'?: number;
  'fixed-schedule-auto-offset'?: boolean;
  profile?: string;
  'sweep-size'?: number;
  'sweep-stop-on-slo'?: boolean;
  'slo-attainment-fraction'?: number;
  /** --search (load/search-flags.ts): max-rate drives the rate like a rate sweep. */
  search?: string;
}

export const LOAD_DEFAULTS = {
  arrival_pattern: 'poisson' as ArrivalPattern,
  arrival_smoothness: 1,
  grace_period_s: 30,
  sweep_size: 10,
  /** Closed-loop concurrency of a sweep's throughput point when --concurrency is not given. */
  sweep_throughput_concurrency: 256,
};

/** A finite number (yargs gives NaN for a non-numeric value of a number flag). */
function num(flag: string, v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) bad(flag, `expected a number, got ${String(v)}`);
  return n;
}

function positive(flag: string, v: unknown): number {
  const n = num(flag, v);
  if (n <= 0) bad(flag, `must be greater than 0, got ${n}`);
  return n;
}

function nonNegative(flag: string, v: unknown): number {
  const n = num(flag, v);
  if (n < 0) bad(flag, `must be at least 0, got ${n}`);
  return n;
}

function positiveInt(flag: string, v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || !Number.isInteger(n)) bad(flag, `expected an integer, got ${String(v)}`);
  if (n < 1) bad(flag, `must be at least 1, got ${n}`);
  return n;
}

/**
 * The most requests in flight a run may ask for: far beyond one client's sockets (file descriptors),
 * and within what the native engine and undici's pool can address, so that a typo (1e12) is bad input, not a crash.
 */
export const MAX_CONCURRENCY = 1_000_000;

function concurrencyValue(flag: string, v: unknown): number {
  const n = positiveInt(flag, v);
  if (n > MAX_CONCURRENCY) bad(flag, `must be at most ${MAX_CONCURRENCY}, got ${n}`);
  return n;
}

const opt = <T>(v: unknown, parse: (v: unknown) => T): T | null => (v === undefined ? null : parse(v));

/** `4`, `"4"`, `"1,4,16"` or a repeated flag → a list of values, each checked by `parse`. */
export function parseList(flag: string, v: number | string | (number | string)[], parse: (flag: string, v: unknown) => number): number[] {
  const items = (Array.isArray(v) ? v : [v]).flatMap((x): (number | string)[] => (typeof x === 'string' ? x.split(',') : [x]));
  if (items.length === 0 || items.some((x) => typeof x === 'string' && x.trim() === ''))
    bad(flag, `expected a number or a comma-separated list, got ${JSON.stringify(v)}`);
  return items.map((x) => parse(flag, typeof x === 'string' ? x.trim() : x));
}

/** 'inf' → null (no limit); otherwise finite seconds >= 0 (a non-finite number, 1e309 too, is bad input). */
export function parseGrace(v: number | string | undefined): number | null {
  if (v === undefined) return LOAD_DEFAULTS.grace_period_s;
  if (typeof v === 'string' && /^\s*inf\s*$/i.test(v)) return null;
  return nonNegative('benchmark-grace-period', v);
}

/** Parses and cross-checks the scheduling flags; throws InvalidArgumentError naming the flag(s). */
export function parseLoadFlags(f: LoadFlags): { load: LoadConfig; concurrency: number | null } {
  const concList = f.concurrency === undefined ? null : parseList('concurrency', f.concurrency, concurrencyValue);
  const rateList = f['request-rate'] === undefined ? null : parseList('request-rate', f['request-rate'], positive);
  if (f.profile !== undefined && f.profile !== 'sweep') bad('profile', `expected sweep, got ${JSON.stringify(f.profile)}`);
  const autoSweep = f.profile === 'sweep';

  // Sweeps: the GuideLLM sweep, or a list of concurrencies or rates.
  let sweep: SweepConfig | null = null;
  if (f['sweep-size'] !== undefined && !autoSweep) conflict('sweep-size', 'profile sweep', 'needs');
  if (autoSweep) {
    if (rateList) conflict('profile sweep', 'request-rate', 'picks its own rates; it cannot be combined with');
    if (concList && concList.length > 1) conflict('profile sweep', 'concurrency', 'cannot be combined with a list');
    const size = f['sweep-size'] === undefined ? LOAD_DEFAULTS.sweep_size : positiveInt('sweep-size', f['sweep-size']);
    if (size < 2) bad('sweep-size', `must be at least 2 (a synchronous and a throughput run), got ${size}`);
    sweep = { kind: 'auto', size };
  } else if (concList && concList.length > 1 && rateList && rateList.length > 1) {
    conflict('concurrency', 'request-rate', 'a list cannot be combined with a list');
  } else if (concList && concList.length > 1) {
    if (rateList) conflict('concurrency', 'request-rate', 'a list cannot be combined with');
    sweep = { kind: 'concurrency', values: concList };
  } else if (rateList && rateList.length > 1) {
    sweep = { kind: 'rate', values: rateList };
  }

  const rate = rateList && rateList.length === 1 ? rateList[0] : null;
  const concurrency = concList && concList.length === 1 ? concList[0] : concList ? concList[0] : null;
  // A single --concurrency caps in-flight requests under a rate, a fixed schedule or a sweep's rate points.
  const concurrency_cap = concList && concList.length === 1 ? concList[0] : null;

  // Fixed-schedule replay.
  const fixed = f['fixed-schedule'] ?? null;
  const startOff = opt(f['fixed-schedule-start-offset'], (v) => nonNegative('fixed-schedule-start-offset', v));
  const endOff = opt(f['fixed-schedule-end-offset'], (v) => nonNegative('fixed-schedule-end-offset', v));
  const autoOff = f['fixed-schedule-auto-offset'] ?? false;
  if (fixed === true && rateList) conflict('fixed-schedule', 'request-rate');
  if (fixed === true && sweep)
    conflict(
      'fixed-schedule',
      sweep.kind === 'auto' ? 'profile sweep' : sweep.kind === 'rate' ? 'request-rate' : 'concurrency',
      'cannot be combined with a sweep of',
    );
  if (fixed === false) {
    if (startOff !== null) conflict('fixed-schedule-start-offset', 'no-fixed-schedule');
    if (endOff !== null) conflict('fixed-schedule-end-offset', 'no-fixed-schedule');
    if (autoOff) conflict('fixed-schedule-auto-offset', 'no-fixed-schedule');
  }
  if (autoOff && startOff !== null) conflict('fixed-schedule-auto-offset', 'fixed-schedule-start-offset');
  if (startOff !== null && endOff !== null && endOff < startOff) {
    bad('fixed-schedule-end-offset', `must not be below --fixed-schedule-start-offset (${endOff} < ${startOff})`);
  }

  // Arrival pattern: a smoothness alone picks gamma (as vLLM's --burstiness does).
  const smooth = opt(f['arrival-smoothness'], (v) => positive('arrival-smoothness', v));
  let pattern: ArrivalPattern = LOAD_DEFAULTS.arrival_pattern;
  if (f['arrival-pattern'] !== undefined) {
    if (!ARRIVAL_PATTERNS.includes(f['arrival-pattern'] as ArrivalPattern)) {
      bad('arrival-pattern', `expected one of ${ARRIVAL_PATTERNS.join(', ')}, got ${JSON.stringify(f['arrival-pattern'])}`);
    }
    pattern = f['arrival-pattern'] as ArrivalPattern;
    if (smooth !== null && pattern !== 'gamma')
      conflict('arrival-smoothness', `arrival-pattern ${pattern}`, 'only shapes gamma; it cannot be combined with');
  } else if (smooth !== null) {
    pattern = 'gamma';
  }
  const stages = parseStagesFlags(f);
  const rateDriven =
    rate !== null || sweep?.kind === 'rate' || sweep?.kind === 'auto' || f.search === 'max-rate' || stages?.target === 'rate';
  if (!rateDriven) {
    if (f['arrival-pattern'] !== undefined) conflict('arrival-pattern', 'request-rate', 'needs');
    if (smooth !== null) conflict('arrival-smoothness', 'request-rate', 'needs');
  }
  const rateRamp = opt(f['request-rate-ramp-duration'], (v) => positive('request-rate-ramp-duration', v));
  if (rateRamp !== null && !rateDriven) conflict('request-rate-ramp-duration', 'request-rate', 'needs');
  const concRamp = opt(f['concurrency-ramp-duration'], (v) => positive('concurrency-ramp-duration', v));
  if (concRamp !== null && rate !== null && concurrency_cap === null)
    conflict('concurrency-ramp-duration', 'concurrency', 'with --request-rate needs');

  // Warmup, cooldown, grace.
  const warmupCount = f['warmup-request-count'];
  const warmupDur = opt(f['warmup-duration'], (v) => positive('warmup-duration', v));
  const warmupConc = opt(f['warmup-concurrency'], (v) => concurrencyValue('warmup-concurrency', v));
  const warmupRate = opt(f['warmup-request-rate'], (v) => positive('warmup-request-rate', v));
  const hasWarmup = (warmupCount !== undefined && warmupCount > 0) || warmupDur !== null;
  if (!hasWarmup && warmupConc !== null) conflict('warmup-concurrency', 'warmup-request-count or --warmup-duration', 'needs');
  if (!hasWarmup && warmupRate !== null) conflict('warmup-request-rate', 'warmup-request-count or --warmup-duration', 'needs');
  const cooldown = opt(f['cooldown-duration'], (v) => positive('cooldown-duration', v));
  const grace = parseGrace(f['benchmark-grace-period']);

  // Deliberate cancellation.
  const cancelRate = opt(f['request-cancellation-rate'], (v) => num('request-cancellation-rate', v)) ?? 0;
  if (cancelRate < 0 || cancelRate > 1) bad('request-cancellation-rate', `must be in [0, 1], got ${cancelRate}`);
  const cancelDelay = opt(f['request-cancellation-delay'], (v) => nonNegative('request-cancellation-delay', v));
  if (cancelDelay !== null && f['request-cancellation-rate'] === undefined)
    conflict('request-cancellation-delay', 'request-cancellation-rate', 'needs');

  // Stopping a sweep at the SLO knee.
  const stopOnSlo = f['sweep-stop-on-slo'] ?? false;
  const fraction = opt(f['slo-attainment-fraction'], (v) => num('slo-attainment-fraction', v));
  if (fraction !== null && (fraction <= 0 || fraction > 1)) bad('slo-attainment-fraction', `must be in (0, 1], got ${fraction}`);
  if (stopOnSlo && sweep === null) conflict('sweep-stop-on-slo', 'profile sweep or a list --concurrency/--request-rate', 'needs');
  if (stopOnSlo && fraction === null) conflict('sweep-stop-on-slo', 'slo-attainment-fraction', 'needs');

  return {
    concurrency: stages?.target === 'concurrency' ? stagesPeak(stages.stages) : concurrency,
    load: Object.freeze({
      request_rate: rate,
      concurrency_cap,
      arrival_pattern: pattern,
      arrival_smoothness: smooth ?? LOAD_DEFAULTS.arrival_smoothness,
      request_rate_ramp_s: rateRamp,
      concurrency_ramp_s: concRamp,
      warmup_duration_s: warmupDur,
      warmup_concurrency: warmupConc,
      warmup_request_rate: warmupRate,
      cooldown_duration_s: cooldown,
      grace_period_s: grace,
      cancellation_rate: cancelRate,
      cancellation_delay_s: cancelDelay ?? 0,
      fixed_schedule: fixed,
      fixed_schedule_start_offset_ms: startOff,
      fixed_schedule_end_offset_ms: endOff,
      fixed_schedule_auto_offset: autoOff,
      sweep,
      sweep_stop_on_slo: stopOnSlo,
      slo_attainment_fraction: fraction,
      stages,
    }),
  };
}

// The scheduling flags of `servebench profile` (rates, ramps, phases, replay, sweeps); parsed and
// cross-checked by load/config.ts. Numbers that may be lists or 'inf' are strings here.
import type { Options } from 'yargs';
import { LOAD_DEFAULTS } from '../load/config.js';

const G_LOAD = 'Load:';
const G_PHASES = 'Phases:';
const G_REPLAY = 'Trace replay:';
const G_SWEEP = 'Sweep:';

export const loadOptions: Record<string, Options> = {
  'request-rate': {
    type: 'string',
    group: G_LOAD,
    describe: 'open loop: requests per second (a list 10,20,40 sweeps); with --concurrency, that many in flight at most',
  },
  'arrival-pattern': {
    type: 'string',
    group: G_LOAD,
    describe: `inter-arrival times with --request-rate: constant | poisson | gamma (default ${LOAD_DEFAULTS.arrival_pattern})`,
  },
  'arrival-smoothness': {
    type: 'number',
    alias: 'burstiness',
    group: G_LOAD,
    describe: 'gamma shape: inter-arrival CV is 1/sqrt(value) (1 = poisson, higher = smoother); alone it selects gamma',
  },
  'request-rate-ramp-duration': { type: 'number', group: G_LOAD, describe: 'ramp the rate linearly from 0 over this many seconds' },
  'concurrency-ramp-duration': {
    type: 'number',
    group: G_LOAD,
    describe: 'ramp the concurrency (or the cap) linearly from 1 over this many seconds',
  },
  stages: {
    type: 'string',
    group: G_LOAD,
    describe:
      'k6 stages "30s:10,60s:50,30s:0": the target ramps linearly from the previous one (0 at first) to each over its duration; sets the duration (see docs/load.md, Stages)',
  },
  'stages-target': {
    type: 'string',
    choices: ['rate', 'concurrency'],
    group: G_LOAD,
    describe:
      'what --stages sets: rate (open loop, req/s, as --request-rate; --concurrency caps it) or concurrency (closed loop) (default rate)',
  },
  'benchmark-grace-period': {
    type: 'string',
    group: G_LOAD,
    describe: `after --benchmark-duration (or Ctrl-C), wait this many seconds for in-flight requests, then cancel them; inf: no limit (default ${LOAD_DEFAULTS.grace_period_s})`,
  },
  'request-cancellation-rate': {
    type: 'number',
    group: G_LOAD,
    describe: 'cancel this share (0–1) of requests on purpose, chosen with --random-seed',
  },
  'request-cancellation-delay': {
    type: 'number',
    group: G_LOAD,
    describe: 'seconds after sending that a chosen request is cancelled (default 0)',
  },

  'warmup-duration': {
    type: 'number',
    group: G_PHASES,
    describe: 'warm up for this many seconds (with or instead of --warmup-request-count)',
  },
  'warmup-concurrency': {
    type: 'number',
    group: G_PHASES,
    describe: 'warmup in closed loop at this concurrency (default: the profiling load)',
  },
  'warmup-request-rate': { type: 'number', group: G_PHASES, describe: 'warmup in open loop at this rate (default: the profiling load)' },
  'cooldown-duration': {
    type: 'number',
    group: G_PHASES,
    describe: 'keep the load on this many seconds after the measured part; those requests are not measured',
  },

  'fixed-schedule': {
    type: 'boolean',
    group: G_REPLAY,
    default: undefined,
    describe: 'replay the dataset at its timestamps (on by default when it has them); --no-fixed-schedule keeps the load mode',
  },
  'fixed-schedule-start-offset': {
    type: 'number',
    group: G_REPLAY,
    describe: 'trace time (ms) to start from; earlier entries are skipped',
  },
  'fixed-schedule-end-offset': { type: 'number', group: G_REPLAY, describe: 'trace time (ms) to end at; later entries are skipped' },
  'fixed-schedule-auto-offset': { type: 'boolean', group: G_REPLAY, describe: 'start the replay at the first timestamp of the trace' },

  profile: { type: 'string', group: G_SWEEP, describe: 'sweep: a synchronous run, a throughput run, then rates between them (GuideLLM)' },
  'sweep-size': {
    type: 'number',
    group: G_SWEEP,
    describe: `points of --profile sweep, the two measuring runs included (default ${LOAD_DEFAULTS.sweep_size})`,
  },
  'sweep-stop-on-slo': {
    type: 'boolean',
    group: G_SWEEP,
    describe: 'stop the sweep at the first point whose good-request fraction is below --slo-attainment-fraction',
  },
  'slo-attainment-fraction': { type: 'number', group: G_SWEEP, describe: 'share (0–1] of requests that must meet the --goodput SLOs' },
};

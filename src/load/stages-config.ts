// --stages and --stages-target: parsed and checked against the other load flags (load/config.ts
// calls parseStagesFlags). The stages set the run's duration and its load, so the flags that set
// either are conflicts; --concurrency under a rate target caps what is in flight, as with --request-rate.
import { InvalidArgumentError } from '../errors.js';
import { parseStages, STAGE_QUANTITIES, type Stage, type StageQuantity } from './stages.js';

export interface StagesConfig {
  readonly target: StageQuantity;
  readonly stages: readonly Stage[];
}

export interface StagesFlags {
  stages?: string;
  'stages-target'?: string;
}

const conflict = (a: string, b: string, why: string): never => {
  throw new InvalidArgumentError(`--${a}: ${why} --${b}`);
};

/** The other load flags it checks against (a subset of LoadFlags, named here so config.ts need not be imported). */
type OtherFlags = Partial<
  Record<
    | 'request-rate'
    | 'profile'
    | 'concurrency'
    | 'benchmark-duration'
    | 'request-rate-ramp-duration'
    | 'concurrency-ramp-duration'
    | 'cooldown-duration'
    | 'fixed-schedule',
    unknown
  >
>;

export function parseStagesFlags(f: OtherFlags & StagesFlags): StagesConfig | null {
  if (f.stages === undefined) {
    if (f['stages-target'] !== undefined) conflict('stages-target', 'stages', 'needs');
    return null;
  }
  const target = (f['stages-target'] ?? 'rate') as StageQuantity;
  if (!STAGE_QUANTITIES.includes(target))
    throw new InvalidArgumentError(
      `--stages-target: expected one of ${STAGE_QUANTITIES.join(', ')}, got ${JSON.stringify(f['stages-target'])}`,
    );
  const stages = parseStages(String(f.stages), target);
  const sets = 'sets the load over time; it cannot be combined with';
  if (f['request-rate'] !== undefined) conflict('stages', 'request-rate', sets);
  if (f.profile !== undefined) conflict('stages', 'profile', sets);
  if (f.concurrency !== undefined && (target === 'concurrency' || /,/.test(String(f.concurrency)) || Array.isArray(f.concurrency)))
    conflict(
      'stages',
      'concurrency',
      target === 'concurrency' ? `${sets} (under --stages-target rate it caps in-flight requests)` : sets + ' a list',
    );
  if (f['benchmark-duration'] !== undefined)
    conflict('stages', 'benchmark-duration', "set the run's duration (the stages' sum); it cannot be combined with");
  if (f['request-rate-ramp-duration'] !== undefined) conflict('stages', 'request-rate-ramp-duration', sets);
  if (f['concurrency-ramp-duration'] !== undefined) conflict('stages', 'concurrency-ramp-duration', sets);
  if (f['cooldown-duration'] !== undefined)
    conflict('stages', 'cooldown-duration', 'end the run with their last stage (add a stage for a cooldown); it cannot be combined with');
  if (f['fixed-schedule'] === true) conflict('stages', 'fixed-schedule', sets);
  return { target, stages };
}

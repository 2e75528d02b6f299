// --stages: what each stage achieved (../stage-report.ts): the `stages` section and its table.
import type { StagesConfig } from '../../../load/stages-config.js';
import type { OutputReport, RunFinish, RunOutput } from '../output.js';
import { renderStages, stageResults } from '../stage-report.js';
import type { TimedRecords } from './timed.js';

export class StagesOutput implements RunOutput {
  readonly name = 'stages';

  constructor(
    private readonly stages: StagesConfig,
    private readonly timed: TimedRecords,
  ) {}

  finish(run: RunFinish): OutputReport | void {
    const p = run.result.profiling;
    if (!p) return;
    const stages = stageResults(this.stages.target, this.stages.stages, p.start_ns, this.timed.records);
    return { section: { stages }, console: renderStages(stages, run.color) };
  }
}

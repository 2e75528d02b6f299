// --shard with --start-at: the `shard` section (the common start, the clock estimate, how late this
// shard started; ../shard-start.ts), and a warning when it started late.
import type { ShardConfig } from '../../../config/shard.js';
import type { WallAnchor } from '../../../export/json.js';
import { shardSection, type ClockEstimate } from '../shard-start.js';
import type { OutputReport, RunFinish, RunOutput } from '../output.js';

export class ShardOutput implements RunOutput {
  readonly name = 'shard';

  constructor(
    private readonly shard: ShardConfig,
    private readonly clock: ClockEstimate,
    private readonly anchor: WallAnchor,
    private readonly log: (msg: string) => void,
  ) {}

  finish(run: RunFinish): OutputReport {
    const s = shardSection(this.shard, this.anchor, run.result.profiling?.start_ns ?? null, this.clock);
    if (s.late) this.log(`warning: shard ${s.index} started profiling ${s.late_ms!.toFixed(0)} ms after --start-at ${s.start_at}`);
    return { section: { shard: s } };
  }
}

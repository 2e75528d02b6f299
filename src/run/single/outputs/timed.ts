// The few numbers per profiling record that --stages and --slice-duration tabulate (timeslices/
// SliceRecord), kept once for both; nothing is kept without either flag.
import type { RunConfig } from '../../../config/types.js';
import type { ProcessedRecord } from '../../../model/processed-record.js';
import { sliceRecord, type SliceRecord } from '../../../timeslices/slices.js';
import type { RunOutput } from '../output.js';

export class TimedRecords implements RunOutput {
  readonly name = 'timed_records';
  readonly records: SliceRecord[] = [];

  /** Null unless --stages or --slice-duration needs them. */
  static of(cfg: RunConfig): TimedRecords | null {
    return cfg.load.stages || cfg.slice_duration_s !== null ? new TimedRecords() : null;
  }

  recordsSettled(batch: readonly ProcessedRecord[]): void {
    for (const r of batch) if (r.raw.credit.phase === 'profiling') this.records.push(sliceRecord(r));
  }
}

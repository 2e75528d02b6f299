// The run's summary: every final record, warmup and cooldown included (the accumulator keeps the
// profiling phase's), into one SummaryAccumulator; runOnce finishes it once the other outputs gave
// what it needs (summaryEnd). The run keeps no records.
import { SummaryAccumulator, type SummarizeOptions, type SummaryEnd } from '../../../metrics/accumulate.js';
import type { MetricsSummary } from '../../../metrics/core/summary.js';
import type { ProcessedRecord } from '../../../model/processed-record.js';
import type { RecordError } from '../../../model/raw-record.js';
import type { RunOutput } from '../output.js';

export class SummaryOutput implements RunOutput {
  readonly name = 'summary';
  private readonly acc: SummaryAccumulator;

  constructor(opts: SummarizeOptions) {
    this.acc = new SummaryAccumulator(opts);
  }

  recordsSettled(batch: readonly ProcessedRecord[]): void {
    for (const r of batch) this.acc.add(r);
  }

  summarize(end: SummaryEnd): MetricsSummary {
    return this.acc.finish(end);
  }
}

/** The first profiling record's error, for the line a run whose every request failed ends with. */
export class FirstErrorOutput implements RunOutput {
  readonly name = 'first_error';
  first: RecordError | null = null;

  recordsSettled(batch: readonly ProcessedRecord[]): void {
    if (this.first !== null) return;
    for (const r of batch) {
      if (r.raw.credit.phase === 'profiling' && r.error) {
        this.first = r.error;
        return;
      }
    }
  }
}

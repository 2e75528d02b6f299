// Per URL and per model, beside the totals, when the run had more than one of either
// (export/breakdown.ts): the `breakdown` section and its console table.
import type { RunConfig } from '../../../config/types.js';
import { BreakdownBuilder } from '../../../export/breakdown.js';
import type { ProcessedRecord } from '../../../model/processed-record.js';
import type { OutputReport, RunFinish, RunOutput } from '../output.js';

export class BreakdownOutput implements RunOutput {
  readonly name = 'breakdown';

  private constructor(private readonly builder: BreakdownBuilder) {}

  /** Null when the run has one URL and one model (nothing to break down). */
  static of(cfg: RunConfig): BreakdownOutput | null {
    const keys = (['url', 'model'] as const).filter((k) => (k === 'url' ? cfg.targets.urls : cfg.targets.models).length > 1);
    if (keys.length === 0) return null;
    return new BreakdownOutput(new BreakdownBuilder({ significantDigits: cfg.histogram_significant_digits }, keys));
  }

  recordsSettled(batch: readonly ProcessedRecord[]): void {
    for (const r of batch) this.builder.add(r);
  }

  finish(run: RunFinish): OutputReport | void {
    const b = this.builder.build(run.color);
    if (b) return { section: { breakdown: b.json }, console: b.console };
  }
}

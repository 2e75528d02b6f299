// One batch of prepared records as it crosses to a record worker and back, and the work done on it:
// count tokens, compute the per-record metrics, serialize the records.jsonl lines. Plain code, so
// the worker (run/record-worker.ts) and the main-thread fallback (run/record-pipeline.ts) run the same.
import type { ExportLevel } from '../config/types.js';
import { recordLine, type RecordLineInput, type UnitLookup } from '../export/records.js';
import { displayUnitOf } from '../metrics/catalogue.js';
import type { MetricRegistry } from '../metrics/core/registry.js';
import { completeRecord, countTexts, type CountTexts } from '../records/process.js';
import type { MetricRecord, MetricValue, ProcessedRecord } from '../records/types.js';

/** What a worker needs of one record: its metric input (chunk stamps included), texts, and line fields. */
export interface WorkItem {
  /** The metric input less its chunk stamps (token_ns), which travel as one column in `tokenNs`. */
  input: MetricRecord;
  /** token_ns as a typed column: one buffer to clone instead of a BigInt object per chunk. */
  tokenNs: BigInt64Array;
  texts: CountTexts;
  /** The record's fields that records.jsonl shows (payloads only at --export-level raw); null: no file. */
  line: Omit<RecordLineInput, 'metrics'> | null;
}

export interface BatchRequest {
  id: number;
  items: WorkItem[];
}

export interface ItemResult {
  /** Local counts: input, output, reasoning (null: not counted). */
  counts: [number | null, number | null, number | null];
  metrics: Map<string, MetricValue>;
  convention_metrics?: Map<string, Map<string, MetricValue>>;
}

export interface BatchResult {
  id: number;
  /** One per item, in order; a string where processing that item threw (the reason). */
  results: (ItemResult | string)[];
  /** The batch's records.jsonl text: one line per item that succeeded, each with its newline. */
  text: string;
}

export interface BatchEnv {
  count: (text: string) => number;
  registry: MetricRegistry;
  compareWith?: ReadonlyMap<string, MetricRegistry>;
  level: ExportLevel | null;
  /** Display units for the lines; default: the catalogue's (as RecordsWriter's caller gives). */
  units?: UnitLookup;
}

/** Counts, metrics and lines of one batch. A failing item is reported, never the whole batch. */
export function processBatch(req: BatchRequest, env: BatchEnv): BatchResult {
  const units = env.units ?? displayUnitOf;
  const results: (ItemResult | string)[] = [];
  let text = '';
  for (const item of req.items) {
    try {
      const counts = countTexts(item.texts, env.count);
      // completeRecord works on a ProcessedRecord; only metric_input is read and metrics written.
      const rec = { metric_input: { ...item.input, token_ns: item.tokenNs }, metrics: new Map() } as unknown as ProcessedRecord;
      completeRecord(rec, counts, env.registry, env.compareWith);
      if (env.level !== null && item.line !== null) text += recordLine({ ...item.line, metrics: rec.metrics }, env.level, units) + '\n';
      results.push({
        counts: [counts.input, counts.output, counts.reasoning],
        metrics: rec.metrics,
        convention_metrics: rec.convention_metrics,
      });
    } catch (err) {
      results.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { id: req.id, results, text };
}

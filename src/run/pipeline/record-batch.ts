// One batch of prepared records as it crosses to a record worker and back, and the work done on it:
// count tokens, compute the per-record metrics, serialize the records.jsonl lines. Plain code, so
// the worker (run/pipeline/record-worker.ts) and the main-thread fallback (run/pipeline/record-pipeline.ts) run the same.
import type { ExportLevel } from '../../export/records.js';
import { recordLine, type RecordLineInput, type UnitLookup } from '../../export/records.js';
import { displayUnitOf } from '../../metrics/catalogue.js';
import type { MetricRegistry } from '../../metrics/core/registry.js';
import { completeRecord, countTexts, type CountTexts } from '../../records/process.js';
import type { MetricRecord, MetricValue, ProcessedRecord } from '../../model/processed-record.js';
import { MetricColumnsWriter, type MetricColumns } from './metric-columns.js';

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

/** What comes back for a batch: columns and a few plain values, cheap for the main thread to receive. */
export interface BatchResult {
  id: number;
  /** Local counts, three per item (input, output, reasoning); NaN: not counted. */
  counts: Float64Array;
  /** The items whose processing threw, with the reason; most batches have none. */
  failures: { index: number; message: string }[];
  /** --convention all: per item, the other conventions' values (null for a failed item); absent otherwise. */
  conventions?: (Map<string, Map<string, MetricValue>> | null)[];
  /** Each item's metrics (read as RecordMetrics); a failed item has none. */
  metrics: MetricColumns;
  /** The batch's records.jsonl text as UTF-8: one line per item that succeeded, each with its newline. */
  lines: Uint8Array;
}

/** The buffers of a result, to transfer rather than copy when it is posted. */
export function transferables(res: BatchResult): ArrayBuffer[] {
  const c = res.metrics;
  return [res.counts, res.lines, c.first, c.start, c.tag, c.listLength, c.values].map((a) => a.buffer as ArrayBuffer);
}

export interface BatchEnv {
  count: (text: string) => number;
  registry: MetricRegistry;
  compareWith?: ReadonlyMap<string, MetricRegistry>;
  level: ExportLevel | null;
  /** Display units for the lines; default: the catalogue's (as RecordsWriter's caller gives). */
  units?: UnitLookup;
}

/** Lines bytes per item of the last batch, to size the next batch's lines buffer in one allocation. */
let lineBytesPerItem = 0;

/**
 * Counts, metrics and lines of one batch. A failing item is reported, never the whole batch.
 * `spare`: a lines buffer already written out, handed back by the main thread, so the lines go into
 * memory that is paged in rather than a fresh buffer the kernel must zero page by page.
 */
export function processBatch(req: BatchRequest, env: BatchEnv, spare?: ArrayBuffer): BatchResult {
  const units = env.units ?? displayUnitOf;
  const counts = new Float64Array(req.items.length * 3).fill(NaN);
  const failures: BatchResult['failures'] = [];
  const conventions: (Map<string, Map<string, MetricValue>> | null)[] = [];
  const columns = new MetricColumnsWriter(req.items.length);
  const lines = new LineBuffer(spare, Math.ceil(req.items.length * lineBytesPerItem * 1.25));
  req.items.forEach((item, i) => {
    try {
      const c = countTexts(item.texts, env.count);
      // completeRecord works on a ProcessedRecord; only metric_input is read and metrics written.
      const rec = { metric_input: { ...item.input, token_ns: item.tokenNs }, metrics: new Map() } as unknown as ProcessedRecord;
      completeRecord(rec, c, env.registry, env.compareWith);
      if (env.level !== null && item.line !== null) lines.append(recordLine({ ...item.line, metrics: rec.metrics }, env.level, units));
      if (c.input !== null) counts[3 * i] = c.input;
      if (c.output !== null) counts[3 * i + 1] = c.output;
      if (c.reasoning !== null) counts[3 * i + 2] = c.reasoning;
      conventions.push(rec.convention_metrics ?? null);
      columns.add(rec.metrics);
    } catch (err) {
      failures.push({ index: i, message: err instanceof Error ? err.message : String(err) });
      conventions.push(null);
      columns.add(null);
    }
  });
  const bytes = lines.bytes();
  if (req.items.length > 0 && bytes.length > 0) lineBytesPerItem = bytes.length / req.items.length;
  const res: BatchResult = { id: req.id, counts, failures, metrics: columns.finish(), lines: bytes };
  if (env.compareWith) res.conventions = conventions;
  return res;
}

const encoder = new TextEncoder();
const NEWLINE = 10;
/** A new buffer's least size, when the batch's size is not yet known. */
const FIRST_CAPACITY = 64 * 1024;

/**
 * A batch's lines as UTF-8, each encoded straight into one buffer of its own (Buffer.from may share
 * a pool, which a transfer would detach). Built whole, the batch's text was a string of up to a
 * megabyte that was flattened and then encoded: two fresh large allocations per batch.
 */
export class LineBuffer {
  private buf: Uint8Array;
  private used = 0;

  /**
   * `spare`: memory to write into (a detached one counts as none). `expected`: bytes the lines will
   * likely take, so that a buffer made here is made once, at its size, rather than doubled up to it.
   */
  constructor(
    spare?: ArrayBuffer,
    private readonly expected = 0,
  ) {
    // No spare: nothing is allocated until a line comes (--export-level summary writes none).
    this.buf = spare !== undefined && spare.byteLength > 0 ? new Uint8Array(spare) : new Uint8Array(0);
  }

  /** One line and its newline. */
  append(line: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const need = this.used + line.length * 3 + 1;
    if (need > this.buf.length) {
      const first = this.used === 0 ? this.expected : 0;
      const grown = new Uint8Array(Math.max(need, first, this.buf.length * 2, FIRST_CAPACITY));
      grown.set(this.buf.subarray(0, this.used));
      this.buf = grown;
    }
    this.used += encoder.encodeInto(line, this.buf.subarray(this.used)).written;
    this.buf[this.used++] = NEWLINE;
  }

  /** The lines so far: a view of the buffer, which a transfer moves whole. */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.used);
  }
}

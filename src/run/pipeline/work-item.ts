// What the main thread sends and keeps of a finished record: the work item a record worker gets
// (run/pipeline/record-batch.ts WorkItem), and the record slimmed to what it needs while it waits.
import type { ExportLevel } from '../../export/records.js';
import type { PreparedRecord } from '../../records/process.js';
import type { ProcessedRecord } from '../../model/processed-record.js';
import type { WorkItem } from './record-batch.js';

/** A prepared record's work item; its line fields only with a file (`level`), payloads only at raw. */
export function workItem(p: PreparedRecord, level: ExportLevel | null): WorkItem {
  const rec = p.record;
  const raw = rec.raw;
  return {
    input: { ...rec.metric_input, token_ns: [] },
    // Copied before slim() drops them from the record: a typed column by one copy (its own compact
    // buffer, as a view may share a larger one), not a BigInt per stamp.
    tokenNs: tokenColumn(rec.metric_input.token_ns),
    texts: p.texts,
    line:
      level === null
        ? null
        : {
            raw: {
              // Only what the line shows: the prompt and history need not cross to the worker.
              credit: {
                x_request_id: raw.credit.x_request_id,
                index: raw.credit.index,
                phase: raw.credit.phase,
                credit_issued_ns: raw.credit.credit_issued_ns,
                targeted_start_ns: raw.credit.targeted_start_ns,
                turn: { max_tokens: raw.credit.turn.max_tokens },
                ...(raw.credit.target ? { target: raw.credit.target } : {}),
              },
              start_ns: raw.start_ns,
              end_ns: raw.end_ns,
              http_status: raw.http_status,
              bytes_sent: raw.bytes_sent,
              bytes_received: raw.bytes_received,
              streaming: raw.streaming,
              event_ns: level === 'raw' ? raw.event_ns : [],
              event_data: level === 'raw' ? raw.event_data : [],
              body: level === 'raw' ? raw.body : null,
              ...(level === 'raw' && raw.sent_ns ? { sent_ns: raw.sent_ns } : {}),
            },
            metric_input: { last_content_ns: rec.metric_input.last_content_ns },
            status: rec.status,
            error: rec.error,
            finish_reason: rec.finish_reason,
          },
  };
}

function tokenColumn(ns: bigint[] | BigInt64Array): BigInt64Array {
  return ns instanceof BigInt64Array ? ns.slice() : BigInt64Array.from(ns);
}

/**
 * One empty list for every slimmed record's payload and stamp lists (about 160 bytes per record
 * less while records wait for their batch). Frozen: nothing appends to a slimmed record.
 */
const NONE: never[] = Object.freeze([]) as unknown as never[];

/**
 * What the dispatch callback keeps of a record once it is handed over: no payloads, no chunk stamps,
 * no HTTP trace (its metrics are computed off this thread; the work item keeps it for a fallback).
 */
export function slim(rec: ProcessedRecord): void {
  rec.raw.event_data = NONE;
  rec.raw.event_type = NONE;
  rec.raw.event_ns = NONE;
  rec.raw.body = null;
  rec.raw.decoded = null;
  rec.raw.trace = null;
  rec.responses = NONE;
  delete rec.content;
  rec.metric_input.token_ns = NONE;
  rec.metric_input.trace = null;
}

const NO_STAMPS = new BigInt64Array(0);

/** A work item as fail() needs it: its output texts and stamps are gone (see RecordPipeline.flush). */
export function lean(item: WorkItem): void {
  item.tokenNs = NO_STAMPS;
  item.texts = { input: item.texts.input, output: null, reasoning: null };
}

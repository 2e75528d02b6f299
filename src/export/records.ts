// records.jsonl: one line per request, written as each request completes.

import { AppendFile } from './artifact-file.js';
import type { Credit } from '../model/credit.js';
import type { MetricRecord, ProcessedRecord } from '../model/processed-record.js';
import type { RawRecord } from '../model/raw-record.js';
import type { Turn } from '../model/turn.js';
import { scrub } from '../secrets.js';
import { scaledList, scaledNumber } from './record-numbers.js';

/** --export-level: summary (no records.jsonl), records, or raw (every payload too). */
export type ExportLevel = 'summary' | 'records' | 'raw';

/** tag → how to show a record value: display unit and the factor from the base unit. */
export type UnitLookup = (tag: string) => { unit: string; scale: number } | undefined;

/** How one metric is written: the text before its value, after it, and the factor to its display unit. */
interface MetricFormat {
  head: string;
  tail: string;
  scale: number;
}

/** Per lookup, each tag's format, built once: a line is written per record, the units never change. */
const formats = new WeakMap<UnitLookup, Map<string, MetricFormat>>();

function formatOf(units: UnitLookup, tag: string): MetricFormat {
  let byTag = formats.get(units);
  if (!byTag) formats.set(units, (byTag = new Map<string, MetricFormat>()));
  let f = byTag.get(tag);
  if (!f) {
    const u = units(tag);
    f = { head: `${JSON.stringify(tag)}:{"value":`, tail: `,"unit":${JSON.stringify(u?.unit ?? '')}}`, scale: u?.scale ?? 1 };
    byTag.set(tag, f);
  }
  return f;
}

/** What a line shows of a record (a ProcessedRecord is one); payloads and chunk stamps only at level raw. */
export interface RecordLineInput {
  raw: Pick<
    RawRecord,
    'start_ns' | 'end_ns' | 'http_status' | 'bytes_sent' | 'bytes_received' | 'streaming' | 'event_ns' | 'event_data' | 'body' | 'sent_ns'
  > & {
    credit: Pick<Credit, 'x_request_id' | 'index' | 'phase' | 'credit_issued_ns' | 'targeted_start_ns' | 'target'> & {
      turn: Pick<Turn, 'max_tokens'>;
    };
  };
  /** Where request_latency ends (the last content response); end_ns stays the last byte. */
  metric_input: Pick<MetricRecord, 'last_content_ns'>;
  status: ProcessedRecord['status'];
  error: ProcessedRecord['error'];
  finish_reason: ProcessedRecord['finish_reason'];
  metrics: ProcessedRecord['metrics'];
}

/**
 * The JSON text of one record line (no trailing newline). bigint stamps are written as exact integers.
 * The strings that come from outside (the error message, the payloads) are scrubbed of this thread's
 * secrets (src/secrets.ts): a server may echo the key.
 */
export function recordLine(rec: RecordLineInput, level: ExportLevel, units: UnitLookup): string {
  const raw = rec.raw;
  const c = raw.credit;
  let metrics = '';
  for (const [tag, value] of rec.metrics) {
    const f = formatOf(units, tag);
    const v = typeof value === 'number' ? scaledNumber(value, f.scale) : scaledList(value, f.scale);
    metrics += `${metrics === '' ? '' : ','}${f.head}${v}${f.tail}`;
  }
  const error = rec.error === null ? 'null' : JSON.stringify({ ...rec.error, message: scrub(rec.error.message) });
  let line =
    `{"x_request_id":${JSON.stringify(c.x_request_id)},"index":${c.index},"phase":"${c.phase}"` +
    `,"credit_issued_ns":${c.credit_issued_ns},"targeted_start_ns":${c.targeted_start_ns ?? 'null'}` +
    `,"start_ns":${raw.start_ns},"end_ns":${raw.end_ns},"last_content_ns":${rec.metric_input.last_content_ns ?? 'null'}` +
    `,"status":"${rec.status}","error":${error},"http_status":${raw.http_status ?? 'null'}` +
    `,"bytes_sent":${raw.bytes_sent},"bytes_received":${raw.bytes_received},"streaming":${raw.streaming}` +
    `,"max_tokens":${c.turn.max_tokens ?? 'null'}` +
    `,"finish_reason":${rec.finish_reason === null ? 'null' : JSON.stringify(scrub(rec.finish_reason))}`;
  // Several targets: which URL and model (the breakdown of export/breakdown.ts is rebuilt from these).
  const t = c.target;
  if (t !== undefined) line += `,"url":${JSON.stringify(scrub(t.url))},"model":${JSON.stringify(scrub(t.model))}`;
  line += `,"metrics":{${metrics}}`;
  if (level === 'raw') {
    line += `,"chunk_ns":[${raw.event_ns.join(',')}]`;
    // Realtime: each sent client event's stamp (the round-trip metrics' sent packets).
    if (raw.sent_ns) line += `,"sent_ns":[${raw.sent_ns.join(',')}]`;
    const payloads = raw.streaming ? raw.event_data : raw.body === null ? [] : [raw.body];
    line += `,"payloads":${JSON.stringify(payloads.map(scrub))}`;
  }
  return `${line}}`;
}

/** Appends record lines to a file as they come (synchronously: see AppendFile); a failed write is `file.error`. */
export class RecordsWriter {
  readonly file: AppendFile;
  count = 0;

  constructor(
    readonly path: string,
    private readonly level: ExportLevel,
    private readonly units: UnitLookup,
  ) {
    this.file = new AppendFile(path).open();
  }

  write(rec: ProcessedRecord): void {
    this.file.write(recordLine(rec, this.level, this.units) + '\n');
    this.count++;
  }

  /** Closes the file; rejects with the first failed write (ArtifactWriteError), if any. */
  close(): Promise<void> {
    this.file.close();
    return this.file.error ? Promise.reject(this.file.error) : Promise.resolve();
  }
}

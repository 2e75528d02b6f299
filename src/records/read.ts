// The one reader of records.jsonl (export/records.ts writes it). Two readings of the same lines:
// - ProcessedRecord[] (readRecordsFile, parseRecordLine): what `analyze` and `merge` recompute
//   reports from. Each line carries the stamps, the outcome and the per-record metric values
//   (display units); they are turned back into base units and into the MetricRecord fields the run
//   metrics read.
// - columns (readRecordColumns): what the report draws, read by fields where it can (below).
// Both go through one line splitter (forEachLine), which reads the file in chunks: a long run's
// file can outgrow any one string.
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InvalidFileError } from '../errors.js';
import type { MetricRegistry } from '../metrics/core/registry.js';
import { displayFactor } from '../metrics/core/units.js';
import type { MetricValue, ProcessedRecord } from '../model/processed-record.js';
import type { Phase } from '../model/phase.js';
import type { RecordError, RecordStatus } from '../model/raw-record.js';

const PHASES = new Set<Phase>(['warmup', 'profiling', 'cooldown'] as Phase[]);
const STATUSES = new Set<RecordStatus>(['ok', 'error', 'cancelled']);

/** Quote integer *_ns fields (and chunk_ns lists) so JSON.parse keeps every digit. */
function quoteStamps(line: string): string {
  return line.replace(/"(\w+_ns)":(-?\d+)/g, '"$1":"$2"').replace(
    /"chunk_ns":\[([-\d,\s]*)\]/,
    (_m, list: string) =>
      `"chunk_ns":[${list
        .split(',')
        .filter((x) => x.trim() !== '')
        .map((x) => `"${x.trim()}"`)
        .join(',')}]`,
  );
}

function stamp(v: unknown, field: string, where: string): bigint {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw new InvalidFileError(`${where}: ${field} must be an integer ns stamp`);
  return BigInt(v);
}

/** One line → record; throws InvalidFileError naming file:line. */
export function parseRecordLine(line: string, where: string, registry: MetricRegistry): ProcessedRecord {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(quoteStamps(line)) as Record<string, unknown>;
  } catch (err) {
    throw new InvalidFileError(`${where}: not JSON (${(err as Error).message})`);
  }
  if (o === null || typeof o !== 'object') throw new InvalidFileError(`${where}: not a JSON object`);
  const phase = o.phase as Phase;
  const status = o.status as RecordStatus;
  if (!PHASES.has(phase)) throw new InvalidFileError(`${where}: phase must be warmup, profiling or cooldown`);
  if (!STATUSES.has(status)) throw new InvalidFileError(`${where}: status must be ok, error or cancelled`);
  const start_ns = stamp(o.start_ns, 'start_ns', where);
  const end_ns = stamp(o.end_ns, 'end_ns', where);
  // Files written before the field existed measured request_latency to end_ns.
  const last_content_ns =
    o.last_content_ns === undefined ? end_ns : o.last_content_ns === null ? null : stamp(o.last_content_ns, 'last_content_ns', where);
  const credit_issued_ns = stamp(o.credit_issued_ns, 'credit_issued_ns', where);
  const targeted_start_ns =
    o.targeted_start_ns === null || o.targeted_start_ns === undefined ? null : stamp(o.targeted_start_ns, 'targeted_start_ns', where);
  const error = (o.error ?? null) as RecordError | null;
  // Files written before the field existed have none: null.
  const finish = o.finish_reason ?? null;
  if (finish !== null && typeof finish !== 'string') throw new InvalidFileError(`${where}: finish_reason must be a string or null`);

  const metrics = new Map<string, MetricValue>();
  const m = (o.metrics ?? {}) as Record<string, { value?: unknown }>;
  for (const [tag, entry] of Object.entries(m)) {
    const def = registry.getMetric(tag);
    if (!def || def.kind !== 'record') continue; // a tag this version does not know is ignored
    const scale = displayFactor(def.unit, def.display);
    const v = entry?.value;
    if (typeof v === 'number') metrics.set(tag, v / scale);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number'))
      metrics.set(
        tag,
        v.map((x) => x / scale),
      );
    else throw new InvalidFileError(`${where}: metrics.${tag}.value must be a number or a list of numbers`);
  }
  const num = (tag: string): number | null => {
    const v = metrics.get(tag);
    return typeof v === 'number' ? v : null;
  };
  const at = (tag: string): bigint | null => {
    const v = num(tag);
    return v === null ? null : start_ns + BigInt(Math.round(v));
  };
  const streaming = typeof o.streaming === 'boolean' ? o.streaming : metrics.has('time_to_first_token');
  const first = at('time_to_first_token');
  const chunk_ns = Array.isArray(o.chunk_ns) ? (o.chunk_ns as string[]).map((x) => BigInt(x)) : [];
  const isl = num('input_sequence_length');
  const maxTokens = typeof o.max_tokens === 'number' ? o.max_tokens : null;
  return {
    raw: {
      credit: {
        index: typeof o.index === 'number' ? o.index : 0,
        phase,
        x_request_id: String(o.x_request_id ?? ''),
        credit_issued_ns,
        targeted_start_ns,
        turn: { prompt: '', isl, max_tokens: maxTokens },
        ...(typeof o.url === 'string' && typeof o.model === 'string' ? { target: { url: o.url, model: o.model } } : {}),
      },
      start_ns,
      end_ns,
      http_status: typeof o.http_status === 'number' ? o.http_status : null,
      status,
      error,
      streaming,
      event_data: [],
      event_ns: chunk_ns,
      event_type: [],
      body: null,
      bytes_sent: typeof o.bytes_sent === 'number' ? o.bytes_sent : 0,
      bytes_received: typeof o.bytes_received === 'number' ? o.bytes_received : 0,
    },
    status,
    error,
    metric_input: {
      valid: status === 'ok',
      streaming,
      credit_issued_ns,
      start_ns,
      end_ns,
      // The first token is what the time-weighted curves need; later stamps are in the metric values.
      token_ns: first === null ? [] : [first],
      first_output_ns: at('time_to_first_output_token'),
      last_content_ns,
      input_tokens: isl,
      output_tokens: num('output_token_count'),
      reasoning_tokens: num('reasoning_token_count'),
      targeted_start_ns,
      requested_osl: maxTokens,
    },
    responses: [],
    usage: null,
    finish_reason: finish,
    metrics,
  };
}

/** Calls `take` with each line of `file` and its 1-based number (the last line may lack its newline). */
function forEachLine(fd: number, take: (line: string, n: number) => void): void {
  // 64 KiB chunks: each chunk's string stays in V8's young generation; at 1 MiB every chunk was a
  // large object in freshly mapped memory, twice over (decoded, then flattened for indexOf).
  const buf = Buffer.allocUnsafe(1 << 16);
  const decoder = new StringDecoder('utf8');
  // A line longer than a chunk waits in pieces, joined once its newline comes (never rescanned).
  let pieces: string[] = [];
  let n = 0;
  for (let got = fs.readSync(fd, buf); got > 0; got = fs.readSync(fd, buf)) {
    const text = decoder.write(buf.subarray(0, got));
    let nl = text.indexOf('\n');
    if (nl < 0) {
      pieces.push(text);
      continue;
    }
    pieces.push(text.slice(0, nl));
    take(pieces.length === 1 ? pieces[0] : pieces.join(''), ++n);
    let from = nl + 1;
    for (nl = text.indexOf('\n', from); nl >= 0; nl = text.indexOf('\n', from)) {
      take(text.slice(from, nl), ++n);
      from = nl + 1;
    }
    pieces = [text.slice(from)];
  }
  pieces.push(decoder.end());
  take(pieces.join(''), n + 1);
}

/** Opens records.jsonl; null when it is absent. */
function openRecords(file: string): number | null {
  try {
    return fs.openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InvalidFileError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Each non-blank line of a records.jsonl with its 1-based line number (`merge` shifts them); a missing file is InvalidFileError. */
export function forEachRecordLine(file: string, take: (line: string, n: number) => void): void {
  const fd = openRecords(file);
  if (fd === null) throw new InvalidFileError(`${file}: no such records file`);
  try {
    // A CRLF file's lines end in \r: whitespace to JSON.parse.
    forEachLine(fd, (line, n) => {
      if (line.trim() !== '') take(line, n);
    });
  } finally {
    fs.closeSync(fd);
  }
}

/** Every record of a records.jsonl; a missing or empty file, or a bad line (file:line), is InvalidFileError. */
export async function readRecordsFile(file: string, registry: MetricRegistry): Promise<ProcessedRecord[]> {
  const out: ProcessedRecord[] = [];
  forEachRecordLine(file, (line, n) => out.push(parseRecordLine(line, `${file}:${n}`, registry)));
  if (out.length === 0) throw new InvalidFileError(`${file}: no records`);
  return out;
}

// ---- records.jsonl as the columns the report draws. A line in the shape recordLine writes is read
// by its fields: its head by one anchored regex, and four metric values found by their keys (every
// string in a line is JSON-escaped, so a quoted key can only be structure; recordLine writes each
// once). That is about 4× cheaper than JSON.parse of a line whose inter-chunk latencies are a hundred
// numbers; any other line goes through JSON.parse. ----

/**
 * The records as columns, times in seconds from the profiling start (stamps lose no more than a
 * microsecond as doubles below ~100 days of uptime). Metric values in display units (ms, tokens).
 */
export interface RecordColumns {
  phase: string[];
  status: string[];
  errorType: (string | null)[];
  start_s: number[];
  end_s: number[];
  ttft_ms: (number | null)[];
  latency_ms: (number | null)[];
  output_tokens: (number | null)[];
  input_tokens: (number | null)[];
}

/** Columns with no record yet. */
export function emptyRecordColumns(): RecordColumns {
  return { phase: [], status: [], errorType: [], start_s: [], end_s: [], ttft_ms: [], latency_ms: [], output_tokens: [], input_tokens: [] };
}

const INT = '(-?\\d+)';
const OPT_INT = '(?:-?\\d+|null)';
/** recordLine's fields up to the error's type, in its order (x_request_id is any JSON string). */
const HEAD = new RegExp(
  `^\\{"x_request_id":"(?:[^"\\\\]|\\\\.)*","index":\\d+,"phase":"(\\w+)","credit_issued_ns":${INT},"targeted_start_ns":${OPT_INT},` +
    `"start_ns":${INT},"end_ns":${INT},"last_content_ns":${OPT_INT},"status":"(\\w+)","error":(?:null|\\{"type":"(\\w+)")`,
);
/** A JSON number (or null) right after a metric's `{"value":`. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|null/y;

const METRICS = {
  ttft_ms: '"time_to_first_token":{"value":',
  latency_ms: '"request_latency":{"value":',
  output_tokens: '"output_token_count":{"value":',
  input_tokens: '"input_sequence_length":{"value":',
} as const;

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

const METRICS_KEY = ',"metrics":{';

/** A metric's scalar value in a line; undefined when the line does not have it in the expected form. */
function metricAt(line: string, key: string, from: number): number | null | undefined {
  const at = line.indexOf(key, from);
  if (at < 0) return null;
  NUMBER.lastIndex = at + key.length;
  const m = NUMBER.exec(line);
  if (m === null) return undefined;
  const next = line.charCodeAt(NUMBER.lastIndex);
  if (next !== 44 /* , */) return undefined;
  return m[0] === 'null' ? null : num(Number(m[0]));
}

/** Appends a line's fields if it is in recordLine's shape; false (nothing appended) if not. Exported for tests. */
export function pushFast(c: RecordColumns, line: string, origin_ns: number): boolean {
  if (line.charCodeAt(line.length - 1) !== 125 /* } */) return false;
  const h = HEAD.exec(line);
  if (h === null) return false;
  // The metrics object, once, after the head; the four values are looked for inside it and after.
  const from = line.indexOf(METRICS_KEY, h[0].length);
  if (from < 0 || line.indexOf(METRICS_KEY, from + METRICS_KEY.length) >= 0) return false;
  const vals: Record<keyof typeof METRICS, number | null> = { ttft_ms: null, latency_ms: null, output_tokens: null, input_tokens: null };
  for (const k of Object.keys(METRICS) as (keyof typeof METRICS)[]) {
    const v = metricAt(line, METRICS[k], from);
    if (v === undefined) return false;
    vals[k] = v;
  }
  c.phase.push(h[1]);
  c.status.push(h[5]);
  c.errorType.push(h[6] ?? null);
  c.start_s.push((Number(h[3]) - origin_ns) / 1e9);
  c.end_s.push((Number(h[4]) - origin_ns) / 1e9);
  for (const k of Object.keys(METRICS) as (keyof typeof METRICS)[]) c[k].push(vals[k]);
  return true;
}

function metricValue(m: unknown, tag: string): number | null {
  const e = (m as Record<string, { value?: unknown } | undefined>)[tag];
  return num(e?.value);
}

function pushParsed(c: RecordColumns, line: string, origin_ns: number, where: string): void {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch (err) {
    throw new InvalidFileError(`${where}: not valid JSON (${(err as Error).message})`);
  }
  const start = num(o?.start_ns);
  const end = num(o?.end_ns);
  if (start === null || end === null) throw new InvalidFileError(`${where}: start_ns and end_ns must be numbers`);
  c.phase.push(String(o.phase));
  c.status.push(String(o.status));
  const err = o.error as { type?: unknown } | null;
  c.errorType.push(err && typeof err.type === 'string' ? err.type : null);
  c.start_s.push((start - origin_ns) / 1e9);
  c.end_s.push((end - origin_ns) / 1e9);
  const m = o.metrics ?? {};
  c.ttft_ms.push(metricValue(m, 'time_to_first_token'));
  c.latency_ms.push(metricValue(m, 'request_latency'));
  c.output_tokens.push(metricValue(m, 'output_token_count'));
  c.input_tokens.push(metricValue(m, 'input_sequence_length'));
}

/** records.jsonl as columns; null when the file is absent. Bad lines: InvalidFileError naming file:line. */
export function readRecordColumns(file: string, origin_ns: number): RecordColumns | null {
  const fd = openRecords(file);
  if (fd === null) return null;
  const c: RecordColumns = emptyRecordColumns();
  try {
    forEachLine(fd, (line, n) => {
      if (line.trim() === '') return;
      if (!pushFast(c, line, origin_ns)) pushParsed(c, line, origin_ns, `${file}:${n}`);
    });
  } finally {
    fs.closeSync(fd);
  }
  return c;
}

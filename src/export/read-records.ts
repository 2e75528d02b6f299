// records.jsonl read back as the columns the report draws. The file is read in chunks (a long run's
// file can outgrow any one string). A line in the shape recordLine writes is read by its fields: its
// head by one anchored regex, and four metric values found by their keys (every string in a line is
// JSON-escaped, so a quoted key can only be structure; recordLine writes each once). That is about
// 4× cheaper than JSON.parse of a line whose inter-chunk latencies are a hundred numbers; any other
// line goes through JSON.parse.
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InvalidFileError } from '../errors.js';

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
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InvalidFileError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const c: RecordColumns = emptyRecordColumns();
  const take = (line: string, n: number) => {
    if (line.trim() === '') return;
    if (!pushFast(c, line, origin_ns)) pushParsed(c, line, origin_ns, `${file}:${n}`);
  };
  try {
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
    take(pieces.join(''), ++n);
  } finally {
    fs.closeSync(fd);
  }
  return c;
}

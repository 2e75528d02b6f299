// records.jsonl → ProcessedRecord[]: what `servebench analyze` recomputes reports from.
// Each line carries the stamps, the outcome and the per-record metric values (display units);
// they are turned back into base units and into the MetricRecord fields the run metrics read.
import fs from 'node:fs';
import readline from 'node:readline';
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

export async function readRecordsFile(file: string, registry: MetricRegistry): Promise<ProcessedRecord[]> {
  if (!fs.existsSync(file)) throw new InvalidFileError(`${file}: no such records file`);
  const out: ProcessedRecord[] = [];
  const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    n++;
    if (line.trim() === '') continue;
    out.push(parseRecordLine(line, `${file}:${n}`, registry));
  }
  if (out.length === 0) throw new InvalidFileError(`${file}: no records`);
  return out;
}

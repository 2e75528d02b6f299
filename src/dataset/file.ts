// Reading dataset files and checking their fields. Every problem becomes one InvalidFileError
// line naming the file, the line and the problem ("traces.jsonl:12: missing required field
// \"input_length\""), raised while loading, before any request is sent.

import { constants as bufferConstants } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { InvalidFileError } from '../errors.js';

export type JsonObject = Record<string, unknown>;

/** One non-blank line of a JSONL file, parsed. */
export interface JsonlRecord {
  line: number;
  value: JsonObject;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Long JSON.parse messages quote the whole input; keep the line readable. */
function shortJsonError(err: unknown): string {
  const msg = describe(err).replace(/\s+/g, ' ');
  return msg.length > 120 ? `${msg.slice(0, 117)}...` : msg;
}

/** A dataset read whole is held in memory: past this many entries it is refused, not run out of memory on. */
export const MAX_DATASET_ENTRIES = 5_000_000;
/** One line (one entry) of a JSONL dataset at most: a 10M-token prompt fits; a runaway file does not. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** The whole text at most: V8's longest string (a bigger file cannot be parsed as one). */
const MAX_TEXT_CHARS = bufferConstants.MAX_STRING_LENGTH;

export interface DatasetText {
  text: string;
  /** False when reading stopped at `maxEntries` with more of the file unread. */
  complete: boolean;
  /** Non-blank lines in `text` (0 for a JSON array). */
  entries: number;
}

function cannotRead(file: string, err: unknown): InvalidFileError {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : describe(err);
  return new InvalidFileError(`${file}: cannot read the dataset file (${why})`);
}

const isBlankByte = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d;

/**
 * Reads a dataset file as a stream of lines, stopping after `maxEntries` non-blank lines (null: all
 * of them), so a run that needs the first few entries of a huge file reads only those. A JSON array
 * (ShareGPT) is read whole. Over MAX_DATASET_ENTRIES entries, a line over MAX_LINE_BYTES, or a text
 * over V8's string limit is an InvalidFileError naming the file (and line), before any request.
 */
export async function readDatasetFile(file: string, maxEntries: number | null = null): Promise<DatasetText> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let entries = 0;
  let line = 1;
  let lineBytes = 0;
  let lineBlank = true;
  let array: boolean | null = null;
  let complete = true;
  const tooMany = () =>
    new InvalidFileError(
      `${file}: over ${MAX_DATASET_ENTRIES} entries; a dataset read whole is held in memory (only sequential sampling with --request-count and no duration reads just the entries it needs)`,
    );
  const stream = createReadStream(file, { highWaterMark: 1 << 20 });
  try {
    reading: for await (const data of stream as AsyncIterable<Buffer>) {
      bytes += data.length;
      if (bytes > MAX_TEXT_CHARS) throw new InvalidFileError(`${file}: over ${MAX_TEXT_CHARS} bytes, too large to read as one text`);
      let at = 0;
      while (array !== true && at < data.length) {
        const nl = data.indexOf(0x0a, at);
        const end = nl < 0 ? data.length : nl;
        // Blank so far: look for the line's first other byte (usually its first).
        for (let i = at; lineBlank && i < end; i++) {
          if (isBlankByte(data[i])) continue;
          lineBlank = false;
          array ??= data[i] === 0x5b;
        }
        if (array === true) break;
        lineBytes += end - at;
        if (lineBytes > MAX_LINE_BYTES) throw new InvalidFileError(`${file}:${line}: line over ${MAX_LINE_BYTES} bytes`);
        if (nl < 0) break;
        at = nl + 1;
        if (!lineBlank && ++entries > MAX_DATASET_ENTRIES) throw tooMany();
        const stop = !lineBlank && maxEntries !== null && entries >= maxEntries;
        line++;
        lineBytes = 0;
        lineBlank = true;
        if (stop) {
          chunks.push(data.subarray(0, at));
          complete = at === data.length && stream.bytesRead >= (await stat(file)).size;
          break reading;
        }
      }
      chunks.push(data);
    }
  } catch (err) {
    if (err instanceof InvalidFileError) throw err;
    throw cannotRead(file, err);
  } finally {
    stream.destroy();
  }
  if (!lineBlank && array !== true && ++entries > MAX_DATASET_ENTRIES) throw tooMany();
  return { text: Buffer.concat(chunks).toString('utf8'), complete, entries: array === true ? 0 : entries };
}

/** Every non-blank line as a JSON object; a line that is not one is an error naming it. */
export function parseJsonl(file: string, text: string): JsonlRecord[] {
  const out: JsonlRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new InvalidFileError(`${file}:${i + 1}: not valid JSON (${shortJsonError(err)})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InvalidFileError(`${file}:${i + 1}: expected a JSON object, got ${kindOf(value)}`);
    }
    out.push({ line: i + 1, value: value as JsonObject });
  }
  if (out.length === 0) throw new InvalidFileError(`${file}: the dataset file has no entries`);
  return out;
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Line on which element `index` of a top-level JSON array starts. Only called to word an
 * error, so a linear scan of the text is fine.
 */
export function lineOfArrayElement(text: string, index: number): number {
  let depth = 0;
  let inString = false;
  let element = -1;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectValue && !/\s/.test(c) && c !== ']') {
      element++;
      expectValue = false;
      if (element === index) return lineAt(text, i);
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
  }
  return lineAt(text, text.length);
}

export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string (${JSON.stringify(v.length > 30 ? `${v.slice(0, 27)}...` : v)})`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/**
 * Typed access to one entry's fields. A field given as null counts as absent; a field of the
 * wrong type, or a missing required one, fails with the entry's location.
 */
export class Fields {
  constructor(
    readonly file: string,
    /** The entry's line, or a function finding it (costly: only called to word an error). */
    private readonly at: number | (() => number),
    readonly obj: JsonObject,
    /** Path inside the line, e.g. "turns[2]: ", for nested objects. */
    readonly where = '',
  ) {}

  get line(): number {
    return typeof this.at === 'number' ? this.at : this.at();
  }

  fail(problem: string): never {
    throw new InvalidFileError(`${this.file}:${this.line}: ${this.where}${problem}`);
  }

  has(name: string): boolean {
    return this.obj[name] !== undefined && this.obj[name] !== null;
  }

  /** Fields for a nested object (e.g. one turn of a session). */
  nested(value: unknown, where: string): Fields {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.fail(`${where}: expected an object, got ${kindOf(value)}`);
    }
    return new Fields(this.file, this.at, value as JsonObject, `${this.where}${where}: `);
  }

  /** The one present field among `names` (aliases or alternatives); none or several is an error. */
  oneOf(names: readonly string[], required: boolean): string | null {
    const present = names.filter((n) => this.has(n));
    if (present.length > 1) this.fail(`fields ${present.map((n) => `"${n}"`).join(' and ')} cannot be used together`);
    if (present.length === 0 && required) {
      this.fail(`missing required field ${names.map((n) => `"${n}"`).join(' or ')}`);
    }
    return present[0] ?? null;
  }

  string(name: string): string | null {
    if (!this.has(name)) return null;
    const v = this.obj[name];
    if (typeof v !== 'string') this.fail(`field "${name}" must be a string, got ${kindOf(v)}`);
    return v;
  }

  /** A positive integer, at most `max` (`unit` words that error: "tokens"). */
  positiveInt(name: string, max = Number.MAX_SAFE_INTEGER, unit = ''): number | null {
    if (!this.has(name)) return null;
    const v = this.obj[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      this.fail(`field "${name}" must be a positive integer, got ${kindOf(v)}`);
    }
    if (v > max) this.fail(`field "${name}" must be at most ${max}${unit ? ` ${unit}` : ''}, got ${v}`);
    return v;
  }

  nonNegativeInt(name: string): number | null {
    if (!this.has(name)) return null;
    const v = this.obj[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      this.fail(`field "${name}" must be a non-negative integer, got ${kindOf(v)}`);
    }
    return v;
  }

  /** A finite number >= 0 (times in ms). */
  nonNegativeNumber(name: string): number | null {
    if (!this.has(name)) return null;
    const v = this.obj[name];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      this.fail(`field "${name}" must be a number >= 0, got ${kindOf(v)}`);
    }
    return v;
  }

  /** A session id: a string, or a number kept as its decimal text. */
  id(name: string): string | null {
    if (!this.has(name)) return null;
    const v = this.obj[name];
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v !== 'string' || v === '') this.fail(`field "${name}" must be a non-empty string, got ${kindOf(v)}`);
    return v;
  }

  nonNegativeIntList(name: string): number[] | null {
    if (!this.has(name)) return null;
    const v = this.obj[name];
    if (!Array.isArray(v)) this.fail(`field "${name}" must be an array of non-negative integers, got ${kindOf(v)}`);
    v.forEach((x, i) => {
      if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) {
        this.fail(`field "${name}"[${i}] must be a non-negative integer, got ${kindOf(x)}`);
      }
    });
    return v as number[];
  }

  array(name: string, required: boolean): unknown[] | null {
    if (!this.has(name)) {
      if (required) this.fail(`missing required field "${name}"`);
      return null;
    }
    const v = this.obj[name];
    if (!Array.isArray(v)) this.fail(`field "${name}" must be an array, got ${kindOf(v)}`);
    return v as unknown[];
  }
}

// A top-level JSON array read as a stream of its elements, never as one string: a 680 MB ShareGPT
// file is over V8's longest string, and its whole parse would hold every entry at once.
//
// JsonArraySplitter finds the top-level element boundaries in byte chunks (tracking only string,
// escape and bracket depth) and JSON.parse's each element's bytes, so V8's own parser does the
// validation and the object building. Inside a string it jumps to the next quote with
// Buffer.indexOf (memchr), so the scan costs little more than reading the file. The kept streaming
// parser stream-json was measured against it: 5x slower on ShareGPT-shaped data (100 MB: 3.0 s
// against 0.56 s), since it tokenizes every value in JavaScript; see docs/traces.md ("Big files").
//
// Errors are InvalidFileError lines naming the file, the line and the byte offset of the problem.

import { createReadStream } from 'node:fs';
import { InvalidFileError } from '../errors.js';

/** One element of the array, parsed, with where it starts in the file. */
export interface JsonArrayElement {
  value: unknown;
  /** 0-based position in the array. */
  index: number;
  /** 1-based line on which the element starts. */
  line: number;
  /** Byte offset at which the element starts. */
  offset: number;
}

/** One element at most: a 10M-token conversation fits; a runaway file does not. */
export const MAX_ELEMENT_BYTES = 64 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

const isWhitespace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function shortMessage(err: unknown): string {
  const msg = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ');
  return msg.length > 120 ? `${msg.slice(0, 117)}...` : msg;
}

/**
 * Splits the bytes of a JSON array, pushed in chunks of any size (a split may fall inside a string,
 * an escape or a multi-byte character), into its parsed elements.
 */
export class JsonArraySplitter {
  /** 0: before '[' ; 1: inside the array ; 2: after its ']'. */
  private phase = 0;
  private depth = 0;
  /** Closing brackets expected inside the current element, innermost last. */
  private readonly closers: number[] = [];
  private inString = false;
  private escaped = false;
  /** Byte offset of the next pushed chunk's first byte. */
  private base = 0;
  private line = 1;
  /** The current element's bytes from earlier chunks. */
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** Offset and line of the current element's first byte; -1 when none is open. */
  private start = -1;
  private startLine = 0;
  private index = 0;

  constructor(readonly file: string) {}

  private fail(offset: number, line: number, problem: string): never {
    throw new InvalidFileError(`${this.file}:${line}: at byte ${offset}: ${problem}`);
  }

  /** The elements that end in `chunk`. */
  push(chunk: Buffer): JsonArrayElement[] {
    const out: JsonArrayElement[] = [];
    const n = chunk.length;
    let i = 0;
    // Where the open element's bytes start in this chunk (0 when it began in an earlier one).
    let from = this.start >= 0 ? 0 : -1;
    while (i < n) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i++;
          continue;
        }
        const q = chunk.indexOf(QUOTE, i);
        // A quote is escaped when an odd run of backslashes comes right before it.
        let k = (q < 0 ? n : q) - 1;
        while (k >= i && chunk[k] === BACKSLASH) k--;
        const odd = ((q < 0 ? n : q) - 1 - k) % 2 === 1;
        if (q < 0) {
          this.escaped = odd;
          break;
        }
        i = q + 1;
        if (!odd) this.inString = false;
        continue;
      }
      const b = chunk[i];
      if (b === NEWLINE) this.line++;
      if (this.phase !== 1) {
        // A UTF-8 byte order mark (EF BB BF) at the start of the file is skipped.
        const bom = this.phase === 0 && this.base + i < 3 && b === [0xef, 0xbb, 0xbf][this.base + i];
        if (this.phase === 0 && b === 0x5b) {
          this.phase = 1;
          this.depth = 1;
        } else if (!isWhitespace(b) && !bom) {
          if (this.phase === 0) this.fail(this.base + i, this.line, 'expected a JSON array (the file does not start with "[")');
          this.fail(this.base + i, this.line, 'unexpected content after the end of the array');
        }
        i++;
        continue;
      }
      if (this.depth === 1) {
        if (b === COMMA || b === 0x5d) {
          if (this.start >= 0) {
            out.push(this.finish(chunk, from, i));
            from = -1;
          } else if (b === COMMA || this.index > 0) {
            // ",," or "[," or a trailing ",]": a value is missing.
            this.fail(this.base + i, this.line, `expected a value before "${String.fromCharCode(b)}"`);
          }
          if (b === 0x5d) {
            this.phase = 2;
            this.depth = 0;
          }
          i++;
          continue;
        }
        if (b === 0x7d) this.fail(this.base + i, this.line, 'unexpected "}"');
        if (this.start < 0 && !isWhitespace(b)) {
          this.start = this.base + i;
          this.startLine = this.line;
          from = i;
        }
      }
      if (b === QUOTE) this.inString = true;
      else if (b === 0x5b || b === 0x7b) {
        // The closer each open bracket expects ("]" is "[" + 2, "}" is "{" + 2).
        this.closers.push(b + 2);
        this.depth++;
      } else if (b === 0x5d || b === 0x7d) {
        const want = this.closers.pop();
        if (b !== want) {
          const found = String.fromCharCode(b);
          this.fail(
            this.base + i,
            this.line,
            `element ${this.index}: not valid JSON ("${found}" closes a "${String.fromCharCode((want as number) - 2)}")`,
          );
        }
        this.depth--;
      }
      i++;
    }
    if (this.start >= 0) {
      const piece = chunk.subarray(from < 0 ? 0 : from);
      this.parts.push(piece);
      this.partBytes += piece.length;
      if (this.partBytes > MAX_ELEMENT_BYTES) {
        this.fail(this.start, this.startLine, `element ${this.index} is over ${MAX_ELEMENT_BYTES} bytes`);
      }
    }
    this.base += n;
    return out;
  }

  private finish(chunk: Buffer, from: number, end: number): JsonArrayElement {
    let text: string;
    if (this.parts.length === 0) text = chunk.toString('utf8', from, end);
    else {
      this.parts.push(chunk.subarray(0, end));
      text = Buffer.concat(this.parts).toString('utf8');
      this.parts = [];
      this.partBytes = 0;
    }
    const offset = this.start;
    const line = this.startLine;
    this.start = -1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      // V8 names the character position; turn it into the file's byte offset.
      const pos = /position (\d+)/.exec(err instanceof Error ? err.message : '');
      const at = pos ? offset + Buffer.byteLength(text.slice(0, Number(pos[1]))) : offset;
      const atLine = pos ? line + (text.slice(0, Number(pos[1])).match(/\n/g)?.length ?? 0) : line;
      this.fail(at, atLine, `element ${this.index}: not valid JSON (${shortMessage(err)})`);
    }
    return { value, index: this.index++, line, offset };
  }

  /** Checks that the array was closed; call after the last chunk. */
  end(): void {
    if (this.phase === 0) this.fail(this.base, this.line, 'expected a JSON array, found no content');
    if (this.phase === 1) {
      const where = this.inString ? 'inside a string' : 'before the array was closed';
      this.fail(this.base, this.line, `the file ends ${where} (truncated?)`);
    }
  }
}

/**
 * The elements of the JSON array in `file`, parsed one at a time as the file is read. Stopping the
 * iteration early (break, return) stops reading: only the bytes up to the last element taken (and
 * the rest of that chunk) are read. Problems are InvalidFileError lines (file:line: at byte N: …).
 */
export async function* readJsonArray(file: string, chunkBytes = 1 << 20): AsyncGenerator<JsonArrayElement, void, undefined> {
  const splitter = new JsonArraySplitter(file);
  const stream = createReadStream(file, { highWaterMark: chunkBytes });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) yield* splitter.push(chunk);
    splitter.end();
  } catch (err) {
    if (err instanceof InvalidFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : shortMessage(err);
    throw new InvalidFileError(`${file}: cannot read the dataset file (${why})`);
  } finally {
    stream.destroy();
  }
}

/** True when the file's first non-blank byte is "[" (a JSON array), reading only its start. */
export async function startsWithArray(file: string): Promise<boolean> {
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        if (isWhitespace(b) || (b === 0xef && i === 0) || b === 0xbb || b === 0xbf) continue;
        return b === 0x5b;
      }
    }
    return false;
  } catch {
    return false;
  } finally {
    stream.destroy();
  }
}

// CSV trace files read row by row with a kept parser (csv-parse: RFC 4180 quoting, CRLF, a BOM), so a
// multi-million-row trace (BurstGPT_2.csv: 3.9M rows) never sits in memory as text. Each row comes
// with its line; a missing column is one line naming the file and the publisher's columns.

import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { InvalidFileError } from '../../errors.js';

export interface CsvRow {
  line: number;
  row: Record<string, string>;
}

function describe(err: unknown): string {
  const msg = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ');
  return msg.length > 160 ? `${msg.slice(0, 157)}...` : msg;
}

/**
 * The rows of a CSV file with a header line, as column → text. `required` columns must all be in
 * the header; the error names the trace (`format`, e.g. "BurstGPT") and its `documented` columns.
 */
export async function* readCsvRows(
  file: string,
  required: readonly string[],
  format: string,
  documented: readonly string[],
): AsyncGenerator<CsvRow, void, undefined> {
  const parser = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    info: true,
    columns: (header: string[]) => {
      const missing = required.filter((c) => !header.includes(c));
      if (missing.length > 0) {
        throw new InvalidFileError(
          `${file}:1: missing ${missing.length === 1 ? 'column' : 'columns'} ${missing.map((c) => `"${c}"`).join(', ')} (${format} traces have the columns ${documented.join(', ')}; found ${header.map((c) => `"${c}"`).join(', ')})`,
        );
      }
      return header;
    },
  });
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  let failed: unknown = null;
  input.on('error', (err) => {
    failed = err;
    parser.destroy(err);
  });
  input.pipe(parser);
  try {
    for await (const rec of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      yield { line: rec.info.lines, row: rec.record };
    }
  } catch (err) {
    if (err instanceof InvalidFileError) throw err;
    const e = (failed ?? err) as NodeJS.ErrnoException & { lines?: number };
    if (e.code === 'ENOENT') throw new InvalidFileError(`${file}: cannot read the dataset file (no such file)`);
    if (e.code === 'EISDIR') throw new InvalidFileError(`${file}: cannot read the dataset file (is a directory)`);
    // csv-parse's own errors carry the line they stopped on.
    const where = typeof e.lines === 'number' ? `${file}:${e.lines}` : file;
    throw new InvalidFileError(`${where}: not valid CSV (${describe(err)})`);
  } finally {
    input.destroy();
    parser.destroy();
  }
}

/** A column's value as a number (`what` says which); empty or not a number is an error naming the line. */
export function csvNumber(file: string, r: CsvRow, column: string, check: 'non-negative' | 'non-negative integer'): number {
  const raw = r.row[column] ?? '';
  const v = raw === '' ? NaN : Number(raw);
  const ok = Number.isFinite(v) && v >= 0 && (check === 'non-negative' || Number.isInteger(v));
  if (!ok) throw new InvalidFileError(`${file}:${r.line}: column "${column}" must be a ${check} number, got ${JSON.stringify(raw)}`);
  return v;
}

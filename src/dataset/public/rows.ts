// Rows of a dataset file, one object at a time, whatever its format: Parquet (hyparquet, read a row
// group at a time), JSONL (a line at a time), CSV (csv-parse, streamed) and a JSON array. A caller
// that stops iterating stops the reading, so a run that draws N rows reads about N rows.

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse as parseCsv } from 'csv-parse';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { InvalidFileError } from '../../errors.js';
import { readJsonArray, startsWithArray } from '../json-array-stream.js';

export type Row = Record<string, unknown>;
export type RowFormat = 'parquet' | 'jsonl' | 'json' | 'csv';

/** A file's format from its name, or null for one no reader takes. */
export function formatOf(file: string): RowFormat | null {
  const f = file.toLowerCase();
  if (f.endsWith('.parquet')) return 'parquet';
  if (f.endsWith('.jsonl') || f.endsWith('.ndjson')) return 'jsonl';
  if (f.endsWith('.json')) return 'json';
  if (f.endsWith('.csv')) return 'csv';
  return null;
}

function why(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.replace(/\s+/g, ' ').slice(0, 160);
}

async function* parquetRows(file: string): AsyncGenerator<Row> {
  let buffer;
  let metadata;
  try {
    buffer = await asyncBufferFromFile(file);
    metadata = await parquetMetadataAsync(buffer);
  } catch (err) {
    throw new InvalidFileError(`${file}: not a readable Parquet file (${why(err)})`);
  }
  let start = 0;
  // One row group at a time: a Parquet file's unit of reading, and what bounds memory here.
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    let rows: Row[];
    try {
      // utf8: false keeps unannotated byte arrays (an Image feature's bytes) as bytes; strings stay strings.
      rows = (await parquetReadObjects({ file: buffer, metadata, rowStart: start, rowEnd: end, utf8: false, compressors })) as Row[];
    } catch (err) {
      throw new InvalidFileError(`${file}: cannot read Parquet rows ${start}-${end} (${why(err)})`);
    }
    start = end;
    yield* rows;
  }
}

async function* jsonlRows(file: string): AsyncGenerator<Row> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of lines) {
      n++;
      if (line.trim() === '') continue;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch (err) {
        throw new InvalidFileError(`${file}:${n}: not valid JSON (${why(err)})`);
      }
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new InvalidFileError(`${file}:${n}: expected a JSON object`);
      yield v as Row;
    }
  } finally {
    lines.close();
  }
}

/**
 * The elements of a top-level JSON array. The one place a JSON array is read, so the streaming
 * reader of big arrays (issue 32 §3) replaces this body alone; until then it parses the file whole.
 */
export async function* jsonArrayRows(file: string): AsyncGenerator<Row> {
  // Streamed (dataset/json-array-stream.ts): a ShareGPT-sized array is never held as one text.
  if (!(await startsWithArray(file))) throw new InvalidFileError(`${file}: expected a JSON array of rows`);
  for await (const { value, index, line } of readJsonArray(file)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new InvalidFileError(`${file}:${line}: entry ${index} must be an object`);
    yield value as Row;
  }
}

async function* csvRows(file: string): AsyncGenerator<Row> {
  // Numbers become numbers (as pandas reads them, which the peers' CSV loaders use).
  const parser = createReadStream(file).pipe(parseCsv({ columns: true, cast: true, skip_empty_lines: true, bom: true }));
  try {
    for await (const row of parser as AsyncIterable<Row>) yield row;
  } catch (err) {
    if (err instanceof InvalidFileError) throw err;
    throw new InvalidFileError(`${file}: not valid CSV (${why(err)})`);
  } finally {
    parser.destroy();
  }
}

/** The rows of `file`, read as far as the caller iterates. */
export function readRows(file: string, format: RowFormat): AsyncGenerator<Row> {
  switch (format) {
    case 'parquet':
      return parquetRows(file);
    case 'jsonl':
      return jsonlRows(file);
    case 'json':
      return jsonArrayRows(file);
    case 'csv':
      return csvRows(file);
  }
}

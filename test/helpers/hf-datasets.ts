// Small copies of public datasets, in their real column names and Parquet types (written with
// hyparquet-writer), laid into a Hugging Face cache as huggingface_hub lays it: blobs/ hold the
// bytes, snapshots/<commit>/<path> link to them, refs/<revision> name the commit.
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { fakeCommit } from './hf-cache.js';

/** A schema node: its elements in Parquet's depth-first order (the writer's own SchemaElement type). */
type Node = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>;

export const pq = {
  str: (name: string): Node => [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }],
  bytes: (name: string): Node => [{ name, type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' }],
  int64: (name: string): Node => [{ name, type: 'INT64', repetition_type: 'OPTIONAL' }],
  struct: (name: string, children: Node[]): Node => [
    { name, repetition_type: 'OPTIONAL', num_children: children.length },
    ...children.flat(),
  ],
  /** A list of `element` (its name is replaced by "element", as Arrow writes lists). */
  list: (name: string, element: Node): Node => [
    { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { ...element[0], name: 'element' },
    ...element.slice(1),
  ],
  /** HF's Image feature: struct<bytes: binary, path: string>. */
  image: (name: string): Node => pq.struct(name, [pq.bytes('bytes'), pq.str('path')]),
};

/** A Parquet file of `rows` with the columns `schema` declares (in that order). */
export function parquetFile(schema: Node[], rows: Record<string, unknown>[], codec: 'SNAPPY' | 'GZIP' = 'SNAPPY'): Buffer {
  const names = schema.map((n) => n[0].name);
  const columnData = names.map((name) => ({ name, data: rows.map((r) => (r[name] === undefined ? null : r[name])) }));
  // GZIP through Node's zlib: the writer takes any codec given a compressor (the reader must decode it).
  const buf = parquetWriteBuffer({
    columnData,
    schema: [{ name: 'root', num_children: schema.length }, ...schema.flat()],
    codec,
    compressors: { GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input)) },
  });
  return Buffer.from(buf);
}

/** A 1×1 PNG (the bytes an Image feature keeps). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Adds dataset `repo` at `revision` (a branch name, or refs/convert/parquet) with `files`; returns the commit. */
export function addDataset(cache: string, repo: string, revision: string, files: Record<string, Buffer | string>): string {
  const dir = join(cache, `datasets--${repo.split('/').join('--')}`);
  const commit = fakeCommit(`${repo}@${revision}`);
  mkdirSync(join(dir, 'blobs'), { recursive: true });
  for (const [path, body] of Object.entries(files)) {
    const blob = join(dir, 'blobs', createHash('sha256').update(body).digest('hex'));
    writeFileSync(blob, body);
    const file = join(dir, 'snapshots', commit, path);
    mkdirSync(dirname(file), { recursive: true });
    symlinkSync(relative(dirname(file), blob), file);
  }
  const ref = join(dir, 'refs', revision);
  mkdirSync(dirname(ref), { recursive: true });
  writeFileSync(ref, commit);
  return commit;
}

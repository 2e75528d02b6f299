import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidFileError } from '../../../src/errors.js';
import { JsonArraySplitter, readJsonArray, type JsonArrayElement } from '../../../src/dataset/json-array-stream.js';

/** Pushes `text` in chunks of `size` bytes and returns every element. */
function split(text: string, size: number): JsonArrayElement[] {
  const bytes = Buffer.from(text, 'utf8');
  const s = new JsonArraySplitter('x.json');
  const out: JsonArrayElement[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...s.push(bytes.subarray(i, i + size)));
  s.end();
  return out;
}

function errorOf(text: string, size = 7): string {
  try {
    split(text, size);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidFileError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

const TRICKY = [
  { conversations: [{ from: 'human', value: 'a ] } [ { "quoted" \\ back\\slash \\\\"' }] },
  'plain string, with a comma ] and \u00e9\u4e2d\u{1F600} multi-byte',
  [1, [2, [3, []]], { a: [] }],
  42,
  null,
  true,
  { '': '\\', 'k\\"': '\\\\\\"', s: '\n\t\u0000' },
  {},
  [],
];

describe('JsonArraySplitter', () => {
  const text = JSON.stringify(TRICKY, null, 2);

  it('gives every element, for every chunk size (splits inside strings, escapes, multi-byte characters)', () => {
    for (const size of [1, 2, 3, 5, 7, 16, 64, 1 << 20]) {
      const got = split(text, size);
      expect(got.map((e) => e.value)).toEqual(TRICKY);
      expect(got.map((e) => e.index)).toEqual(TRICKY.map((_, i) => i));
    }
  });

  it('names where each element starts (byte offset and line)', () => {
    const bytes = Buffer.from(text, 'utf8');
    for (const e of split(text, 3)) {
      const head = bytes.subarray(e.offset).toString('utf8');
      expect(head.startsWith(JSON.stringify(e.value, null, 2).split('\n')[0])).toBe(true);
      expect(e.line).toBe(bytes.subarray(0, e.offset).toString('utf8').split('\n').length);
    }
  });

  it('takes whitespace anywhere, a byte order mark, an empty array and a compact one', () => {
    expect(split(' \r\n\t[ \n1 ,\n\t2\r\n]\n \n', 1).map((e) => e.value)).toEqual([1, 2]);
    expect(split('\ufeff[{"a":1}]', 2).map((e) => e.value)).toEqual([{ a: 1 }]);
    expect(split('[]', 1)).toEqual([]);
    expect(split('[ ]', 1)).toEqual([]);
    expect(split('["\\\\",["\\""]]', 1).map((e) => e.value)).toEqual(['\\', ['"']]);
  });

  it('refuses a malformed file with one line naming the file, line and byte offset', () => {
    expect(errorOf('[{"a":1},\n{"b":}]')).toMatch(/^x\.json:2: at byte \d+: element 1: not valid JSON/);
    expect(errorOf('[[1],\n{"a": [}]')).toBe('x.json:2: at byte 13: element 1: not valid JSON ("}" closes a "[")');
    expect(errorOf('[1,2,]')).toBe('x.json:1: at byte 5: expected a value before "]"');
    expect(errorOf('[1,,2]')).toBe('x.json:1: at byte 3: expected a value before ","');
    expect(errorOf('[{"a":1} {"b":2}]')).toMatch(/^x\.json:1: at byte 9: element 0: not valid JSON \(Unexpected non-whitespace/);
    expect(errorOf('{"a":1}')).toBe('x.json:1: at byte 0: expected a JSON array (the file does not start with "[")');
    expect(errorOf('[1]\n[2]')).toBe('x.json:2: at byte 4: unexpected content after the end of the array');
    expect(errorOf('[{"a":"b')).toBe('x.json:1: at byte 8: the file ends inside a string (truncated?)');
    expect(errorOf('[1,2')).toBe('x.json:1: at byte 4: the file ends before the array was closed (truncated?)');
    expect(errorOf('')).toBe('x.json:1: at byte 0: expected a JSON array, found no content');
  });
});

describe('readJsonArray', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-json-array-'));

  it('streams a file element by element and stops reading when the consumer stops', async () => {
    const file = join(dir, 'big.json');
    const entry = { conversations: [{ from: 'human', value: 'x'.repeat(1000) }] };
    writeFileSync(file, JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ id: String(i), ...entry }))));
    let n = 0;
    let last: JsonArrayElement | null = null;
    for await (const e of readJsonArray(file, 64 * 1024)) {
      last = e;
      if (++n === 10) break;
    }
    expect(last?.index).toBe(9);
    expect((last?.value as { id: string }).id).toBe('9');
    let all = 0;
    for await (const e of readJsonArray(file, 4096)) all += e.index >= 0 ? 1 : 0;
    expect(all).toBe(5000);
  });

  it('names a missing file', async () => {
    const it = readJsonArray(join(dir, 'nope.json'));
    await expect(it.next()).rejects.toThrow(/nope\.json: cannot read the dataset file \(no such file\)/);
  });
});

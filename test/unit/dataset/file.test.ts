import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Fields, lineOfArrayElement, parseJsonl, readDatasetFile } from '../../../src/dataset/file.js';
import { InvalidFileError } from '../../../src/errors.js';

describe('parseJsonl', () => {
  it('keeps 1-based line numbers, skipping blank lines and CRLF endings', () => {
    const recs = parseJsonl('f.jsonl', '{"a":1}\r\n\n  \n{"a":2}\n');
    expect(recs).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { a: 2 } },
    ]);
  });

  it('names the file and line of a line that is not JSON or not an object', () => {
    expect(() => parseJsonl('f.jsonl', '{"a":1}\n{"a":\n')).toThrow(/^f\.jsonl:2: not valid JSON/);
    expect(() => parseJsonl('f.jsonl', '{"a":1}\n\n"str"\n')).toThrow(/^f\.jsonl:3: expected a JSON object, got a string/);
    expect(() => parseJsonl('f.jsonl', '\n\n')).toThrow(/^f\.jsonl: the dataset file has no entries/);
    expect(() => parseJsonl('f.jsonl', 'x')).toThrow(InvalidFileError);
  });
});

describe('lineOfArrayElement', () => {
  it('finds the line each element of a top-level array starts on', () => {
    const text = '[\n  {"a": "x,]{"},\n  {"b": [1,\n 2]},\n\n  3, "s"\n]';
    expect([0, 1, 2, 3].map((i) => lineOfArrayElement(text, i))).toEqual([2, 3, 6, 6]);
  });
});

describe('Fields', () => {
  const f = new Fields('d.jsonl', 7, { s: 'x', n: 3, neg: -1, nul: null, arr: [1, 2, 'x'], t: { u: 1 } });

  it('reads typed fields; null counts as absent', () => {
    expect(f.string('s')).toBe('x');
    expect(f.positiveInt('n')).toBe(3);
    expect(f.string('nul')).toBeNull();
    expect(f.positiveInt('missing')).toBeNull();
    expect(f.oneOf(['s', 'nul'], true)).toBe('s');
  });

  it('errors name the file, line, nested path and problem', () => {
    expect(() => f.string('n')).toThrow('d.jsonl:7: field "n" must be a string, got number 3');
    expect(() => f.positiveInt('neg')).toThrow('d.jsonl:7: field "neg" must be a positive integer, got number -1');
    expect(() => f.nonNegativeIntList('arr')).toThrow('d.jsonl:7: field "arr"[2] must be a non-negative integer');
    expect(() => f.oneOf(['s', 'n'], true)).toThrow('d.jsonl:7: fields "s" and "n" cannot be used together');
    expect(() => f.oneOf(['p', 'q'], true)).toThrow('d.jsonl:7: missing required field "p" or "q"');
    expect(() => f.nested(f.obj.t, 'turns[1]').string('u')).toThrow('d.jsonl:7: turns[1]: field "u" must be a string');
  });

  it('finds a lazy line only when an error needs it', () => {
    let calls = 0;
    const g = new Fields('a.json', () => ++calls + 40, { x: 1 }, 'entry 3: ');
    expect(g.positiveInt('x')).toBe(1);
    expect(calls).toBe(0);
    expect(() => g.string('x')).toThrow('a.json:41: entry 3: field "x" must be a string');
  });
});

describe('readDatasetFile', () => {
  const write = (text: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-read-'));
    const f = path.join(dir, 'd.jsonl');
    fs.writeFileSync(f, text);
    return f;
  };

  it('reads every line when no limit is given, counting non-blank ones', async () => {
    const r = await readDatasetFile(write('{"a":1}\r\n\n  \n{"a":2}'));
    expect(r).toEqual({ text: '{"a":1}\r\n\n  \n{"a":2}', complete: true, entries: 2 });
  });

  it('stops after N entries, keeping blank lines so line numbers hold, and says whether more follows', async () => {
    const f = write('\n{"a":1}\n\n{"a":2}\n{"a":3}\n');
    const two = await readDatasetFile(f, 2);
    expect(two).toEqual({ text: '\n{"a":1}\n\n{"a":2}\n', complete: false, entries: 2 });
    expect(parseJsonl(f, two.text).map((x) => x.line)).toEqual([2, 4]);
    expect((await readDatasetFile(f, 3)).complete).toBe(true);
    expect((await readDatasetFile(f, 10)).entries).toBe(3);
  });

  it('reads a JSON array whole, whatever the limit', async () => {
    const text = '[\n{"a":1},\n{"a":2}\n]\n';
    expect(await readDatasetFile(write(text), 1)).toEqual({ text, complete: true, entries: 0 });
  });

  it('a missing file is one InvalidFileError naming it', async () => {
    await expect(readDatasetFile('/nonexistent/x.jsonl')).rejects.toThrow(
      /^\/nonexistent\/x\.jsonl: cannot read the dataset file \(no such file\)$/,
    );
  });
});

// A JSON-array dataset (ShareGPT) is streamed (issue 32, section 3): a sequential --request-count N run
// reads only the first N conversations of a file no full read survives (8 GB, sparse), and a
// malformed array is one line naming the file, the line and the byte offset, exit code 2.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

const conversation = (i: number) => ({
  id: `c${i}`,
  conversations: [
    { from: 'human', value: `prompt [number] {${i}} "quoted" \u00e9` },
    { from: 'gpt', value: 'a short reply' },
  ],
});

/** "[" and five conversations, then (without writing them) 8 GB of zero bytes. */
function hugeArray(dir: string): string {
  const file = path.join(dir, 'huge.json');
  fs.writeFileSync(file, `[\n${Array.from({ length: 5 }, (_, i) => JSON.stringify(conversation(i))).join(',\n')},\n`);
  fs.truncateSync(file, 8 * 1024 ** 3);
  return file;
}

describe('JSON-array datasets, streamed', () => {
  it('--request-count 5 (sequential) reads only the first 5 conversations of an 8 GB array, and says so', async () => {
    const dir = tmpDir();
    const file = hugeArray(dir);
    const out = path.join(dir, 'out');
    const r = await runCli([
      'profile',
      '--input-file',
      file,
      '--request-count',
      '5',
      '--concurrency',
      '1',
      '--artifact-dir',
      out,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${file}: read its first 5 entries only`);
    expect(readJson(path.join(out, 'profile_export.json')).counts).toEqual({ issued: 5, succeeded: 5, errored: 0, cancelled: 0 });
  });

  it('a run that needs the whole array stops at the first runaway element, naming file:line and byte', async () => {
    const dir = tmpDir();
    const file = hugeArray(dir);
    const r = await runCli([
      'profile',
      '--url',
      'http://127.0.0.1:9',
      '--model',
      'm',
      '--input-file',
      file,
      '--request-count',
      '5',
      '--dataset-sampling-strategy',
      'random',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toMatch(new RegExp(`^servebench: ${file}:7: at byte \\d+: element 5 is over 67108864 bytes$`));
  });

  it('a malformed array: one line naming the file, the line and the byte offset; exit code 2', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'bad.json');
    const good = JSON.stringify(conversation(0));
    fs.writeFileSync(file, `[\n${good},\n${good},\n{"conversations": [}\n]\n`);
    const r = await runCli(['profile', '--url', 'http://127.0.0.1:9', '--model', 'm', '--input-file', file, '--request-count', '5']);
    expect(r.code, r.stderr).toBe(2);
    const offset = Buffer.byteLength(`[\n${good},\n${good},\n{"conversations": [`);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^servebench: ${file}:4: at byte ${offset}: element 2: not valid JSON`)),
    ]);
  });
});

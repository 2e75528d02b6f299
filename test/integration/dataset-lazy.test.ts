// Datasets are read lazily when the run's needs are known, and capped otherwise (issue 12, item 8):
// an 8 GB file (sparse: five entries, then zeros) runs with --request-count 5 because only those
// entries are read; a run that needs the whole file gets one line naming it, exit code 2. The same
// holds for a JSON array (ShareGPT), which is streamed (issue 32, section 3), and a malformed array
// is one line naming the file, the line and the byte offset.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

const ENTRIES = Array.from({ length: 5 }, (_, i) => JSON.stringify({ text: `prompt number ${i}`, max_tokens: 4 })).join('\n') + '\n';

const conversation = (i: number) => ({
  id: `c${i}`,
  conversations: [
    { from: 'human', value: `prompt [number] {${i}} "quoted" \u00e9` },
    { from: 'gpt', value: 'a short reply' },
  ],
});
/** "[" and five conversations, unclosed. */
const ARRAY_HEAD = `[\n${Array.from({ length: 5 }, (_, i) => JSON.stringify(conversation(i))).join(',\n')},\n`;

/** Five entries, then (without writing them) 8 GB of zero bytes: a file no full read survives. */
function hugeFile(dir: string, name = 'huge.jsonl', head = ENTRIES): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, head);
  fs.truncateSync(file, 8 * 1024 ** 3);
  return file;
}
const hugeArray = (dir: string) => hugeFile(dir, 'huge.json', ARRAY_HEAD);

describe('dataset files, lazily', () => {
  it.each([
    ['entries of an 8 GB file', hugeFile],
    ['conversations of an 8 GB JSON array', hugeArray],
  ])('--request-count 5 (sequential) reads only the first 5 %s, and says so', async (_what, make) => {
    const dir = tmpDir();
    const file = make(dir);
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

  it('a run that needs the whole file stops at the first runaway line, naming file:line', async () => {
    const dir = tmpDir();
    const file = hugeFile(dir);
    const r = await runCli([
      'profile',
      '--url',
      'http://127.0.0.1:9',
      // A named model: the tokenizer, and so the dataset, come before the server is asked.
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
    expect(r.stderr.trim()).toBe(`servebench: ${file}:6: line over 67108864 bytes`);
  });

  it('over 5000000 entries read whole is refused, not run out of memory on', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'many.jsonl');
    fs.writeFileSync(file, '{}\n'.repeat(5_000_001));
    const r = await runCli(['profile', '--url', 'http://127.0.0.1:9', '--model', 'm', '--input-file', file, '--benchmark-duration', '1']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^servebench: .*many\.jsonl: over 5000000 entries; /)]);
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

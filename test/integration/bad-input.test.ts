// Bad input that used to slip through (issue 12, item 8): each is one line naming the flag or
// file:line, exit code 2, before anything is sent (the --url has no server: reaching it would say so).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmpDir } from '../helpers/cli.js';

const NOWHERE = ['--url', 'http://127.0.0.1:9', '--ui', 'none'];

function expectOneLine(r: { code: number | null; stderr: string }, message: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(lines[0]).not.toMatch(/internal error|cannot reach/);
}

describe('bad flags', () => {
  it.each([
    [['--concurrency', '1e12'], /^servebench: --concurrency: must be at most 1000000, got 1000000000000$/],
    [['--warmup-request-count', '2', '--warmup-concurrency', '2000000'], /^servebench: --warmup-concurrency: must be at most 1000000/],
    [['--request-count'], /^servebench: --request-count: expects a value$/],
    [['--request-count', '--concurrency', '2'], /^servebench: --request-count: expects a value$/],
    [['-H'], /^servebench: -H: expects a value$/],
    [['--endpoint-type', 'foo'], /^servebench: --endpoint-type: expected one of chat, completions, [a-z_, ]*got "foo"$/],
    [['--export-level', 'bogus'], /^servebench: --export-level: expected one of summary, records, raw, got "bogus"$/],
    [['--ui', 'bogus'], /^servebench: --ui: expected one of auto, none, got "bogus"$/],
    [['--isl', '1000000000'], /^servebench: --isl: must be at most 10000000 tokens, got 1000000000$/],
    [['--seq-dist', '20000000,10:1'], /^servebench: --seq-dist: ISL in "20000000,10:1" must be at most 10000000 tokens/],
  ])('%j', async (args, message) => {
    expectOneLine(await runCli(['profile', ...NOWHERE, ...args]), message);
  });
});

describe('bad dataset entries', () => {
  it('a mooncake entry with input_length 1e9 names its file and line', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'trace.jsonl');
    fs.writeFileSync(file, '{"input_length": 100, "output_length": 4}\n{"input_length": 1e9, "output_length": 4}\n');
    // With --model the tokenizer is known before the server is asked (without it, the preflight names
    // the model first, and the dataset is read once the tokenizer is chosen: still before any request).
    const r = await runCli(['profile', ...NOWHERE, '--model', 'm', '--input-file', file, '--no-fixed-schedule']);
    expectOneLine(r, /trace\.jsonl:2: field "input_length" must be at most 10000000 tokens, got 1000000000$/);
  });
});

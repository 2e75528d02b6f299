// `servebench profile` with dataset files, as a real process against the mock as a real process.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnMock } from '../../src/mock/spawn.js';
import { loadTokenizer } from '../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../src/tokenizer/types.js';
import { readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { fixture } from '../unit/dataset/helpers.js';

let tok: TextTokenizer;
beforeAll(async () => {
  tok = await loadTokenizer();
});

/** Runs profile against a fresh mock that logs every request; returns the CLI result and the POSTed bodies. */
async function profileRecorded(args: string[]) {
  const dir = tmpDir();
  const log = path.join(dir, 'requests.jsonl');
  const mock = await spawnMock(['--ttft-ms', '1', '--itl-ms', '0', '--record-requests', log]);
  try {
    const r = await runCli(['profile', '--url', mock.url, '--artifact-dir', path.join(dir, 'out'), '--ui', 'none', ...args]);
    await mock.stop();
    const bodies = fs.existsSync(log)
      ? readJsonl(log)
          .filter((x) => x.method === 'POST')
          .map((x) => x.body)
      : [];
    return { r, bodies, dir };
  } finally {
    await mock.stop();
  }
}

function commonTokens(a: string, b: string): number {
  const x = tok.encode(a);
  const y = tok.encode(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

describe('profile with a mooncake trace', () => {
  it('requests sharing hash_ids share their prompt prefix exactly, and each prompt is exactly input_length tokens', async () => {
    const { r, bodies } = await profileRecorded([
      '--input-file',
      fixture('mooncake.jsonl'),
      '--custom-dataset-type',
      'mooncake_trace',
      '--request-count',
      '7',
    ]);
    expect(r.code, r.stderr).toBe(0);
    // Each trace line has its own output_length, so max_tokens tells which line a request is.
    const byOsl = new Map<number, string>();
    for (const b of bodies) byOsl.set(b.max_tokens, b.messages[b.messages.length - 1].content);
    const line = (osl: number) => {
      const p = byOsl.get(osl);
      if (p === undefined) throw new Error(`no request with max_tokens ${osl}; got ${[...byOsl.keys()]}`);
      return p;
    };
    const [l1, l2, l3, l4, l5] = [line(20), line(10), line(30), line(5), line(12)];
    expect([l1, l2, l3, l4, l5].map((p) => tok.count(p))).toEqual([1200, 700, 1536, 300, 1100]);
    // Lines 1, 3 and 5 share hash ids [0, 1] (1024 tokens), line 2 only [0].
    expect(commonTokens(l1, l3)).toBeGreaterThanOrEqual(1024);
    expect(commonTokens(l1, l3)).toBeLessThan(1024 + 3);
    expect(commonTokens(l1, l2)).toBeGreaterThanOrEqual(512);
    expect(commonTokens(l1, l2)).toBeLessThan(512 + 3);
    const shared = tok.decode(tok.encode(l1).slice(0, 1024));
    for (const p of [l1, l3, l5]) expect(p.startsWith(shared)).toBe(true);
    // Line 5 is line 1 cut short: a prefix of it.
    expect(l1.startsWith(l5)).toBe(true);
    expect(commonTokens(l4, l1)).toBeLessThan(3);
    expect(line(8)).toBe('Summarize the plot of a mystery novel in two sentences.');
  });
});

describe('bad dataset input', () => {
  it.each([
    ['bad/mooncake_wrong_type.jsonl', 'mooncake_trace', ':4: field "input_length" must be a positive integer'],
    ['bad/not_json.jsonl', 'single_turn', ':3: not valid JSON'],
    ['bad/multi_turn_missing_text.jsonl', 'multi_turn', ':2: turns[1]: missing required field "text" or "prompt"'],
    ['missing.jsonl', 'single_turn', ': cannot read the dataset file (no such file)'],
  ])('%s: exit 2, one line naming the file and line, before any request', async (name, type, problem) => {
    const { r, bodies } = await profileRecorded(['--input-file', fixture(name), '--custom-dataset-type', type]);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    const err = lines.filter((l) => l.includes(fixture(name)));
    expect(err).toHaveLength(1);
    expect(err[0].startsWith(`servebench: ${fixture(name)}${problem}`), err[0]).toBe(true);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(bodies).toEqual([]);
  });

  it.each([
    [['--custom-dataset-type', 'single_turn'], /--custom-dataset-type: needs --input-file/],
    [['--seq-dist', '100,10:1', '--isl-stddev', '5'], /--seq-dist: .*--isl-stddev/],
    [['--seq-dist', '100,10:0.5;200,20:0.4'], /--seq-dist: probabilities must sum to 1, got 0.9/],
    [['--input-file', 'x.jsonl', '--isl', '100'], /--isl: .*--input-file/],
    [['--num-prefix-prompts', '3'], /--num-prefix-prompts: needs --prefix-prompt-length/],
  ])('conflicting flags %j: exit 2, one line naming both', async (args, re) => {
    const r = await runCli(['profile', '--ui', 'none', ...args]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(re);
  });
});

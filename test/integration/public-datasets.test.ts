// `servebench profile --public-dataset` / `--hf-dataset` and `servebench datasets`, as real
// processes: the CLI against the mock as a process, the datasets served by the local Hub as a
// process (HF_ENDPOINT) and downloaded into a fresh HF_HOME, and the bad-input lines with exit 2.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock } from '../../src/mock/spawn.js';
import { loadTokenizer } from '../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../src/tokenizer/types.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { parquetFile, pq } from '../helpers/hf-datasets.js';
import { hubEnv, repoDir, startLocalHub, type LocalHub } from '../helpers/hub.js';

let tok: TextTokenizer;
let home: string;
const PROMPTS = Array.from({ length: 8 }, (_, i) => `Question number ${i}: how do hash maps resolve collisions in practice?`);
const REPLIES = Array.from(
  { length: 8 },
  (_, i) => `Answer ${i}: ${'by chaining or by open addressing, '.repeat(i + 1)}depending on the design.`,
);

let hub: LocalHub;

beforeAll(async () => {
  tok = await loadTokenizer();
  home = tmpDir();
  const dataset = (name: string, revisions: Record<string, Record<string, string | Buffer>>) => ({
    type: 'dataset' as const,
    name,
    revisions: Object.entries(revisions).map(([rev, files]) => ({ name: rev, dir: repoDir(files) })),
  });
  hub = await startLocalHub({
    repos: [
      dataset('anon8231489123/ShareGPT_Vicuna_unfiltered', {
        main: {
          'ShareGPT_V3_unfiltered_cleaned_split.json': JSON.stringify(
            PROMPTS.map((p, i) => ({
              id: `c${i}`,
              conversations: [
                { from: 'human', value: p },
                { from: 'gpt', value: REPLIES[i] },
              ],
            })),
          ),
        },
      }),
      dataset('test-org/qa', {
        main: { 'README.md': '# qa' },
        'refs/convert/parquet': {
          'default/train/0000.parquet': parquetFile(
            [pq.str('question'), pq.str('answer')],
            [{ question: 'Why is the sky blue?', answer: 'Rayleigh.' }],
          ),
        },
      }),
      dataset('test-org/table', { main: { 'data/train.csv': 'text,target_tokens\nFirst prompt.,9\nSecond prompt.,4\n' } }),
    ],
  });
});

afterAll(async () => {
  await hub?.stop();
});

const env = () => hubEnv(hub, home);

describe('profile with a public dataset', () => {
  it('--public-dataset sharegpt --request-count 5: the first five conversations, max_tokens from their replies', async () => {
    const dir = tmpDir();
    const log = path.join(dir, 'requests.jsonl');
    const mock = await spawnMock(['--ttft-ms', '1', '--itl-ms', '0', '--record-requests', log]);
    let r;
    try {
      r = await runCli(
        [
          'profile',
          '--url',
          mock.url,
          '--public-dataset',
          'sharegpt',
          '--request-count',
          '5',
          '--concurrency',
          '1',
          '--artifact-dir',
          path.join(dir, 'out'),
          '--ui',
          'none',
        ],
        { env: env() },
      );
    } finally {
      await mock.stop();
    }
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(path.join(dir, 'out', 'profile_export.json')).counts).toEqual({ issued: 5, succeeded: 5, errored: 0, cancelled: 0 });
    const bodies = readJsonl(log)
      .filter((x) => x.method === 'POST')
      .map((x) => x.body);
    expect(bodies.map((b) => b.messages.at(-1).content)).toEqual(PROMPTS.slice(0, 5));
    expect(bodies.map((b) => b.max_tokens ?? b.max_completion_tokens)).toEqual(REPLIES.slice(0, 5).map((t) => tok.count(t)));
  });

  it("--hf-dataset over a repo's own CSV: its prompts, max_tokens from --hf-output-len-column", async () => {
    const dir = tmpDir();
    const log = path.join(dir, 'requests.jsonl');
    const mock = await spawnMock(['--ttft-ms', '1', '--itl-ms', '0', '--record-requests', log]);
    let r;
    try {
      r = await runCli(
        [
          'profile',
          '--url',
          mock.url,
          '--hf-dataset',
          'test-org/table',
          '--hf-prompt-column',
          'text',
          '--hf-output-len-column',
          'target_tokens',
          '--request-count',
          '2',
          '--concurrency',
          '1',
          '--artifact-dir',
          path.join(dir, 'out'),
          '--ui',
          'none',
        ],
        { env: env() },
      );
    } finally {
      await mock.stop();
    }
    expect(r.code, r.stderr).toBe(0);
    const bodies = readJsonl(log)
      .filter((x) => x.method === 'POST')
      .map((x) => x.body);
    expect(bodies.map((b) => [b.messages.at(-1).content, b.max_tokens ?? b.max_completion_tokens])).toEqual([
      ['First prompt.', 9],
      ['Second prompt.', 4],
    ]);
  });

  it('--hf-dataset over the converted Parquet branch runs', async () => {
    const dir = tmpDir();
    const r = await runCli(['profile', '--hf-dataset', 'test-org/qa', '--request-count', '2', '--artifact-dir', dir, '--ui', 'none'], {
      env: env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(path.join(dir, 'profile_export.json')).counts.succeeded).toBe(2);
  });
});

describe('servebench datasets', () => {
  it('lists every entry with its repo and rows, and says which are cached (sharegpt: downloaded by the run above)', async () => {
    const r = await runCli(['datasets'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+REPO\s+DATA\s+ROWS\s+CACHED\s+EXERCISES$/);
    const row = (name: string) => lines.find((l) => l.startsWith(`${name} `)) ?? '';
    expect(row('sharegpt')).toMatch(
      /anon8231489123\/ShareGPT_Vicuna_unfiltered\s+ShareGPT_V3_unfiltered_cleaned_split\.json\s+94145\s+yes\s/,
    );
    expect(row('aimo_aime')).toMatch(/AI-MO\/aimo-validation-aime\s+default\/train\s+90\s+no\s/);
    const json = (await runCli(['datasets', '--json'], { env: hubEnv(null, tmpDir()) })).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(json.find((d) => d.name === 'sharegpt')).toMatchObject({ cached: false, repo: 'anon8231489123/ShareGPT_Vicuna_unfiltered' });
    expect(json.length).toBe(lines.length - 1);
  });
});

describe('bad input: one line, exit code 2', () => {
  it.each([
    [['--public-dataset', 'nope'], /^servebench: --public-dataset: unknown dataset "nope"; valid: sharegpt, aimo, .*burstgpt$/],
    [['--public-dataset', 'sharegpt', '--input-file', 'x.jsonl'], /^servebench: --public-dataset: cannot be combined with --input-file$/],
    [['--hf-dataset', 'a/b', '--public-dataset', 'aimo'], /^servebench: --public-dataset: cannot be combined with --hf-dataset$/],
    [['--hf-prompt-column', 'text'], /^servebench: --hf-prompt-column: needs --hf-dataset$/],
    [['--hf-dataset', 'not-an-id'], /^servebench: --hf-dataset: expected a Hub dataset id org\/name/],
    [
      ['--hf-dataset', 'test-org/qa', '--hf-prompt-column', 'prompt'],
      /^servebench: --hf-prompt-column: column "prompt" is not in test-org\/qa@refs\/convert\/parquet:default\/train; its columns: question, answer$/,
    ],
  ])('%j', async (args, line) => {
    const r = await runCli(['profile', '--url', 'http://127.0.0.1:9', '--model', 'm', ...args], { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(line);
  });
});

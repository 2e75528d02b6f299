// Every registry entry (--public-dataset) and --hf-dataset, loaded from small copies with the real
// datasets' column names and types in a Hugging Face cache laid out as huggingface_hub writes it.
// The expected conversations are what the peers' loaders make of the same rows (vLLM's
// ShareGPTDataset/BurstGPTDataset, AIPerf's HFInstructionResponse/HFConversation/MMVU/SpeedBench/
// SpecBench loaders): read from their code, written out here by hand.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProfileFlags } from '../../../src/config/validate.js';
import { InvalidArgumentError, ServebenchError } from '../../../src/errors.js';
import { isCached } from '../../../src/dataset/public/cached.js';
import { SPEED_BENCH_PLACEHOLDER } from '../../../src/dataset/public/mapping.js';
import { PUBLIC_DATASETS, publicDataset } from '../../../src/dataset/public/registry.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { tmpDir } from '../../helpers/cli.js';
import { addDataset, parquetFile, PNG, pq } from '../../helpers/hf-datasets.js';
import { loadSource, take } from './helpers.js';

const CONVERTED = 'refs/convert/parquet';
const PNG_URL = `data:image/png;base64,${PNG.toString('base64')}`;
let tok: TextTokenizer;
let home: string;

const HASH_MAP_Q = 'Explain how a hash map works, in a few sentences please.';
const HASH_MAP_A =
  'A hash map stores key and value pairs in buckets picked by a hash of the key, so a lookup takes constant time on average.';
const GPT_FIRST = 'I open this one, and vLLM takes my words as the prompt all the same.';

function fillCache(cache: string): void {
  addDataset(cache, 'anon8231489123/ShareGPT_Vicuna_unfiltered', 'main', {
    'ShareGPT_V3_unfiltered_cleaned_split.json': JSON.stringify([
      {
        id: 'a',
        conversations: [
          { from: 'human', value: HASH_MAP_Q },
          { from: 'gpt', value: HASH_MAP_A },
        ],
      },
      { id: 'b', conversations: [{ from: 'human', value: 'A single message and no reply at all.' }] },
      {
        id: 'c',
        conversations: [
          { from: 'human', value: 'ok' },
          { from: 'gpt', value: 'That prompt is under four tokens long.' },
        ],
      },
      {
        id: 'd',
        conversations: [
          { from: 'gpt', value: GPT_FIRST },
          { from: 'human', value: 'And the human answers with a few words.' },
        ],
      },
      {
        id: 'e',
        conversations: [
          { from: 'human', value: 'word '.repeat(1100) },
          { from: 'gpt', value: 'Too long a prompt for vLLM.' },
        ],
      },
    ]),
  });
  const numina = [pq.str('problem'), pq.str('solution'), pq.list('messages', pq.struct('m', [pq.str('role'), pq.str('content')]))];
  const numinaRows = [
    { problem: 'What is 2 + 3?', solution: '5', messages: [{ role: 'user', content: 'What is 2 + 3?' }] },
    { problem: '   ', solution: 'none', messages: [] },
    { problem: 'Find x if 2x = 10.', solution: 'x = 5', messages: [] },
  ];
  addDataset(cache, 'AI-MO/NuminaMath-TIR', 'main', {
    'data/train-00000-of-00001.parquet': parquetFile(numina, numinaRows),
    'README.md': '# TIR',
  });
  addDataset(cache, 'AI-MO/NuminaMath-CoT', 'main', {
    'data/train-00000-of-00002.parquet': parquetFile(numina, numinaRows.slice(0, 1)),
    'data/train-00001-of-00002.parquet': parquetFile(numina, numinaRows.slice(2)),
    'data/test-00000-of-00001.parquet': parquetFile(numina, [{ problem: 'a test-split row', solution: '', messages: [] }]),
  });
  addDataset(cache, 'AI-MO/NuminaMath-1.5', 'main', {
    'data/train-00000-of-00001.parquet': parquetFile(
      [pq.str('problem'), pq.str('solution'), pq.str('answer')],
      [{ problem: 'Prove that 1 = 1.', solution: 'trivial', answer: 'proof' }],
      'GZIP',
    ),
  });
  addDataset(cache, 'AI-MO/aimo-validation-aime', 'main', { 'README.md': '# AIME' });
  addDataset(cache, 'AI-MO/aimo-validation-aime', CONVERTED, {
    'default/train/0000.parquet': parquetFile(
      [pq.int64('id'), pq.str('problem'), pq.str('solution'), pq.str('answer'), pq.str('url')],
      [{ id: 60n, problem: 'Every morning Aya walks 9 km.', solution: '...', answer: '204', url: 'https://artofproblemsolving.com' }],
    ),
  });
  addDataset(cache, 'Lin-Chen/MMStar', 'main', { 'README.md': '# MMStar' });
  addDataset(cache, 'Lin-Chen/MMStar', CONVERTED, {
    'default/val/0000.parquet': parquetFile(
      [pq.int64('index'), pq.str('question'), pq.image('image'), pq.str('answer'), pq.str('category')],
      [
        {
          index: 0n,
          question: 'Which option describes the object? A: a ball B: a cube',
          image: { bytes: PNG, path: null },
          answer: 'A',
          category: 'coarse perception',
        },
      ],
    ),
  });
  addDataset(cache, 'yale-nlp/MMVU', CONVERTED, {
    'default/validation/0000.parquet': parquetFile(
      [
        pq.str('id'),
        pq.str('video'),
        pq.str('question'),
        pq.struct(
          'choices',
          ['A', 'B', 'C', 'D', 'E'].map((k) => pq.str(k)),
        ),
        pq.str('answer'),
      ],
      [
        {
          id: 'v1',
          video: 'https://huggingface.co/datasets/yale-nlp/MMVU/resolve/main/videos/a.mp4',
          question: 'What moves first?',
          choices: { A: 'the ball', B: 'the cube', C: 'nothing', D: '', E: null },
          answer: 'A',
        },
      ],
    ),
  });
  addDataset(cache, 'lmarena-ai/VisionArena-Chat', CONVERTED, {
    'default/train/0000.parquet': parquetFile(
      [
        pq.str('model'),
        pq.list('conversation', pq.list('turn', pq.struct('m', [pq.str('role'), pq.str('content')]))),
        pq.list('images', pq.image('img')),
      ],
      [
        {
          model: 'gpt-4o',
          conversation: [[{ role: 'user', content: 'What breed is this dog?' }], [{ role: 'assistant', content: 'A corgi.' }]],
          images: [{ bytes: PNG, path: null }],
        },
        { model: 'gpt-4o', conversation: [], images: [] },
      ],
    ),
  });
  addDataset(cache, 'lmms-lab/LLaVA-OneVision-Data', 'main', {
    'sharegpt4o/train-00000-of-00001.parquet': parquetFile(
      [pq.str('id'), pq.image('image'), pq.list('conversations', pq.struct('m', [pq.str('from'), pq.str('value')])), pq.str('data_source')],
      [
        {
          id: 'x',
          image: { bytes: PNG, path: 'x.png' },
          conversations: [
            { from: 'human', value: '<image>\nDescribe the image in detail.' },
            { from: 'gpt', value: 'A pixel.' },
          ],
          data_source: 'sharegpt4o',
        },
      ],
    ),
    'other/train-00000-of-00001.parquet': parquetFile([pq.str('id')], [{ id: 'not this subset' }]),
  });
  const speedRows = [
    { question_id: 'a'.repeat(32), category: 'coding', turns: ['Write a function that reverses a list.', 'Now make it work in place.'] },
    { question_id: 'b'.repeat(32), category: 'math', turns: ['Integrate x squared from zero to one.'] },
    { question_id: 'c'.repeat(32), category: 'coding', turns: [SPEED_BENCH_PLACEHOLDER] },
  ];
  addDataset(cache, 'nvidia/SPEED-Bench', CONVERTED, {
    'qualitative/test/0000.parquet': parquetFile([pq.str('question_id'), pq.str('category'), pq.list('turns', pq.str('t'))], speedRows),
    'throughput_1k/test/0000.parquet': parquetFile(
      [pq.str('question_id'), pq.str('category'), pq.list('turns', pq.str('t'))],
      [
        { question_id: 'd'.repeat(32), category: 'mixed', turns: ['A thousand-token prompt, in short.'] },
        { question_id: 'e'.repeat(32), category: 'low_entropy', turns: ['A low-entropy prompt.'] },
      ],
    ),
  });
  addDataset(cache, 'likaixin/InstructCoder', CONVERTED, {
    'default/train/0000.parquet': parquetFile(
      [pq.str('instruction'), pq.str('input'), pq.str('output')],
      [{ instruction: 'Add type hints to the function.', input: 'def f(x): return x', output: 'def f(x: int) -> int: return x' }],
    ),
  });
  for (const [repo, req] of [
    ['vdaita/edit_5k_char', 'Rename the variable a to total.'],
    ['vdaita/edit_10k_char', 'Extract the loop into a helper.'],
  ]) {
    addDataset(cache, repo, CONVERTED, {
      'default/train/0000.parquet': parquetFile(
        [pq.str('code'), pq.str('change_request'), pq.int64('char_count')],
        [{ code: 'a = 1\nprint(a)', change_request: req, char_count: 14n }],
      ),
    });
  }
  addDataset(cache, 'lzzmm/BurstGPT', 'main', {
    'data/BurstGPT_without_fails_2.csv':
      'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n5,GPT-4,120,45,165,Conversation log\n7,ChatGPT,30,20,50,Conversation log\n9,GPT-4,50,0,50,API log\n12,GPT-4,64,16,80,API log\n',
  });
  // --hf-dataset repos: only the converted branch; own JSONL (two revisions); own CSV.
  addDataset(cache, 'test-org/qa', 'main', { 'README.md': '# qa' });
  addDataset(cache, 'test-org/qa', CONVERTED, {
    'default/test/0000.parquet': parquetFile(
      [pq.str('question'), pq.str('answer')],
      [{ question: 'Why is the sky blue?', answer: 'Rayleigh scattering.' }],
    ),
  });
  addDataset(cache, 'test-org/lines', 'main', {
    'data/train.jsonl': `${JSON.stringify({ prompt: 'First line prompt.', output_len: 12 })}\n${JSON.stringify({ prompt: 'Second line prompt.', output_len: 7 })}\n`,
  });
  addDataset(cache, 'test-org/lines', 'v2', { 'data/train.jsonl': `${JSON.stringify({ prompt: 'The v2 prompt.', output_len: 3 })}\n` });
  addDataset(cache, 'test-org/table', 'main', { 'train.csv': 'text,target_tokens\n"A prompt, with a comma.",21\nAnother prompt.,5\n' });
  // Spec-Bench lives on GitHub: its raw file, as a first run keeps it.
  const spec = join(home, 'servebench', 'github', 'hemingkx--Spec-Bench', 'fd2c1cd7d2201ef71db4c5f4e455008f017967bf', 'data', 'spec_bench');
  mkdirSync(spec, { recursive: true });
  writeFileSync(
    join(spec, 'question.jsonl'),
    `${JSON.stringify({ question_id: 81, category: 'writing', turns: ['Compose a travel blog post.', 'Rewrite it with every sentence starting with A.'] })}\n${JSON.stringify({ question_id: 82, category: 'qa', turns: [''] })}\n`,
  );
}

beforeAll(async () => {
  tok = await loadTokenizer();
  home = tmpDir();
  process.env.HF_HOME = home;
  delete process.env.HF_HUB_CACHE;
  fillCache(join(home, 'hub'));
});

async function load(flags: ProfileFlags) {
  return loadSource(tok, { 'request-count': 100, ...flags });
}

async function prompts(name: string, n: number, flags: ProfileFlags = {}) {
  const { source, warnings } = await load({ 'public-dataset': name, ...flags });
  return { convs: take(source, n), size: source.size, warnings };
}

describe('--public-dataset', () => {
  it('sharegpt: as vLLM samples it: messages [0] and [1] of conversations with two or more, prompt ≥ 4 tokens, ≤ 1024, sum ≤ 2048', async () => {
    const { convs, size, warnings } = await prompts('sharegpt', 2);
    expect(size).toBe(2);
    expect(convs.map((c) => c.turns[0].prompt)).toEqual([HASH_MAP_Q, GPT_FIRST]);
    expect(convs[0].turns[0].max_tokens).toBe(tok.count(HASH_MAP_A));
    expect(convs[0].turns[0].isl).toBe(tok.count(HASH_MAP_Q));
    expect(warnings.join('\n')).toContain('skipped 3 rows');
  });

  it('aimo (own Parquet), aimo_aime (converted Parquet), aimo_numina_cot (two shards), aimo_numina_1_5 (GZIP pages): the problem column', async () => {
    expect((await prompts('aimo', 2, { osl: 64 })).convs.map((c) => [c.turns[0].prompt, c.turns[0].max_tokens])).toEqual([
      ['What is 2 + 3?', 64],
      ['Find x if 2x = 10.', 64],
    ]);
    expect((await prompts('aimo_aime', 1)).convs[0].turns[0]).toMatchObject({ prompt: 'Every morning Aya walks 9 km.', max_tokens: 64 }); // --osl's default, as for every file without lengths;
    const cot = await prompts('aimo_numina_cot', 2);
    expect(cot.size).toBe(2);
    expect(cot.convs.map((c) => c.turns[0].prompt)).toEqual(['What is 2 + 3?', 'Find x if 2x = 10.']);
    expect((await prompts('aimo_numina_1_5', 1)).convs[0].turns[0].prompt).toBe('Prove that 1 = 1.');
  });

  it('mmstar: the question, and its Image feature sent as a data URL on the turn', async () => {
    const t = (await prompts('mmstar', 1)).convs[0].turns[0];
    expect(t.prompt).toBe('Which option describes the object? A: a ball B: a cube');
    expect(t.media).toEqual({ images: [PNG_URL] });
  });

  it("mmvu: the question and its non-empty choices, as AIPerf's MMVU loader joins them", async () => {
    expect((await prompts('mmvu', 1)).convs[0].turns[0].prompt).toBe('What moves first? A.the ball B.the cube C.nothing');
  });

  it("vision_arena (list-of-lists turns) and llava_onevision (<image> token dropped, subset's own files): the first message and first image", async () => {
    const va = await prompts('vision_arena', 1);
    expect(va.size).toBe(1);
    expect(va.convs[0].turns[0]).toMatchObject({ prompt: 'What breed is this dog?', media: { images: [PNG_URL] } });
    const ll = await prompts('llava_onevision', 1);
    expect(ll.size).toBe(1);
    expect(ll.convs[0].turns[0]).toMatchObject({ prompt: 'Describe the image in detail.', media: { images: [PNG_URL] } });
  });

  it('speed_bench: every turn a user turn; a category keeps its rows; placeholder rows are skipped', async () => {
    const coding = await prompts('speed_bench_coding', 1);
    expect(coding.size).toBe(1);
    expect(coding.convs[0].turns.map((t) => t.prompt)).toEqual(['Write a function that reverses a list.', 'Now make it work in place.']);
    expect((await prompts('speed_bench_qualitative', 2)).size).toBe(2);
    expect((await prompts('speed_bench_throughput_1k_low_entropy', 1)).convs[0].turns[0].prompt).toBe('A low-entropy prompt.');
    expect((await prompts('speed_bench_throughput_1k', 2)).size).toBe(2);
  });

  it('spec_bench (GitHub file), instruct_coder, blazedit_5k/10k', async () => {
    const spec = await prompts('spec_bench', 1);
    expect(spec.size).toBe(1);
    expect(spec.convs[0].turns.map((t) => t.prompt)).toEqual(['Compose a travel blog post.']);
    expect((await prompts('instruct_coder', 1)).convs[0].turns[0].prompt).toBe('Add type hints to the function.');
    expect((await prompts('blazedit_5k', 1)).convs[0].turns[0].prompt).toBe('Rename the variable a to total.');
    expect((await prompts('blazedit_10k', 1)).convs[0].turns[0].prompt).toBe('Extract the loop into a helper.');
  });

  it("burstgpt: vLLM's GPT-4 rows with a response; prompts synthesized to Request tokens, max_tokens Response tokens", async () => {
    const { convs, size } = await prompts('burstgpt', 2);
    expect(size).toBe(2);
    expect(convs.map((c) => [c.turns[0].isl, c.turns[0].max_tokens])).toEqual([
      [120, 45],
      [64, 16],
    ]);
    for (const c of convs) expect(tok.count(c.turns[0].prompt)).toBe(c.turns[0].isl);
  });

  it('reads only the rows a sequential --request-count run draws', async () => {
    const { source } = await loadSource(tok, { 'public-dataset': 'aimo', 'request-count': 1 });
    expect(source.size).toBe(1);
  });

  it('every entry is declared once, and isCached sees the copies made above', () => {
    expect(new Set(PUBLIC_DATASETS.map((d) => d.name)).size).toBe(PUBLIC_DATASETS.length);
    for (const name of ['sharegpt', 'aimo', 'aimo_aime', 'mmstar', 'llava_onevision', 'speed_bench_coding', 'spec_bench', 'burstgpt'])
      expect(isCached(publicDataset(name)!), name).toBe(true);
    expect(isCached(publicDataset('speed_bench_throughput_32k')!)).toBe(false);
  });
});

describe('--hf-dataset', () => {
  it('a repo without data files of its own: its converted Parquet, the prompt column found by name', async () => {
    const { source } = await load({ 'hf-dataset': 'test-org/qa', 'hf-split': 'test' });
    expect(source.next().turns[0].prompt).toBe('Why is the sky blue?');
  });

  it("a repo's own JSONL, with --hf-output-len-column and --hf-revision", async () => {
    const { source } = await load({ 'hf-dataset': 'test-org/lines', 'hf-output-len-column': 'output_len' });
    expect(take(source, 2).map((c) => [c.turns[0].prompt, c.turns[0].max_tokens])).toEqual([
      ['First line prompt.', 12],
      ['Second line prompt.', 7],
    ]);
    const v2 = await load({ 'hf-dataset': 'test-org/lines', 'hf-revision': 'v2' });
    expect(v2.source.next().turns[0].prompt).toBe('The v2 prompt.');
  });

  it("a repo's own CSV, with --hf-prompt-column", async () => {
    const { source } = await load({ 'hf-dataset': 'test-org/table', 'hf-prompt-column': 'text', 'hf-output-len-column': 'target_tokens' });
    expect(take(source, 2).map((c) => [c.turns[0].prompt, c.turns[0].max_tokens])).toEqual([
      ['A prompt, with a comma.', 21],
      ['Another prompt.', 5],
    ]);
  });

  it('a prompt column the data lacks: one line naming it and the columns there are', async () => {
    const err = await load({ 'hf-dataset': 'test-org/table', 'hf-prompt-column': 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as Error).message).toBe(
      '--hf-prompt-column: column "nope" is not in test-org/table@main:train; its columns: text, target_tokens',
    );
  });

  it('a split that is not there: names the subset/splits there are', async () => {
    const err = await load({ 'hf-dataset': 'test-org/qa', 'hf-split': 'validation' }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      'test-org/qa: no default/validation in its own files or its converted Parquet; there are: default/test',
    );
  });

  it('a dataset not in the cache, offline: one line from src/hub naming it and HF_HUB_OFFLINE', async () => {
    const err = await load({ 'hf-dataset': 'test-org/absent' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServebenchError);
    expect((err as ServebenchError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/HF_HUB_OFFLINE.*test-org\/absent/);
  });
});

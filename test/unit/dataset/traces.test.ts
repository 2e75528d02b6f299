// Production traces (issue 32, section 4): BurstGPT and Azure CSVs, Bailian JSONL, each in the
// publisher's exact columns; token lengths honoured exactly, a model column picking the run's model,
// Bailian parent links as sessions, --fixed-schedule-speedup; bad input is one line, exit code 2.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidFileError } from '../../../src/errors.js';
import { parseAzureTime } from '../../../src/dataset/traces/azure.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { tmpDir } from '../../helpers/cli.js';
import { loadSource, take } from './helpers.js';

let tok: TextTokenizer;
let dir: string;
beforeAll(async () => {
  tok = await loadTokenizer();
  dir = tmpDir();
});

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function failure(flags: Record<string, unknown>): Promise<Error> {
  try {
    await loadSource(tok, flags);
  } catch (err) {
    return err as Error;
  }
  throw new Error('loaded without an error');
}

const BURST = [
  'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type',
  '5,ChatGPT,472,18,490,Conversation log',
  '45,ChatGPT,1087,230,1317,Conversation log',
  '118,GPT-4,417,276,693,Conversation log',
  '120,GPT-4,300,0,300,API log',
  '130.5,ChatGPT,33,7,40,API log',
].join('\r\n');

describe('burst_gpt_trace', () => {
  it('replays every request at its Timestamp with its exact token lengths; failed rows are skipped with one warning', async () => {
    const file = write('burst.csv', BURST);
    const { source, warnings } = await loadSource(tok, { 'input-file': file, 'custom-dataset-type': 'burst_gpt_trace' });
    expect(source.kind).toBe('burst_gpt_trace');
    expect(source.hasTimestamps).toBe(true);
    expect(source.size).toBe(4);
    const turns = take(source, 4).map((c) => c.turns[0]);
    expect(turns.map((t) => t.timestamp_ms)).toEqual([5000, 45000, 118000, 130500]);
    expect(turns.map((t) => t.max_tokens)).toEqual([18, 230, 276, 7]);
    expect(turns.map((t) => tok.count(t.prompt))).toEqual([472, 1087, 417, 33]);
    expect(turns.map((t) => t.model)).toEqual([undefined, undefined, undefined, undefined]);
    expect(warnings).toEqual([`${file}: skipped 1 row with 0 request or response tokens (failed requests in BurstGPT)`]);
  });

  it('the Model column picks among several --model names (a name that is one of them goes there)', async () => {
    const file = write('burst-models.csv', BURST);
    const { source } = await loadSource(tok, { 'input-file': file, 'custom-dataset-type': 'burst_gpt_trace', model: 'small,GPT-4' });
    expect(take(source, 4).map((c) => c.turns[0].model)).toEqual(['small', 'small', 'GPT-4', 'small']);
    const { source: two } = await loadSource(tok, { 'input-file': file, 'custom-dataset-type': 'burst_gpt_trace', model: 'a,b' });
    expect(take(two, 4).map((c) => c.turns[0].model)).toEqual(['a', 'a', 'b', 'a']);
  });

  it('--fixed-schedule-speedup 2 halves the times, 0.5 doubles them', async () => {
    const file = write('burst-speed.csv', BURST);
    const at = async (x: number) =>
      take(
        (await loadSource(tok, { 'input-file': file, 'custom-dataset-type': 'burst_gpt_trace', 'fixed-schedule-speedup': x })).source,
        4,
      ).map((c) => c.turns[0].timestamp_ms);
    expect(await at(2)).toEqual([2500, 22500, 59000, 65250]);
    expect(await at(0.5)).toEqual([10000, 90000, 236000, 261000]);
  });

  it('a missing column: one line naming the file and the publisher columns', async () => {
    const file = write('burst-bad.csv', 'Timestamp,Model,Request tokens,Total tokens\n5,ChatGPT,472,490\n');
    const err = await failure({ 'input-file': file, 'custom-dataset-type': 'burst_gpt_trace' });
    expect(err).toBeInstanceOf(InvalidFileError);
    expect((err as InvalidFileError).exitCode).toBe(2);
    expect(err.message).toBe(
      `${file}:1: missing column "Response tokens" (BurstGPT traces have the columns Timestamp, Model, Request tokens, Response tokens, Total tokens, Log Type; found "Timestamp", "Model", "Request tokens", "Total tokens")`,
    );
  });

  it('a bad value names its line and column', async () => {
    const file = write(
      'burst-value.csv',
      'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n5,ChatGPT,472,18,490,x\n6,ChatGPT,ten,18,490,x\n',
    );
    const err = await failure({ 'input-file': file, 'custom-dataset-type': 'burst_gpt_trace' });
    expect(err.message).toBe(`${file}:3: column "Request tokens" must be a non-negative integer number, got "ten"`);
  });
});

describe('azure_llm_trace', () => {
  it('2023 (7 fractional digits) and 2024 (with a UTC offset): offsets from the earliest request, exact lengths', async () => {
    const y2023 = write(
      'AzureLLMInferenceTrace_conv.csv',
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:50.9951690,396,109\n2023-11-16 18:15:51.0000000,879,0\n',
    );
    const { source, warnings } = await loadSource(tok, { 'input-file': y2023, 'custom-dataset-type': 'azure_llm_trace' });
    const turns = take(source, 2).map((c) => c.turns[0]);
    expect(turns[0].timestamp_ms).toBe(0);
    expect(turns[1].timestamp_ms).toBeCloseTo(4314.579, 3);
    expect(turns.map((t) => [tok.count(t.prompt), t.max_tokens])).toEqual([
      [374, 44],
      [396, 109],
    ]);
    expect(warnings).toEqual([`${y2023}: skipped 1 row with 0 context or generated tokens`]);

    const y2024 = write(
      'AzureLLMInferenceTrace_code_1week.csv',
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2024-05-10 00:00:00.0093190+00:00,2048,28\n2024-05-10 00:00:01.5093190+00:00,1500,10\n',
    );
    const t2024 = take((await loadSource(tok, { 'input-file': y2024, 'custom-dataset-type': 'azure_llm_trace' })).source, 2);
    expect(t2024.map((c) => c.turns[0].timestamp_ms)).toEqual([0, 1500]);
  });

  it('parses the date-times to the microsecond, with or without a zone', () => {
    expect(parseAzureTime('2023-11-16 18:15:46.6805900')).toBeCloseTo(Date.UTC(2023, 10, 16, 18, 15, 46) + 680.59, 3);
    expect(parseAzureTime('2024-05-10 02:00:00+02:00')).toBe(Date.UTC(2024, 4, 10));
    expect(parseAzureTime('yesterday')).toBeNull();
  });

  it('a TIMESTAMP that is not a date-time names its line', async () => {
    const file = write('azure-bad.csv', 'TIMESTAMP,ContextTokens,GeneratedTokens\n12:00,5,5\n');
    const err = await failure({ 'input-file': file, 'custom-dataset-type': 'azure_llm_trace' });
    expect(err.message).toBe(`${file}:2: column "TIMESTAMP" must be a date-time like 2023-11-16 18:15:46.6805900, got "12:00"`);
  });
});

describe('bailian_trace', () => {
  const rows = [
    { chat_id: 159, parent_chat_id: -1, timestamp: 61.114, input_length: 521, output_length: 132, type: 'text', turn: 1, hash_ids: [1, 2] },
    { chat_id: 160, parent_chat_id: -1, timestamp: 61.5, input_length: 100, output_length: 20, type: 'search', turn: 1 },
    { chat_id: 161, parent_chat_id: 159, timestamp: 70, input_length: 700, output_length: 50, type: 'text', turn: 2 },
    { chat_id: 162, parent_chat_id: 161, timestamp: 80.25, input_length: 800, output_length: 5, type: 'text', turn: 3 },
  ];

  it('parent links become sessions, sent in turn order; a later turn adds what the trace adds to its history', async () => {
    const file = write('bailian.jsonl', rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { source } = await loadSource(tok, { 'input-file': file, 'custom-dataset-type': 'bailian_trace' });
    expect(source.kind).toBe('bailian_trace');
    expect(source.size).toBe(2);
    const [a, b] = take(source, 2);
    expect(a.turns.map((t) => t.timestamp_ms)).toEqual([61114, 70000, 80250]);
    expect(a.turns.map((t) => t.max_tokens)).toEqual([132, 50, 5]);
    // 521; 700 − (521 + 132) = 47; 800 − (700 + 50) = 50.
    expect(a.turns.map((t) => tok.count(t.prompt))).toEqual([521, 47, 50]);
    expect(b.turns.map((t) => [t.timestamp_ms, tok.count(t.prompt), t.max_tokens])).toEqual([[61500, 100, 20]]);
  });

  it('is guessed from chat_id and parent_chat_id', async () => {
    const file = write('bailian-guess.jsonl', rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    expect((await loadSource(tok, { 'input-file': file })).source.kind).toBe('bailian_trace');
  });

  it('a missing field names its line', async () => {
    const file = write('bailian-bad.jsonl', `${JSON.stringify(rows[0])}\n${JSON.stringify({ ...rows[1], output_length: undefined })}\n`);
    const err = await failure({ 'input-file': file, 'custom-dataset-type': 'bailian_trace' });
    expect(err).toBeInstanceOf(InvalidFileError);
    expect(err.message).toBe(`${file}:2: missing required field "output_length"`);
  });
});

describe('--fixed-schedule-speedup, bad values', () => {
  it.each([0, -1, Number.NaN])('%s is refused with one line', async (x) => {
    const file = write('speed.csv', BURST);
    const err = await failure({ 'input-file': file, 'custom-dataset-type': 'burst_gpt_trace', 'fixed-schedule-speedup': x });
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err.message).toBe(`--fixed-schedule-speedup: expected a number above 0, got ${x}`);
  });

  it('a dataset without timestamps has nothing to speed up', async () => {
    const file = write('plain.jsonl', '{"text": "hi"}\n');
    const err = await failure({ 'input-file': file, 'fixed-schedule-speedup': 2 });
    expect(err.message).toBe(`--fixed-schedule-speedup: the dataset ${file} has no timestamps to replay`);
  });
});

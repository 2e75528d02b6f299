// Production traces replayed on schedule against the mock (issue 32, section 4), checked from the
// mock's own request log: each format as a small file in its publisher's exact columns; arrivals at
// the trace's offsets (scaled by --fixed-schedule-speedup), each request with the trace's token
// lengths, BurstGPT's Model column picking the model, Bailian's parent links as sessions.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { loadTokenizer } from '../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../src/tokenizer/types.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

// The replay tests' stated tolerance (test/integration/replay.test.ts): within 15 ms of the trace offset.
const TOLERANCE_MS = 15;

interface Logged {
  ts_ns: number;
  path: string;
  body: { model?: string; messages?: { role: string; content: string }[]; max_tokens?: number };
}

let mock: SpawnedMock;
let log: string;
let work: string;
let tok: TextTokenizer;

beforeAll(async () => {
  work = tmpDir();
  log = path.join(work, 'requests.jsonl');
  tok = await loadTokenizer();
  mock = await spawnMock(['--ttft-ms', '2', '--itl-ms', '1', '--record-requests', log]);
});
afterAll(async () => {
  await mock?.stop();
});

/** Runs the trace against the mock; the requests it logged, in arrival order. */
async function replay(file: string, type: string, extra: string[] = []): Promise<{ sent: Logged[]; dir: string }> {
  fs.writeFileSync(log, '');
  const dir = tmpDir();
  const r = await runCli([
    'profile',
    '--url',
    mock.url,
    '--input-file',
    file,
    '--custom-dataset-type',
    type,
    '--fixed-schedule-auto-offset',
    '--artifact-dir',
    dir,
    '--ui',
    'none',
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const sent = readJsonl(log)
    .filter((x: Logged) => x.path.endsWith('/completions'))
    .sort((a: Logged, b: Logged) => a.ts_ns - b.ts_ns);
  return { sent, dir };
}

/** Arrivals against the expected offsets, the origin being the median shift (a late first request moves nothing). */
function expectOnSchedule(sent: Logged[], offsets: number[]): void {
  expect(sent).toHaveLength(offsets.length);
  const shifts = sent.map((x, i) => x.ts_ns / 1e6 - offsets[i]).sort((a, b) => a - b);
  const origin = shifts[Math.floor(shifts.length / 2)];
  sent.forEach((x, i) => {
    const at = x.ts_ns / 1e6 - origin;
    expect(Math.abs(at - offsets[i]), `request ${i} at ${at.toFixed(1)} ms, trace says ${offsets[i]}`).toBeLessThan(TOLERANCE_MS);
  });
}

const lastUser = (x: Logged) => x.body.messages!.filter((m) => m.role === 'user').at(-1)!.content;

describe('trace replay against the mock', () => {
  it('BurstGPT: on its Timestamps, exact lengths, the Model column picks the model', async () => {
    const file = path.join(work, 'BurstGPT_1.csv');
    fs.writeFileSync(
      file,
      [
        'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type',
        '10,ChatGPT,120,8,128,Conversation log',
        '10.1,GPT-4,64,4,68,Conversation log',
        '10.25,ChatGPT,200,6,206,API log',
        '10.4,GPT-4,90,5,95,Conversation log',
        '10.6,ChatGPT,30,3,33,API log',
      ].join('\n') + '\n',
    );
    const { sent, dir } = await replay(file, 'burst_gpt_trace', ['--model', 'chat-model,gpt4-model']);
    expectOnSchedule(sent, [0, 100, 250, 400, 600]);
    expect(sent.map((x) => x.body.model)).toEqual(['chat-model', 'gpt4-model', 'chat-model', 'gpt4-model', 'chat-model']);
    expect(sent.map((x) => x.body.max_tokens)).toEqual([8, 4, 6, 5, 3]);
    expect(sent.map((x) => tok.count(lastUser(x)))).toEqual([120, 64, 200, 90, 30]);
    const j = readJson(path.join(dir, 'profile_export.json'));
    expect(j.load_mode).toBe('fixed_schedule');
    expect(j.counts).toEqual({ issued: 5, succeeded: 5, errored: 0, cancelled: 0 });
  });

  it('Azure 2023: on its TIMESTAMPs, exact lengths', async () => {
    const file = path.join(work, 'AzureLLMInferenceTrace_conv.csv');
    fs.writeFileSync(
      file,
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.1000000,300,7\n2023-11-16 18:15:46.2500000,150,4\n2023-11-16 18:15:46.5000000,80,9\n',
    );
    const { sent } = await replay(file, 'azure_llm_trace');
    expectOnSchedule(sent, [0, 150, 400]);
    expect(sent.map((x) => [tok.count(lastUser(x)), x.body.max_tokens])).toEqual([
      [300, 7],
      [150, 4],
      [80, 9],
    ]);
  });

  it('Azure 2024 with --fixed-schedule-speedup 2: the schedule in half the time', async () => {
    const file = path.join(work, 'AzureLLMInferenceTrace_code_1week.csv');
    fs.writeFileSync(
      file,
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2024-05-10 00:00:00.0093190+00:00,100,4\n2024-05-10 00:00:00.4093190+00:00,100,4\n2024-05-10 00:00:01.0093190+00:00,100,4\n',
    );
    const { sent } = await replay(file, 'azure_llm_trace', ['--fixed-schedule-speedup', '2']);
    expectOnSchedule(sent, [0, 200, 500]);
  });

  it('Bailian with --fixed-schedule-speedup 0.5: sessions from parent links, twice the time, history carried', async () => {
    const file = path.join(work, 'qwen_traceA_blksz_16.jsonl');
    const rows = [
      { chat_id: 1, parent_chat_id: -1, timestamp: 0, input_length: 64, output_length: 4, type: 'text', turn: 1 },
      { chat_id: 2, parent_chat_id: -1, timestamp: 0.05, input_length: 32, output_length: 4, type: 'search', turn: 1 },
      { chat_id: 3, parent_chat_id: 1, timestamp: 0.15, input_length: 100, output_length: 4, type: 'text', turn: 2 },
      { chat_id: 4, parent_chat_id: 3, timestamp: 0.3, input_length: 150, output_length: 4, type: 'text', turn: 3 },
    ];
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { sent } = await replay(file, 'bailian_trace', ['--fixed-schedule-speedup', '0.5']);
    expectOnSchedule(sent, [0, 100, 300, 600]);
    // Session 1: its turns carry the history (user, assistant, user, …); session 2 stands alone.
    expect(sent.map((x) => x.body.messages!.length)).toEqual([1, 1, 3, 5]);
    // New messages: 64; 100 − (64 + 4) = 32; 150 − (100 + 4) = 46.
    expect(sent.map((x) => tok.count(lastUser(x)))).toEqual([64, 32, 32, 46]);
  });
});

// --tokenizer server against the mock as its own process, counting with its own tokenizer
// (--tokenizer-kind words, unlike cl100k): every synthetic prompt is exactly its ISL under the
// mock's tokenizer, OSL equals the mock's count, and the run makes no tokenize request per prompt.
// The same mock counted with the default cl100k gives the one-line note at start and the
// mismatch warning at the end; a server without a tokenize endpoint gives one line and exit 2.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWords } from '../../src/mock/words.js';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');

let mock: SpawnedMock;
let requestsFile: string;

beforeAll(async () => {
  requestsFile = path.join(tmpDir(), 'requests.jsonl');
  mock = await spawnMock(['--tokenizer-kind', 'words', '--ttft-ms', '2', '--itl-ms', '0', '--record-requests', requestsFile]);
});

afterAll(async () => {
  await mock?.stop();
});

function profile(dir: string, extra: string[]) {
  return runCli([
    'profile',
    '--url',
    mock.url,
    '--model',
    'mock-model',
    '--request-count',
    '30',
    '--concurrency',
    '4',
    '--isl',
    '60',
    '--isl-stddev',
    '15',
    '--osl',
    '24',
    '--record-workers',
    '1',
    '--export-level',
    'records',
    '--artifact-dir',
    dir,
    '--ui',
    'none',
    ...extra,
  ]);
}

describe('--tokenizer server', () => {
  it('prompts are exactly ISL and outputs exactly the mock count, with no tokenize request per prompt', async () => {
    const dir = tmpDir();
    const r = await profile(dir, ['--tokenizer', 'server']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/tokenizer: the server's, through vllm POST \/tokenize/);
    expect(r.stderr).not.toMatch(/tokenizer mismatch|approximate/);
    expect(readJson(path.join(dir, 'profile_export.json')).tokenizer).toBe('server (vllm /tokenize)');

    const recs = readJsonl(path.join(dir, 'records.jsonl'));
    expect(recs).toHaveLength(30);
    const isl = new Map<string, number>();
    for (const rec of recs) {
      expect(rec.status).toBe('ok');
      const m = rec.metrics;
      expect(m.input_sequence_length.value).toBe(m.usage_prompt_tokens.value);
      expect(m.output_sequence_length.value).toBe(m.usage_completion_tokens.value);
      expect(m.output_sequence_length.value).toBe(24);
      isl.set(rec.x_request_id, m.input_sequence_length.value);
    }
    // The ISLs vary (--isl-stddev), and each prompt the mock received counts exactly its ISL.
    expect(new Set(isl.values()).size).toBeGreaterThan(3);
    const sent = readJsonl(requestsFile);
    const chats = sent.filter((q) => q.path === '/v1/chat/completions' && isl.has(q.headers['x-request-id']));
    expect(chats).toHaveLength(30);
    for (const q of chats) expect(countWords(q.body.messages[0].content)).toBe(isl.get(q.headers['x-request-id']));

    // Calibration happened before the first generation; afterwards only a sample of outputs was
    // sent to /tokenize (then the server's usage agreed and was trusted).
    const first = sent.findIndex((q) => q.path === '/v1/chat/completions');
    const before = sent.slice(0, first).filter((q) => q.path === '/tokenize').length;
    const after = sent.slice(first).filter((q) => q.path === '/tokenize').length;
    expect(before).toBeGreaterThan(100);
    expect(after).toBeLessThan(20);
  });

  it('against the built-in mock, which it starts with its words tokenizer', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--tokenizer',
      'server',
      '--request-count',
      '4',
      '--isl',
      '40',
      '--osl',
      '6',
      '--export-level',
      'records',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    for (const rec of readJsonl(path.join(dir, 'records.jsonl'))) {
      expect(rec.metrics.input_sequence_length.value).toBe(40);
      expect(rec.metrics.usage_prompt_tokens.value).toBe(40);
      expect(rec.metrics.output_sequence_length.value).toBe(rec.metrics.usage_completion_tokens.value);
    }
  });

  it('a server without a tokenize endpoint: one line, exit 2', async () => {
    const plain = await spawnMock(['--ttft-ms', '1', '--itl-ms', '0']);
    try {
      const dir = tmpDir();
      const r = await runCli(['profile', '--url', plain.url, '--tokenizer', 'server', '--request-count', '2', '--artifact-dir', dir]);
      expect(r.code).toBe(2);
      expect(lines(r.stderr), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(/--tokenizer server: http:\/\/127\.0\.0\.1:\d+ offers no tokenize endpoint/);
    } finally {
      await plain.stop();
    }
  });
});

describe('the default tokenizer (cl100k) against a server with another tokenizer', () => {
  it('says in one line at start that counts are approximate, and at the end names the mismatch, without advising ignore_eos again', async () => {
    const dir = tmpDir();
    const r = await profile(dir, ['--extra-inputs', 'ignore_eos:true', '--extra-inputs', 'min_tokens:24']);
    expect(r.code, r.stderr).toBe(0);
    const note = lines(r.stderr).filter((l) => /approximate/.test(l));
    expect(note).toHaveLength(1);
    expect(note[0]).toMatch(
      /--model mock-model is not a Hugging Face Hub id \(org\/name\) and the cache holds no tokenizer for it; counting with cl100k/,
    );
    expect(note[0]).toMatch(/--tokenizer server, or --use-server-token-count/);
    const warnings = lines(r.stderr).filter((l) => /warning: .*tokenizer mismatch/.test(l));
    // The usage discrepancy and the OSL mismatch each name it; neither advises an --extra-inputs the run has.
    expect(warnings).toHaveLength(2);
    for (const w of warnings) {
      expect(w).toContain('--tokenizer server');
      expect(w).toContain('--use-server-token-count');
      expect(w).not.toMatch(/pass --extra-inputs/);
    }
  });
});

// embeddings, rankings, Responses and Anthropic Messages against the mock, on both transports:
// each has the metrics its type must have and none it must not; a malformed event is a parse_error
// record and the run goes on; a path the server does not serve is bad input before the run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { expectRunInvariants } from '../helpers/hostile.js';
import { postJson, spawnMock, type SpawnedMock } from '../helpers/mock.js';
import { rankingsAdapter } from '../../src/endpoints/rankings.js';

const TRANSPORTS = ['native', 'undici'] as const;
const SECRET = 'sk-ant-endpoint-secret-4417';
const TTFT_MS = 15;

let mock: SpawnedMock;
let faulty: SpawnedMock;
let log: string;

beforeAll(async () => {
  log = path.join(tmpDir(), 'requests.jsonl');
  [mock, faulty] = await Promise.all([
    spawnMock(['--ttft-ms', String(TTFT_MS), '--itl-ms', '2', '--reasoning-tokens', '2', '--record-requests', log]),
    spawnMock(['--ttft-ms', '2', '--itl-ms', '1', '--fail-every', '2', '--fail-mode', 'malformed']),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.stop(), faulty?.stop()]);
});

async function run(url: string, transport: string, args: string[]) {
  const dir = tmpDir();
  const r = await runCli([
    'profile',
    '--url',
    url,
    '--model',
    'm',
    '--transport',
    transport,
    '--request-count',
    '6',
    '--concurrency',
    '2',
    '--isl',
    '16',
    '--osl',
    '6',
    '--artifact-dir',
    dir,
    '--ui',
    'none',
    '--no-server-metrics',
    '--record-workers',
    '1',
    ...args,
  ]);
  return { r, dir };
}

/** Both transports' runs of the same flags, each checked for the run invariants. */
async function both(args: string[], secrets: string[] = []) {
  const runs = await Promise.all(TRANSPORTS.map((t) => run(mock.url, t, args)));
  return runs.map(({ r, dir }) => expectRunInvariants(r, dir, { secrets }));
}

function osls(recs: any[]): number[] {
  return recs.map((x) => x.metrics.output_sequence_length?.value).sort();
}

// Each case runs two CLIs at once; on a loaded machine one takes tens of seconds.
describe('endpoint types against the mock, both transports', { timeout: 150_000 }, () => {
  it('embeddings: a batch per request, latency and throughput, input tokens; no TTFT, ITL or output tokens', async () => {
    for (const { json } of await both(['--endpoint-type', 'embeddings', '--batch-size-text', '4'])) {
      expect(json.counts).toMatchObject({ issued: 6, succeeded: 6 });
      expect(json.metrics.request_latency.p50).toBeGreaterThanOrEqual(TTFT_MS);
      expect(json.metrics.request_throughput.avg).toBeGreaterThan(0);
      expect(json.metrics.input_sequence_length.avg).toBe(64);
      for (const tag of ['time_to_first_token', 'inter_token_latency', 'output_sequence_length', 'output_token_throughput'])
        expect(json.metrics[tag], tag).toBeUndefined();
    }
    const sent = readJsonl(log).filter((l) => l.path === '/v1/embeddings' && Array.isArray(l.body?.input));
    expect(sent.length).toBeGreaterThanOrEqual(12);
    for (const l of sent) expect(l.body.input).toHaveLength(4);
  });

  it('rankings: query + passages, latency; no TTFT (cohere on native, tei on undici)', async () => {
    const flavors = ['cohere', 'tei'];
    const runs = await Promise.all(
      flavors.map((flavor, i) =>
        run(mock.url, TRANSPORTS[i], [
          '--endpoint-type',
          'rankings',
          '--rankings-flavor',
          flavor,
          '--rankings-passages',
          '3',
          '--rankings-passage-length',
          '10',
        ]),
      ),
    );
    for (const { r, dir } of runs) {
      const { json } = expectRunInvariants(r, dir);
      expect(json.counts).toMatchObject({ issued: 6, succeeded: 6 });
      expect(json.metrics.request_latency.p50).toBeGreaterThanOrEqual(TTFT_MS);
      expect(json.metrics.input_sequence_length.avg).toBe(16 + 3 * 10);
      expect(json.metrics.time_to_first_token).toBeUndefined();
      expect(json.metrics.output_sequence_length).toBeUndefined();
    }
    const sent = readJsonl(log).filter((l) => l.path === '/rerank' || l.path === '/v1/rerank');
    expect(sent.some((l) => Array.isArray(l.body?.texts) && l.body.texts.length === 3)).toBe(true);
    expect(sent.some((l) => Array.isArray(l.body?.documents) && l.body.top_n === 3)).toBe(true);
  });

  it("the mock's vLLM /rerank and /score answer as vLLM does, and the adapter reads them", async () => {
    const rerank = await postJson(`${mock.url}/rerank`, { model: 'm', query: 'q', documents: ['a', 'b'] });
    expect(rerank.status).toBe(200);
    expect(rerank.json).toMatchObject({
      results: [{ index: expect.any(Number), relevance_score: expect.any(Number) }, {}],
      usage: { total_tokens: expect.any(Number) },
    });
    const score = await postJson(`${mock.url}/score`, { model: 'm', text_1: 'q', text_2: ['a', 'b', 'c'] });
    expect(score.status).toBe(200);
    expect((score.json as { data: unknown[] }).data).toHaveLength(3);
    for (const b of [rerank, score]) expect(rankingsAdapter.parse(b.text)).toMatchObject({ kind: 'data' });
  });

  it.each([
    ['responses', []],
    ['messages', ['--api-key', SECRET]],
  ])('%s streaming: TTFT, ITL, reasoning and usage, the same records on both transports', async (type, extra) => {
    const results = await both(['--endpoint-type', type, '--use-server-token-count', ...extra], [SECRET]);
    for (const { json, recs } of results) {
      expect(json.counts).toMatchObject({ issued: 6, succeeded: 6 });
      expect(json.metrics.time_to_first_token.p50).toBeGreaterThanOrEqual(TTFT_MS);
      expect(json.metrics.inter_token_latency.avg).toBeGreaterThan(0);
      // The server's usage: 6 content + the mock's 2 reasoning tokens; only Responses reports the reasoning apart.
      for (const rec of recs) expect(rec.metrics.output_sequence_length.value).toBe(8);
      expect(json.metrics.usage_reasoning_tokens?.avg).toBe(type === 'responses' ? 2 : undefined);
      expect(json.metrics.input_sequence_length.avg).toBeGreaterThan(0);
    }
    expect(osls(results[0].recs)).toEqual(osls(results[1].recs));
  });

  it('responses (native) and messages (undici) non-streaming: latency and output tokens; no TTFT', async () => {
    const runs = await Promise.all(
      ['responses', 'messages'].map((type, i) => run(mock.url, TRANSPORTS[i], ['--endpoint-type', type, '--no-streaming'])),
    );
    for (const { r, dir } of runs) {
      const { json } = expectRunInvariants(r, dir);
      expect(json.counts).toMatchObject({ issued: 6, succeeded: 6 });
      expect(json.metrics.request_latency.p50).toBeGreaterThanOrEqual(TTFT_MS);
      expect(json.metrics.output_sequence_length.avg).toBeGreaterThan(0);
      expect(json.metrics.time_to_first_token).toBeUndefined();
    }
  });

  it('messages sends anthropic-version (the key as x-api-key, which the mock never logs)', () => {
    const sent = readJsonl(log).filter((l) => l.path === '/v1/messages');
    expect(sent.length).toBeGreaterThan(0);
    for (const l of sent) {
      expect(l.headers['anthropic-version']).toBe('2023-06-01');
      expect(l.headers.authorization).toBeUndefined();
    }
    expect(fs.readFileSync(log, 'utf8').includes(SECRET)).toBe(false);
  });

  it.each(['responses', 'messages'])('%s: a malformed event is a parse_error record, and the run goes on', async (type) => {
    const runs = await Promise.all(TRANSPORTS.map((t) => run(faulty.url, t, ['--endpoint-type', type])));
    for (const { r, dir } of runs) {
      const { json, recs } = expectRunInvariants(r, dir);
      // Both runs share the mock's every-second-request fault, so the split between them varies.
      expect(json.counts.issued).toBe(6);
      expect(json.counts.errored).toBeGreaterThan(0);
      expect(json.counts.succeeded).toBeGreaterThan(0);
      for (const rec of recs.filter((x) => x.status === 'error')) expect(rec.error.type).toBe('parse_error');
    }
  });

  it('a type whose path the server does not serve: one line, exit 2, before the run', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      '--url',
      mock.url,
      '--model',
      'm',
      '--endpoint-type',
      'embeddings',
      '--endpoint',
      '/v2/nowhere',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--endpoint-type embeddings: the server does not serve POST \/v2\/nowhere \(HTTP 404\)/);
    expect(fs.existsSync(path.join(dir, 'records.jsonl'))).toBe(false);
  });
});

// The mock as a real process: endpoints, OpenAI shapes, exact lengths, usage, request log, CLI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVEBENCH_BIN } from '../../src/mock/spawn.js';
import { countTokens, getJson, postJson, postSse, spawnMock, streamedContent, type SpawnedMock } from '../helpers/mock.js';

const fast = ['--ttft-ms', '0', '--itl-ms', '0'];
const messages = [{ role: 'user', content: 'Say something.' }];

describe('mock server API', () => {
  let mock: SpawnedMock;
  const recordFile = join(mkdtempSync(join(tmpdir(), 'sb-mock-')), 'requests.jsonl');

  beforeAll(async () => {
    mock = await spawnMock([...fast, '--model-name', 'test-model', '--record-requests', recordFile]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('prints its URL and serves /health and /v1/models', async () => {
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    expect(mock.port).toBeGreaterThan(0);
    const h = await getJson(`${mock.url}/health`);
    expect([h.status, h.json]).toEqual([200, { status: 'ok' }]);
    const m = await getJson(`${mock.url}/v1/models`);
    expect(m.status).toBe(200);
    expect(m.json.data.map((d: { id: string }) => d.id)).toEqual(['test-model']);
  });

  it('answers unknown paths with 404 and bad bodies with 400, as JSON errors', async () => {
    const nf = await getJson(`${mock.url}/v2/nothing`);
    expect(nf.status).toBe(404);
    expect(nf.json.error.message).toMatch(/no route/);
    const bad = await postJson(`${mock.url}/v1/chat/completions`, '{"messages": [');
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('invalid_request_error');
    expect(bad.json.error.message).toMatch(/invalid JSON/);
    const noMsgs = await postJson(`${mock.url}/v1/chat/completions`, { max_tokens: 3 });
    expect([noMsgs.status, noMsgs.json.error.type]).toEqual([400, 'invalid_request_error']);
  });

  it('non-streaming chat: OpenAI shape, exact max_tokens under cl100k, usage', async () => {
    const r = await postJson(`${mock.url}/v1/chat/completions`, { model: 'x', messages, max_tokens: 37 }, { 'x-request-id': 'rid-1' });
    expect(r.status).toBe(200);
    expect(r.headers['x-request-id']).toBe('rid-1');
    expect(r.json).toMatchObject({ object: 'chat.completion', model: 'x', choices: [{ index: 0, finish_reason: 'length' }] });
    expect(r.json.id).toMatch(/^chatcmpl-/);
    expect(typeof r.json.created).toBe('number');
    expect(r.json.choices[0].message.role).toBe('assistant');
    expect(countTokens(r.json.choices[0].message.content)).toBe(37);
    expect(r.json.usage).toMatchObject({ completion_tokens: 37, total_tokens: r.json.usage.prompt_tokens + 37 });
    expect(r.json.usage.prompt_tokens).toBeGreaterThan(0);
    // max_completion_tokens wins over max_tokens.
    const r2 = await postJson(`${mock.url}/v1/chat/completions`, { messages, max_tokens: 5, max_completion_tokens: 9 });
    expect(countTokens(r2.json.choices[0].message.content)).toBe(9);
  });

  it('non-streaming completions: text_completion shape with usage', async () => {
    const r = await postJson(`${mock.url}/v1/completions`, { prompt: 'Once upon a time', max_tokens: 250, ignore_eos: true });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ object: 'text_completion', model: 'test-model', usage: { completion_tokens: 250 } });
    expect(r.json.id).toMatch(/^cmpl-/);
    expect(countTokens(r.json.choices[0].text)).toBe(250);
  });

  it('streaming chat: role chunk first, exact content, finish_reason, usage chunk, then [DONE]', async () => {
    const r = await postSse(`${mock.url}/v1/chat/completions`, {
      messages,
      max_tokens: 64,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream');
    expect(r.error).toBeNull();
    const ev = r.events;
    expect(ev[0].json.choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(ev[0].json.object).toBe('chat.completion.chunk');
    expect(ev.at(-1)!.data).toBe('[DONE]');
    const usage = ev.at(-2)!.json;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({ completion_tokens: 64 });
    const content = ev.slice(1, -2);
    expect(content).toHaveLength(64);
    expect(content.slice(0, -1).every((e) => e.json.choices[0].finish_reason === null)).toBe(true);
    expect(content.at(-1)!.json.choices[0].finish_reason).toBe('length');
    expect(countTokens(streamedContent(ev))).toBe(64);
  });

  it('streaming without include_usage sends no usage chunk; the same request streams the same text as non-streaming', async () => {
    const body = { messages, max_tokens: 20 };
    const s = await postSse(`${mock.url}/v1/chat/completions`, { ...body, stream: true });
    expect(s.events.some((e) => e.json && 'usage' in e.json)).toBe(false);
    const n = await postJson(`${mock.url}/v1/chat/completions`, body);
    expect(streamedContent(s.events)).toBe(n.json.choices[0].message.content);
  });

  it('streaming completions: text chunks, no role chunk', async () => {
    const r = await postSse(`${mock.url}/v1/completions`, { prompt: 'hi', max_tokens: 10, stream: true });
    expect(r.events[0].json.object).toBe('text_completion');
    expect(r.events[0].json.choices[0].text).toMatch(/^ \w+$/);
    expect(r.events).toHaveLength(11);
    expect(countTokens(streamedContent(r.events))).toBe(10);
  });

  it('records each request as a JSON line, without the authorization header', async () => {
    await postJson(`${mock.url}/v1/completions`, { prompt: 'recorded', max_tokens: 1 }, { authorization: 'Bearer sk-secret' });
    // The mock appends asynchronously; poll briefly for the line.
    let lines: any[] = [];
    for (let i = 0; i < 100 && !lines.some((l) => l.body?.prompt === 'recorded'); i++) {
      await new Promise((r) => setTimeout(r, 20));
      lines = readFileSync(recordFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    }
    const rec = lines.find((l) => l.body?.prompt === 'recorded');
    expect(rec).toMatchObject({ method: 'POST', path: '/v1/completions', body: { prompt: 'recorded', max_tokens: 1 } });
    expect(Number.isInteger(rec.ts_ns)).toBe(true);
    expect(rec.headers.authorization).toBeUndefined();
    expect(readFileSync(recordFile, 'utf8')).not.toContain('sk-secret');
    expect(lines.some((l) => l.path === '/health')).toBe(true);
  });
});

describe('mock server options', () => {
  it('reasoning tokens stream before the content and are counted in usage', async () => {
    const mock = await spawnMock([...fast, '--reasoning-tokens', '12', '--tokens-per-chunk', '5']);
    try {
      const r = await postSse(`${mock.url}/v1/chat/completions`, {
        messages,
        max_tokens: 11,
        stream: true,
        stream_options: { include_usage: true },
      });
      const deltas = r.events.slice(1, -2).map((e) => e.json.choices[0].delta);
      // 12 reasoning tokens in chunks of 5 -> 3 chunks, then 11 content tokens -> 3 chunks.
      expect(deltas.map((d) => ('reasoning_content' in d ? 'r' : 'c')).join('')).toBe('rrrccc');
      expect(
        countTokens(
          deltas
            .slice(0, 3)
            .map((d) => d.reasoning_content)
            .join(''),
        ),
      ).toBe(12);
      expect(
        countTokens(
          deltas
            .slice(3)
            .map((d) => d.content)
            .join(''),
        ),
      ).toBe(11);
      expect(r.events.at(-2)!.json.usage).toMatchObject({ completion_tokens: 23, completion_tokens_details: { reasoning_tokens: 12 } });
      const n = await postJson(`${mock.url}/v1/chat/completions`, { messages, max_tokens: 11 });
      expect(countTokens(n.json.choices[0].message.reasoning_content)).toBe(12);
      expect(n.json.usage.completion_tokens_details.reasoning_tokens).toBe(12);
    } finally {
      await mock.stop();
    }
  });

  it('--seed makes output deterministic across processes and changes it when changed', async () => {
    const texts: string[] = [];
    for (const seed of ['5', '5', '6']) {
      const mock = await spawnMock([...fast, '--seed', seed]);
      try {
        const r = await postJson(`${mock.url}/v1/chat/completions`, { messages });
        texts.push(r.json.choices[0].message.content);
      } finally {
        await mock.stop();
      }
    }
    expect(texts[0]).toBe(texts[1]);
    expect(texts[0]).not.toBe(texts[2]);
    // Without max_tokens: a seeded length in [16, 128].
    const n = countTokens(texts[0]);
    expect(n).toBeGreaterThanOrEqual(16);
    expect(n).toBeLessThanOrEqual(128);
  });
});

describe('servebench mock CLI', () => {
  it('a bad flag value exits 2 with one line naming it', () => {
    const r = spawnSync(process.execPath, [SERVEBENCH_BIN, 'mock', '--port', '0', '--itl-ms', '-1'], { encoding: 'utf8', timeout: 15_000 });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/--itl-ms/);
  });

  it('a repeated flag keeps its last value (so callers can override defaults)', async () => {
    const mock = await spawnMock(['--itl-ms', '3', '--itl-ms', '7', '--port', '0']);
    try {
      await getJson(`${mock.url}/health`);
      expect(mock.stderr()).toMatch(/itl=7ms/);
    } finally {
      await mock.stop();
    }
  });

  it('SIGTERM stops it cleanly with exit code 0, even with a stream in flight', async () => {
    const mock = await spawnMock(['--ttft-ms', '0', '--itl-ms', '50']);
    const inflight = postSse(`${mock.url}/v1/chat/completions`, { messages, max_tokens: 1000, stream: true });
    await new Promise((r) => setTimeout(r, 200));
    const exit = new Promise<number | null>((resolve) => mock.child.once('exit', (code) => resolve(code)));
    await mock.stop();
    expect(await exit).toBe(0);
    const r = await inflight;
    expect(r.events.length).toBeGreaterThan(0);
    expect(mock.stderr()).toMatch(/stopped \(SIGTERM\)/);
  });
});

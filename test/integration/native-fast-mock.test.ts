// `servebench mock --fast`: the mock's serving loop in the native addon. Same API shapes and exact
// output lengths as the TS mock, send stamps per event (--stamp-events), ITL timing, several
// workers on one port, flags it does not support refused, and a profile run against it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens, getJson, postJson, postSse, spawnMock, streamedContent, type SpawnedMock } from '../helpers/mock.js';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';
import { SERVEBENCH_BIN as BIN } from '../../src/mock/spawn.js';

const chat = (max: number, extra: Record<string, unknown> = {}) => ({
  model: 'mock-model',
  messages: [{ role: 'user', content: 'Say something long enough.' }],
  max_tokens: max,
  ...extra,
});

describe('mock --fast --stamp-events', () => {
  let mock: SpawnedMock;
  beforeAll(async () => {
    mock = await spawnMock(['--fast', '--stamp-events', '--workers', '2', '--model-name', 'fast-model']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('answers /health and /v1/models', async () => {
    expect((await getJson(`${mock.url}/health`)).json).toEqual({ status: 'ok' });
    const models = await getJson(`${mock.url}/v1/models`);
    expect(models.json.data[0]).toMatchObject({ id: 'fast-model', object: 'model' });
    expect((await getJson(`${mock.url}/nope`)).status).toBe(404);
  });

  it('streams chat chunks in the OpenAI shape, exactly max_tokens tokens, usage when asked', async () => {
    const r = await postSse(`${mock.url}/v1/chat/completions`, chat(37, { stream: true, stream_options: { include_usage: true } }));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream');
    const data = r.events.filter((e) => e.json);
    expect(data[0].json.choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(data[0].json.object).toBe('chat.completion.chunk');
    expect(countTokens(streamedContent(r.events))).toBe(37);
    const last = data[data.length - 2].json;
    expect(last.choices[0].finish_reason).toBe('length');
    expect(data[data.length - 1].json.usage).toMatchObject({ completion_tokens: 37 });
    expect(r.events[r.events.length - 1].data).toBe('[DONE]');
  });

  it('stamps every JSON event with its CLOCK_MONOTONIC send time, before the client got it', async () => {
    const before = process.hrtime.bigint();
    const r = await postSse(`${mock.url}/v1/chat/completions`, chat(8, { stream: true }));
    const after = process.hrtime.bigint();
    const stamps = r.events.filter((e) => e.json).map((e) => BigInt(e.json.sb_send_ns));
    expect(stamps).toHaveLength(9);
    for (const s of stamps) {
      expect(s).toBeGreaterThan(before);
      expect(s).toBeLessThan(after);
    }
  });

  it('serves completions and non-streaming bodies, echoing X-Request-ID', async () => {
    const c = await postSse(`${mock.url}/v1/completions`, { model: 'x', prompt: 'hello', max_tokens: 5, stream: true });
    expect(countTokens(c.events.map((e) => e.json?.choices?.[0]?.text ?? '').join(''))).toBe(5);
    const b = await postJson(`${mock.url}/v1/chat/completions`, chat(12), { 'x-request-id': 'req-42' });
    expect(b.status).toBe(200);
    expect(b.headers['x-request-id']).toBe('req-42');
    expect(b.json.object).toBe('chat.completion');
    expect(countTokens(b.json.choices[0].message.content)).toBe(12);
    expect(b.json.usage.completion_tokens).toBe(12);
  });

  it('serves many concurrent streams over both workers', async () => {
    const rs = await Promise.all(Array.from({ length: 64 }, () => postSse(`${mock.url}/v1/chat/completions`, chat(16, { stream: true }))));
    for (const r of rs) expect(countTokens(streamedContent(r.events))).toBe(16);
  });
});

describe('mock --fast with --itl-ms', () => {
  it('spaces tokens by the ITL and starts after the TTFT', async () => {
    const mock = await spawnMock(['--fast', '--ttft-ms', '30', '--itl-ms', '10']);
    try {
      const r = await postSse(`${mock.url}/v1/chat/completions`, chat(11, { stream: true }));
      const t = r.events.filter((e) => e.json).map((e) => e.t);
      expect(t[1]).toBeGreaterThan(29);
      const gaps = t.slice(2).map((x, i) => x - t[i + 1]);
      const sorted = [...gaps].sort((a, b) => a - b);
      expect(sorted[Math.floor(sorted.length / 2)]).toBeGreaterThan(8);
      expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(12);
    } finally {
      await mock.stop();
    }
  });
});

describe('mock --fast: flags it does not support, and a profile run against it', () => {
  it('keeps serving when started as a user would (no stdin tie) until SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'mock', '--fast', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`mock exited (${code}) before listening`)));
      });
      // It used to exit right after the listening line: nothing kept the event loop alive.
      await new Promise((r) => setTimeout(r, 500));
      expect(child.exitCode).toBeNull();
      const r = await fetch(`${url}/health`);
      expect(r.status).toBe(200);
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
    expect(child.exitCode).toBe(0);
  });

  it('refuses faults and thread flags without --fast, with one line and exit 2', async () => {
    for (const [args, re] of [
      [['--fast', '--fail-every', '2'], /--fail-every is not supported with --fast/],
      [['--fast', '--reasoning-tokens', '5'], /--reasoning-tokens is not supported with --fast/],
      [['--workers', '2'], /--workers needs --fast/],
      [['--stamp-events'], /--stamp-events needs --fast/],
      [['--fast', '--workers', '0'], /--workers must be an integer/],
    ] as const) {
      const r = await runCli(['mock', '--port', '0', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(re);
    }
  });

  it('profiles it with both transports: every request succeeds with the requested OSL', async () => {
    const mock = await spawnMock(['--fast']);
    try {
      for (const transport of ['native', 'undici']) {
        const dir = tmpDir();
        const r = await runCli([
          'profile',
          '--url',
          mock.url,
          '--model',
          'mock-model',
          '--transport',
          transport,
          '--concurrency',
          '16',
          '--request-count',
          '200',
          '--osl',
          '48',
          '--isl',
          '16',
          '--artifact-dir',
          dir,
          '--ui',
          'none',
        ]);
        expect(r.code, r.stderr).toBe(0);
        const j = readJson(path.join(dir, 'profile_export.json'));
        expect(j.counts).toEqual({ issued: 200, succeeded: 200, errored: 0, cancelled: 0 });
        expect(j.metrics.output_sequence_length.avg).toBe(48);
        expect(j.transport).toBe(transport);
      }
    } finally {
      await mock.stop();
    }
  });
});

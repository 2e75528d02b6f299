// --endpoint-type realtime against the mock (its own process) over WebSocket: every request a
// record, text deltas stamped on arrival, GuideLLM's round-trip metrics beside TTFT and ITL.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';
import { spawnMock, type SpawnedMock } from '../helpers/mock.js';

let mock: SpawnedMock;
beforeAll(async () => {
  mock = await spawnMock(['--ttft-ms', '20', '--itl-ms', '5']);
});
afterAll(async () => {
  await mock?.stop();
});

describe('--endpoint-type realtime', () => {
  it('benchmarks the mock over WebSocket with the round-trip metrics', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      ...['--url', mock.url, '--endpoint-type', 'realtime', '--request-count', '10', '--concurrency', '2', '--osl', '12'],
      ...['--artifact-dir', dir, '--ui', 'none', '--no-server-metrics', '--export-level', 'records', '--use-server-token-count'],
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = readJson(path.join(dir, 'profile_export.json'));
    expect(j.counts).toMatchObject({ issued: 10, succeeded: 10 });
    expect(j.transport).toBe('realtime');
    const m = j.metrics;
    expect(m.output_sequence_length.avg).toBe(12);
    // 11 gaps of 5 ms after the first token; the last token lags the last sent event by at least TTFT + 11 ITL.
    expect(m.inter_token_latency.p50).toBeGreaterThan(4);
    expect(m.time_to_last_round_trip.min).toBeGreaterThan(20 + 11 * 5 - 1);
    expect(m.average_round_trip_time.avg).toBeGreaterThan(0);
    expect(m.average_round_trip_time.avg).toBeLessThan(m.time_to_last_round_trip.avg);
    const records = readJsonl(path.join(dir, 'records.jsonl'));
    expect(records).toHaveLength(10);
    expect(records.every((x) => x.http_status === 101 && x.status === 'ok')).toBe(true);
    expect(r.stdout).toContain('Time To Last Round Trip');
  });

  it('sends 1 s audio clips as 100 ms appends, a commit and response.create, each a stamped sent packet', async () => {
    const dir = tmpDir();
    const r = await runCli([
      'profile',
      ...['--url', mock.url, '--endpoint-type', 'realtime', '--request-count', '4', '--concurrency', '2', '--osl', '6'],
      ...['--audio-length-mean', '1', '--artifact-dir', dir, '--ui', 'none', '--no-server-metrics', '--export-level', 'raw'],
      '--use-server-token-count',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = readJson(path.join(dir, 'profile_export.json'));
    expect(j.counts).toMatchObject({ issued: 4, succeeded: 4 });
    const m = j.metrics;
    expect(m.time_to_last_round_trip.min).toBeGreaterThan(20 + 5 * 5 - 1);
    expect(m.average_round_trip_time.avg).toBeGreaterThan(0);
    expect(m.audio_duration.avg).toBeCloseTo(1, 6);
    expect(m.rtfx.avg).toBeGreaterThan(0);
    // The mock counts one audio token per 100 ms of committed pcm16 beside the prompt's words.
    expect(m.input_sequence_length.min).toBeGreaterThanOrEqual(10);
    const records = readJsonl(path.join(dir, 'records.jsonl'));
    expect(records).toHaveLength(4);
    for (const rec of records) {
      expect(rec.status).toBe('ok');
      // The prompt item, 10 appends of 100 ms, the commit, response.create: 13 sends, 13 stamps, in order.
      const sent = (rec.sent_ns as number[]).map(BigInt);
      expect(sent).toHaveLength(13);
      for (let i = 1; i < sent.length; i++) expect(sent[i] >= sent[i - 1]).toBe(true);
      expect(sent[0] >= BigInt(rec.start_ns as number)).toBe(true);
      const events = (rec.payloads as string[]).map((p) => (JSON.parse(p) as { type: string }).type);
      expect(events).toContain('input_audio_buffer.committed');
      expect(events.indexOf('input_audio_buffer.committed')).toBeLessThan(events.indexOf('response.output_text.delta'));
    }
  });

  it('the mock rejects audio that is not base64 pcm16 and a commit of an empty buffer', async () => {
    const ws = new WebSocket(mock.url.replace('http', 'ws') + '/v1/realtime?model=m');
    const got: { type: string; error?: { message: string }; audio_duration_s?: number }[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => {
        ws.send(JSON.stringify({ type: 'input_audio_buffer.commit' }));
        ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: 'not base64!' }));
        ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.alloc(3).toString('base64') }));
        ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.alloc(4800).toString('base64') }));
        ws.send(JSON.stringify({ type: 'input_audio_buffer.commit' }));
      });
      ws.on('message', (d) => {
        got.push(JSON.parse(String(d)) as (typeof got)[number]);
        if (got.length === 5) resolve();
      });
      ws.on('error', reject);
    });
    ws.close();
    expect(got.map((e) => e.type)).toEqual(['session.created', 'error', 'error', 'error', 'input_audio_buffer.committed']);
    expect(got[1].error?.message).toContain('empty');
    expect(got[2].error?.message).toContain('base64');
    expect(got[3].error?.message).toContain('odd');
    expect(got[4].audio_duration_s).toBeCloseTo(0.1, 9);
  });

  it('the mock answers a malformed event with an error event and keeps the socket', async () => {
    const ws = new WebSocket(mock.url.replace('http', 'ws') + '/v1/realtime?model=m');
    const events: { type: string }[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (d) => {
        events.push(JSON.parse(String(d)) as { type: string });
        if (events.length === 1) ws.send('{oops');
        if (events.length === 2) {
          ws.send(JSON.stringify({ type: 'response.create', response: { max_output_tokens: 2 } }));
        }
        if (events.at(-1)?.type === 'response.done') resolve();
      });
      ws.on('error', reject);
    });
    ws.close();
    expect(events.map((e) => e.type)).toEqual([
      'session.created',
      'error',
      'response.created',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.done',
    ]);
  });
});

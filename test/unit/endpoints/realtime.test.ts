// --endpoint-type realtime: the client events built from a turn, the server events read, and
// GuideLLM's round-trip metrics from sent and received stamps.
import { describe, expect, it } from 'vitest';
import { realtimeAdapter } from '../../../src/endpoints/realtime.js';
import { averageRoundTripTime, timeToLastRoundTrip } from '../../../src/metrics/families/realtime.js';
import { buildRunConfig } from '../../../src/config/validate.js';
import type { MetricRecord } from '../../../src/model/processed-record.js';

const j = JSON.stringify;

describe('realtime adapter', () => {
  it('sends the conversation as items, then response.create with max_output_tokens and extra inputs', () => {
    const cfg = buildRunConfig({ 'endpoint-type': 'realtime', 'extra-inputs': ['temperature:0.6'] });
    const body = realtimeAdapter.buildBody({ prompt: 'hello', isl: 1, max_tokens: 5 }, cfg) as { events: unknown[] };
    expect(body.events).toEqual([
      { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } },
      { type: 'response.create', response: { modalities: ['text'], temperature: 0.6, max_output_tokens: 5 } },
    ]);
  });

  it('reads GA and beta text deltas, usage on response.done, errors and failed responses', () => {
    expect(realtimeAdapter.parse(j({ type: 'response.output_text.delta', delta: 'Hi' }))).toMatchObject({
      content: 'Hi',
      has_choices: true,
    });
    expect(realtimeAdapter.parse(j({ type: 'response.text.delta', delta: ' there' }))).toMatchObject({ content: ' there' });
    expect(realtimeAdapter.parse(j({ type: 'session.created', session: {} }))).toMatchObject({ content: '', has_choices: false });
    const done = realtimeAdapter.parse(
      j({ type: 'response.done', response: { status: 'completed', usage: { input_tokens: 4, output_tokens: 7, total_tokens: 11 } } }),
    );
    expect(done).toMatchObject({ kind: 'data', usage: { prompt_tokens: 4, completion_tokens: 7 } });
    // Realtime names its details input_token_details / output_token_details (singular "token").
    const audio = realtimeAdapter.parse(
      j({
        type: 'response.done',
        response: {
          status: 'completed',
          usage: {
            input_tokens: 14,
            output_tokens: 3,
            input_token_details: { audio_tokens: 10 },
            output_token_details: { audio_tokens: 2 },
          },
        },
      }),
    );
    expect(audio).toMatchObject({ usage: { prompt_tokens: 14, prompt_audio_tokens: 10, completion_audio_tokens: 2 } });
    expect(realtimeAdapter.parse(j({ type: 'error', error: { message: 'rate limited' } }))).toEqual({
      kind: 'error',
      message: 'rate limited',
    });
    expect(
      realtimeAdapter.parse(j({ type: 'response.done', response: { status: 'failed', status_details: { error: { message: 'boom' } } } })),
    ).toEqual({ kind: 'error', message: 'boom' });
    expect(() => realtimeAdapter.parse('{not json')).toThrow('invalid JSON');
  });

  it('--transport native with realtime is bad input naming --transport', () => {
    expect(() => buildRunConfig({ 'endpoint-type': 'realtime', transport: 'native' })).toThrow('--transport');
  });
});

describe("GuideLLM's round-trip metrics", () => {
  const rec = (sent: bigint[] | undefined, tokens: bigint[]): MetricRecord => ({
    valid: true,
    streaming: true,
    credit_issued_ns: 0n,
    start_ns: 1_000n,
    end_ns: 100_000_000n,
    token_ns: tokens,
    first_output_ns: tokens[0] ?? null,
    last_content_ns: tokens[tokens.length - 1] ?? null,
    input_tokens: 1,
    output_tokens: tokens.length,
    reasoning_tokens: null,
    ...(sent ? { sent_ns: sent } : {}),
  });
  const none = new Map();

  it('time to last round trip: last sent packet → last received token', () => {
    expect(timeToLastRoundTrip.compute(rec([2_000n, 5_000n], [20_000n, 30_000n, 45_000n]), none)).toBe(40_000);
  });

  it('average RTT: mean of received stamps − mean of sent stamps', () => {
    // (20 + 30 + 46) / 3 − (2 + 6) / 2 = 32 − 4 = 28 µs.
    expect(averageRoundTripTime.compute(rec([2_000n, 6_000n], [20_000n, 30_000n, 46_000n]), none)).toBe(28_000);
  });

  it('absent without sent stamps (HTTP) or without tokens', () => {
    expect(timeToLastRoundTrip.compute(rec(undefined, [20_000n]), none)).toBeUndefined();
    expect(averageRoundTripTime.compute(rec([2_000n], []), none)).toBeUndefined();
  });
});

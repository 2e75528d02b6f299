import v8 from 'node:v8';
import { runInThisContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { RecordProcessor } from '../../../src/records/process.js';
import type { RawRecord } from '../../../src/model/raw-record.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { baseRecord, MS } from './decode-equivalence.js';

let tk: TextTokenizer;
beforeAll(async () => {
  tk = await loadTokenizer();
});

function raw(events: [number, string][], over: Partial<RawRecord> = {}): RawRecord {
  return baseRecord({
    event_data: events.map((e) => e[1]),
    event_ns: events.map((e) => 1000n * MS + BigInt(e[0]) * MS),
    event_type: events.map(() => ''),
    ...over,
  });
}

const delta = (d: Record<string, string>) => JSON.stringify({ choices: [{ delta: d }] });

describe('RecordProcessor', () => {
  it('ignores the role-only chunk for TTFT and counts tokens with the tokenizer', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    const rec = p.process(
      raw([
        [10, delta({ role: 'assistant', content: '' })],
        [40, delta({ content: ' the' })],
        [50, delta({ content: ' of' })],
        [60, delta({ content: ' and' })],
        [61, JSON.stringify({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } })],
        [62, '[DONE]'],
      ]),
    );
    expect(rec.status).toBe('ok');
    expect(rec.metric_input.token_ns).toEqual([1040n * MS, 1050n * MS, 1060n * MS]);
    expect(rec.metric_input.output_tokens).toBe(3);
    expect(rec.metric_input.reasoning_tokens).toBeNull();
    expect(rec.metric_input.input_tokens).toBe(2); // from the turn, not the server
    expect(rec.usage).toEqual({ prompt_tokens: 9, completion_tokens: 3, total_tokens: 12, reasoning_tokens: null });
    expect(rec.metrics.get('time_to_first_token')).toBe(40e6);
  });

  it('separates reasoning from content: TTFT on reasoning, TTFO on content', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    const rec = p.process(
      raw([
        [20, delta({ reasoning_content: ' the of' })],
        [30, delta({ content: ' and' })],
      ]),
    );
    expect(rec.metric_input.reasoning_tokens).toBe(2);
    expect(rec.metric_input.output_tokens).toBe(1);
    expect(rec.metric_input.first_output_ns).toBe(1030n * MS);
    expect(rec.metrics.get('time_to_first_token')).toBe(20e6);
    expect(rec.metrics.get('time_to_first_output_token')).toBe(30e6);
  });

  it('uses server usage with --use-server-token-count', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: true });
    const rec = p.process(
      raw([
        [20, delta({ content: 'x' })],
        [
          30,
          JSON.stringify({
            choices: [],
            usage: { prompt_tokens: 50, completion_tokens: 7, completion_tokens_details: { reasoning_tokens: 2 } },
          }),
        ],
      ]),
    );
    expect(rec.metric_input.input_tokens).toBe(50);
    expect(rec.metric_input.output_tokens).toBe(5);
    expect(rec.metric_input.reasoning_tokens).toBe(2);
  });

  it('a malformed event makes the record a parse_error', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    const rec = p.process(
      raw([
        [20, delta({ content: ' the' })],
        [30, '{"choices": [ {bad'],
      ]),
    );
    expect(rec.status).toBe('error');
    expect(rec.error?.type).toBe('parse_error');
    expect(rec.metric_input.valid).toBe(false);
    expect(rec.metrics.has('time_to_first_token')).toBe(false);
  });

  it('an error object in the stream is an sse_error', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    const rec = p.process(raw([[20, '{"error":{"message":"overloaded","code":503}}']]));
    expect(rec.error).toEqual({ type: 'sse_error', message: 'overloaded', http_status: 200 });
  });

  it('a stream with no event at all is a parse_error', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    expect(p.process(raw([])).error?.type).toBe('parse_error');
  });

  it('keeps transport errors and still counts the prompt (for error ISL)', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    const rec = p.process(
      raw([], { status: 'error', error: { type: 'http_5xx', message: 'HTTP 500', http_status: 500 }, http_status: 500 }),
    );
    expect(rec.status).toBe('error');
    expect(rec.error?.type).toBe('http_5xx');
    expect(rec.metric_input.input_tokens).toBe(2);
    expect(rec.metric_input.output_tokens).toBeNull();
  });

  it('parses a non-streaming body', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    const rec = p.process(
      raw([], {
        streaming: false,
        body: JSON.stringify({ choices: [{ message: { content: ' the of and to' } }], usage: { prompt_tokens: 2, completion_tokens: 4 } }),
      }),
    );
    expect(rec.status).toBe('ok');
    expect(rec.metric_input.output_tokens).toBe(4);
    expect(rec.metrics.get('request_latency')).toBe(100e6);
    expect(rec.metrics.has('time_to_first_token')).toBe(false);
  });

  it('a kept record stays a fast object once its content is dropped', () => {
    // The run keeps every record for the summary, and the record pipeline deletes `content` when it
    // takes a record over: were the record a hash table after that, each would cost ~450 bytes more.
    // V8's intrinsics parse only in code compiled after the flag is set.
    v8.setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = runInThisContext('(o) => %HasFastProperties(o)') as (o: object) => boolean;
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    for (const r of [raw([[40, delta({ content: ' the' })]]), raw([], { status: 'error', error: null })]) {
      const { record } = p.prepare(r);
      expect(record.content).toBeDefined();
      expect(hasFastProperties(record)).toBe(true);
      delete record.content;
      expect(hasFastProperties(record)).toBe(true);
    }
  });

  it('a kept record holds its turn without the payloads it was sent with', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    const credit = baseRecord().credit;
    const turn = {
      prompt: 'the question',
      isl: null,
      max_tokens: 7,
      messages: [
        { role: 'user' as const, content: 'hi' },
        { role: 'assistant' as const, content: 'hello' },
        { role: 'user' as const, content: 'the question' },
      ],
      session_id: 's1',
      turn_index: 1,
      hash_ids: [4, 5],
      media: { images: ['data:image/png;base64,AAAA'] },
    };
    const r = raw([[40, delta({ content: ' the' })]], { credit: { ...credit, target: { url: 'http://h', model: 'm' }, turn } });
    const { record, texts } = p.prepare(r);
    // The texts to count still come from the whole turn (the history's messages, counted one by one).
    expect(texts.input).toEqual(['hi', 'hello', 'the question']);
    expect(record.raw.credit).toEqual({
      ...credit,
      target: { url: 'http://h', model: 'm' },
      turn: { prompt: '', isl: null, max_tokens: 7, session_id: 's1', turn_index: 1, hash_ids: [4, 5] },
    });
    // The transport's record and the scheduler's credit are left as they were.
    expect(r.credit.turn).toBe(turn);
    expect(turn.prompt).toBe('the question');
    expect(record.raw.event_data).toBe(r.event_data);
  });
});

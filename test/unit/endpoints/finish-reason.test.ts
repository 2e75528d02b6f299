// Each adapter's finish reason: where its API says why a response ended, on streams (through both
// decode paths, which must agree) and on whole bodies; APIs without one give null.
import { beforeAll, describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { completionsAdapter } from '../../../src/endpoints/completions.js';
import { embeddingsAdapter } from '../../../src/endpoints/embeddings.js';
import { messagesAdapter } from '../../../src/endpoints/messages.js';
import { responsesAdapter } from '../../../src/endpoints/responses.js';
import type { EndpointAdapter } from '../../../src/endpoints/types.js';
import { RecordProcessor } from '../../../src/records/process.js';
import type { ProcessedRecord } from '../../../src/model/processed-record.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { baseRecord, bothPaths, expectSame, sseBody } from '../records/decode-equivalence.js';

let tk: TextTokenizer;
beforeAll(async () => {
  tk = await loadTokenizer();
});

const j = JSON.stringify;

/** A stream through both paths; the native one's record (the TS one is checked equal). */
function streamed(adapter: EndpointAdapter, events: string[], typed = false): ProcessedRecord {
  const chunks = typed
    ? events.map((e) => Buffer.from(`event: ${String((JSON.parse(e) as { type: string }).type)}\ndata: ${e}\n\n`))
    : [sseBody(events)];
  const p = bothPaths(adapter, tk, chunks);
  expectSame(p, adapter.type);
  return p.native;
}

function whole(adapter: EndpointAdapter, text: string): ProcessedRecord {
  return new RecordProcessor({ adapter, tokenizer: tk, useServerTokenCount: false }).process(baseRecord({ streaming: false, body: text }));
}

const chunk = (content: string, finish: string | null) => j({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] });

describe('chat and completions: choices[*].finish_reason', () => {
  it.each(['length', 'stop'])('a chat stream ending %s, null on every chunk before, a usage-only chunk after', (why) => {
    const r = streamed(chatAdapter, [
      chunk('Hel', null),
      chunk('lo', why),
      j({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 } }),
      '[DONE]',
    ]);
    expect(r.finish_reason).toBe(why);
  });

  it('the last chunk that gives one wins; none given is null; the native decoder read it', () => {
    const bothSay = [chunk('a', 'length'), chunk('b', 'stop'), '[DONE]'];
    const p = bothPaths(chatAdapter, tk, [sseBody(bothSay)]);
    expect(p.nativeRaw.decoded).toMatchObject({ tail: 0, finish_reason: 'stop' });
    expect(p.native.finish_reason).toBe('stop');
    expect(streamed(chatAdapter, [chunk('a', null), '[DONE]']).finish_reason).toBeNull();
  });

  it('events the native decoder leaves to TS (nested past its depth) still give theirs, or keep the one before', () => {
    const deep = (why: string | null) => chunk('b', why).slice(0, -1) + ',"x":' + '['.repeat(600) + ']'.repeat(600) + '}';
    const p = bothPaths(chatAdapter, tk, [sseBody([chunk('a', null), deep('stop'), '[DONE]'])]);
    expectSame(p, 'deep tail');
    expect(p.nativeRaw.decoded).toMatchObject({ tail: 2, finish_reason: null });
    expect(p.native.finish_reason).toBe('stop');
    expect(streamed(chatAdapter, [chunk('a', 'length'), deep(null)]).finish_reason).toBe('length');
  });

  it('non-streaming bodies: the choice finish_reason', () => {
    const body = j({
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'length' }],
    });
    expect(whole(chatAdapter, body).finish_reason).toBe('length');
    expect(whole(completionsAdapter, j({ choices: [{ text: 'x', finish_reason: 'stop' }] })).finish_reason).toBe('stop');
    expect(streamed(completionsAdapter, [j({ choices: [{ text: 'x', finish_reason: 'length' }] })]).finish_reason).toBe('length');
  });
});

describe('messages: message_delta.delta.stop_reason', () => {
  const events = (why: string) => [
    j({
      type: 'message_start',
      message: { type: 'message', content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } },
    }),
    j({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
    j({ type: 'message_delta', delta: { stop_reason: why, stop_sequence: null }, usage: { output_tokens: 2 } }),
    j({ type: 'message_stop' }),
  ];
  it.each(['end_turn', 'max_tokens'])('a stream stopping %s', (why) => {
    expect(streamed(messagesAdapter, events(why), true).finish_reason).toBe(why);
  });

  it('a stream cut before message_delta has none; a whole message has its stop_reason', () => {
    expect(streamed(messagesAdapter, events('end_turn').slice(0, 2), true).finish_reason).toBeNull();
    const msg = j({
      type: 'message',
      content: [{ type: 'text', text: 'x' }],
      stop_reason: 'max_tokens',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(whole(messagesAdapter, msg).finish_reason).toBe('max_tokens');
  });
});

describe('responses: the final status, or why it is incomplete', () => {
  const R = { object: 'response', status: 'in_progress', output: [], error: null, incomplete_details: null };
  const start = [j({ type: 'response.created', response: R }), j({ type: 'response.output_text.delta', delta: 'Hi' })];

  it('completed; incomplete with its reason; in_progress of the opening events is not a finish reason', () => {
    const done = j({ type: 'response.completed', response: { ...R, status: 'completed' } });
    expect(streamed(responsesAdapter, [...start, done], true).finish_reason).toBe('completed');
    const cut = j({
      type: 'response.incomplete',
      response: { ...R, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
    expect(streamed(responsesAdapter, [...start, cut], true).finish_reason).toBe('max_output_tokens');
    expect(streamed(responsesAdapter, start, true).finish_reason).toBeNull();
  });

  it('a whole response body', () => {
    const body = { ...R, status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
    expect(whole(responsesAdapter, j(body)).finish_reason).toBe('content_filter');
    expect(whole(responsesAdapter, j({ ...R, status: 'completed' })).finish_reason).toBe('completed');
  });
});

describe('APIs without a finish reason', () => {
  it('embeddings: null, and its spec declares none', () => {
    const body = j({
      object: 'list',
      data: [{ object: 'embedding', embedding: [0.1], index: 0 }],
      usage: { prompt_tokens: 2, total_tokens: 2 },
    });
    expect(whole(embeddingsAdapter, body).finish_reason).toBeNull();
    expect(embeddingsAdapter.decodeSpec.finish).toEqual([]);
  });
});

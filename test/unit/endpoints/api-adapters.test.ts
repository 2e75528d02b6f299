// The embeddings, rankings, Responses and Anthropic Messages adapters, on fixture bodies and
// streams shaped as each API documents them; streams go through both decode paths (the TS adapter
// per event, the native decoder per response), which must give the same records.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { embeddingsAdapter } from '../../../src/endpoints/embeddings.js';
import { messagesAdapter } from '../../../src/endpoints/messages.js';
import { rankingsAdapter } from '../../../src/endpoints/rankings.js';
import { RequestBuilder } from '../../../src/endpoints/request.js';
import { responsesAdapter } from '../../../src/endpoints/responses.js';
import type { EndpointAdapter } from '../../../src/endpoints/types.js';
import { PayloadParseError } from '../../../src/errors.js';
import { RecordProcessor } from '../../../src/records/process.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { baseRecord, bothPaths, expectSame, type Pair } from '../records/decode-equivalence.js';

let tk: TextTokenizer;
beforeAll(async () => {
  tk = await loadTokenizer();
});

const j = JSON.stringify;

/** An SSE body of typed events, one chunk (and so one stamp) each: `event: <type>`, then the data (whose `type` repeats it). */
function typedSse(events: Record<string, unknown>[]): Buffer[] {
  return events.map((e) => Buffer.from(`event: ${String(e.type)}\ndata: ${j(e)}\n\n`));
}

function stream(adapter: EndpointAdapter, events: Record<string, unknown>[], useServerTokenCount = false): Pair {
  const p = bothPaths(adapter, tk, typedSse(events), { useServerTokenCount });
  expectSame(p, adapter.type);
  return p;
}

function body(adapter: EndpointAdapter, text: string, useServerTokenCount = true) {
  const raw = baseRecord({
    streaming: false,
    body: text,
    credit: { ...baseRecord().credit, turn: { prompt: 'q', isl: 7, max_tokens: null } },
  });
  return new RecordProcessor({ adapter, tokenizer: tk, useServerTokenCount }).process(raw);
}

describe('embeddings', () => {
  it('sends the batch as `input` and reads usage; no output tokens, no TTFT', () => {
    const cfg = buildRunConfig({ 'endpoint-type': 'embeddings', 'batch-size-text': 3 }, {});
    expect(cfg.streaming).toBe(false);
    expect(cfg.endpoint).toBe('/v1/embeddings');
    expect(embeddingsAdapter.buildBody({ prompt: 'a', isl: 3, max_tokens: null, inputs: ['b', 'c'] }, cfg)).toMatchObject({
      input: ['a', 'b', 'c'],
      model: cfg.model,
    });
    const r = body(
      embeddingsAdapter,
      j({
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.1, -0.2] }],
        model: 'm',
        usage: { prompt_tokens: 8, total_tokens: 8 },
      }),
    );
    expect(r.status).toBe('ok');
    expect(r.metric_input.input_tokens).toBe(8);
    expect(r.metric_input.output_tokens).toBeNull();
    expect(r.metrics.has('request_latency')).toBe(true);
    expect(r.metrics.has('time_to_first_token')).toBe(false);
    expect(r.metrics.has('output_sequence_length')).toBe(false);
  });

  it('a body without `data` is a parse_error; an error body is the error', () => {
    expect(body(embeddingsAdapter, j({ object: 'list' })).error?.type).toBe('parse_error');
    expect(body(embeddingsAdapter, '{"data": [').error?.type).toBe('parse_error');
    expect(embeddingsAdapter.parse(j({ error: { message: 'bad input' } }))).toEqual({ kind: 'error', message: 'bad input' });
  });

  it('--streaming is refused; the batch flag belongs to embeddings', () => {
    expect(() => buildRunConfig({ 'endpoint-type': 'embeddings', streaming: true }, {})).toThrow(/--streaming/);
    expect(() => buildRunConfig({ 'batch-size-text': 2 }, {})).toThrow(/--batch-size-text/);
    expect(() => buildRunConfig({ 'endpoint-type': 'embeddings', 'batch-size-text': 0 }, {})).toThrow(/--batch-size-text/);
  });
});

describe('rankings', () => {
  const turn = { prompt: 'what is a cat', isl: 4, max_tokens: null, inputs: ['a cat is', 'a dog is'] };
  it.each([
    ['cohere', '/v1/rerank', { query: turn.prompt, documents: turn.inputs, top_n: 2 }],
    ['vllm-rerank', '/rerank', { query: turn.prompt, documents: turn.inputs }],
    ['vllm-score', '/score', { text_1: turn.prompt, text_2: turn.inputs }],
    ['tei', '/rerank', { query: turn.prompt, texts: turn.inputs }],
  ])('%s: path %s and its request shape', (flavor, path, shape) => {
    const cfg = buildRunConfig({ 'endpoint-type': 'rankings', 'rankings-flavor': flavor }, {});
    expect(cfg.endpoint).toBe(path);
    expect(rankingsAdapter.buildBody(turn, cfg)).toMatchObject(shape);
  });

  it('reads each flavor response; total_tokens counts as input when that is all there is', () => {
    const cohere = body(
      rankingsAdapter,
      j({ id: 'x', results: [{ index: 1, relevance_score: 0.9 }], meta: { billed_units: { search_units: 1 } } }),
    );
    expect(cohere.status).toBe('ok');
    expect(cohere.metric_input.input_tokens).toBeNull();
    const vllm = body(
      rankingsAdapter,
      j({ id: 'x', results: [{ index: 0, relevance_score: 0.5, document: { text: 'a' } }], usage: { total_tokens: 30 } }),
    );
    expect(vllm.metric_input.input_tokens).toBe(30);
    const score = body(
      rankingsAdapter,
      j({ object: 'list', data: [{ index: 0, object: 'score', score: 0.2 }], usage: { prompt_tokens: 12, total_tokens: 12 } }),
    );
    expect(score.metric_input.input_tokens).toBe(12);
    const tei = body(
      rankingsAdapter,
      j([
        { index: 1, score: 0.8 },
        { index: 0, score: 0.1 },
      ]),
      false,
    );
    expect(tei.status).toBe('ok');
    expect(tei.metric_input.input_tokens).toBe(7);
    expect(tei.metrics.has('time_to_first_token')).toBe(false);
  });

  it('a response without results is a parse_error', () => {
    expect(body(rankingsAdapter, j({ id: 'x' })).error?.type).toBe('parse_error');
    expect(body(rankingsAdapter, '42').error?.type).toBe('parse_error');
    expect(() => rankingsAdapter.parse('{')).toThrow(PayloadParseError);
  });

  it('the passage flags belong to rankings', () => {
    expect(() => buildRunConfig({ 'rankings-passages': 3 }, {})).toThrow(/--rankings-passages/);
    expect(() => buildRunConfig({ 'endpoint-type': 'rankings', 'rankings-flavor': 'x' }, {})).toThrow(/--rankings-flavor/);
  });
});

// A Responses stream as the API reference lays it out (ids shortened).
const R = { id: 'resp_1', object: 'response', status: 'in_progress', output: [], usage: null, error: null };
const RESPONSES_STREAM = [
  { type: 'response.created', sequence_number: 0, response: R },
  { type: 'response.in_progress', sequence_number: 1, response: R },
  { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
  {
    type: 'response.reasoning_summary_text.delta',
    sequence_number: 3,
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 0,
    delta: 'Thinking',
  },
  {
    type: 'response.reasoning_summary_text.done',
    sequence_number: 4,
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 0,
    text: 'Thinking',
  },
  {
    type: 'response.output_item.added',
    sequence_number: 5,
    output_index: 1,
    item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
  },
  {
    type: 'response.content_part.added',
    sequence_number: 6,
    item_id: 'msg_1',
    output_index: 1,
    content_index: 0,
    part: { type: 'output_text', text: '' },
  },
  { type: 'response.output_text.delta', sequence_number: 7, item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Hi' },
  { type: 'response.output_text.delta', sequence_number: 8, item_id: 'msg_1', output_index: 1, content_index: 0, delta: ' there' },
  { type: 'response.output_text.done', sequence_number: 9, item_id: 'msg_1', output_index: 1, content_index: 0, text: 'Hi there' },
  {
    type: 'response.completed',
    sequence_number: 10,
    response: {
      ...R,
      status: 'completed',
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hi there' }] }],
      usage: {
        input_tokens: 11,
        input_tokens_details: { cached_tokens: 4 },
        output_tokens: 9,
        output_tokens_details: { reasoning_tokens: 6 },
        total_tokens: 20,
      },
    },
  },
];

describe('responses', () => {
  it('TTFT on the first output_text delta, reasoning deltas as reasoning, usage from response.completed', () => {
    const { ts, nativeRaw } = stream(responsesAdapter, RESPONSES_STREAM, true);
    // The native decoder leaves every typed event to the adapter.
    expect(nativeRaw.decoded?.tail).toBe(RESPONSES_STREAM.length);
    expect(ts.status).toBe('ok');
    expect(ts.content).toBe('Hi there');
    expect(ts.metric_input.token_ns).toHaveLength(3);
    // The first output delta is event 7 (each event its own chunk and stamp); the reasoning delta came before.
    expect(ts.metric_input.first_output_ns).toBe(ts.raw.event_ns[7]);
    expect(ts.metric_input.token_ns[0]).toBe(ts.raw.event_ns[3]);
    expect(ts.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 9, reasoning_tokens: 6, prompt_cache_read_tokens: 4 });
    expect(ts.metric_input.output_tokens).toBe(3);
    expect(ts.finish_reason).toBe('completed');
  });

  it('response.failed and error events end the record as sse_error', () => {
    const failed = {
      type: 'response.failed',
      response: { ...R, status: 'failed', error: { code: 'server_error', message: 'model crashed' } },
    };
    const a = stream(responsesAdapter, [RESPONSES_STREAM[0], RESPONSES_STREAM[7], failed]).ts;
    expect(a.error).toMatchObject({ type: 'sse_error', message: 'model crashed' });
    const b = stream(responsesAdapter, [RESPONSES_STREAM[0], { type: 'error', code: 'ERR', message: 'rate limited', param: null }]).ts;
    expect(b.error).toMatchObject({ type: 'sse_error', message: 'rate limited' });
  });

  it('a malformed event is a parse_error on both paths', () => {
    const chunks = [
      Buffer.from(`event: response.created\ndata: ${j(RESPONSES_STREAM[0])}\n\nevent: response.output_text.delta\ndata: {"type":"resp\n\n`),
    ];
    const p = bothPaths(responsesAdapter, tk, chunks);
    expectSame(p, 'malformed');
    expect(p.ts.error?.type).toBe('parse_error');
  });

  it('non-streaming: the response object, its message and reasoning items', () => {
    const r = body(
      responsesAdapter,
      j({
        id: 'resp_2',
        object: 'response',
        status: 'completed',
        error: null,
        output: [
          { type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
        ],
        usage: { input_tokens: 5, output_tokens: 4, output_tokens_details: { reasoning_tokens: 1 }, total_tokens: 9 },
      }),
    );
    expect(r.status).toBe('ok');
    expect(r.content).toBe('Done.');
    expect(r.metric_input.output_tokens).toBe(3);
    expect(responsesAdapter.parse(j({ object: 'response', status: 'failed', error: { message: 'nope' } }))).toEqual({
      kind: 'error',
      message: 'nope',
    });
  });

  it('the request: input, max_output_tokens, stream', () => {
    const cfg = buildRunConfig({ 'endpoint-type': 'responses' }, {});
    expect(cfg.endpoint).toBe('/v1/responses');
    expect(responsesAdapter.buildBody({ prompt: 'hi', isl: 1, max_tokens: 5 }, cfg)).toEqual({
      model: cfg.model,
      input: 'hi',
      stream: true,
      max_output_tokens: 5,
    });
  });
});

// An Anthropic Messages stream as its streaming documentation lays it out.
const MESSAGES_STREAM = [
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude',
      stop_reason: null,
      usage: { input_tokens: 25, cache_creation_input_tokens: 3, cache_read_input_tokens: 10, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
  { type: 'ping' },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me see' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: '!' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 15 } },
  { type: 'message_stop' },
];

describe('messages', () => {
  it('text and thinking deltas; input usage from message_start, output from message_delta', () => {
    const { ts, nativeRaw } = stream(messagesAdapter, MESSAGES_STREAM, true);
    expect(nativeRaw.decoded?.tail).toBe(MESSAGES_STREAM.length);
    expect(ts.status).toBe('ok');
    expect(ts.content).toBe('Hello!');
    expect(ts.metric_input.token_ns).toHaveLength(3);
    expect(ts.metric_input.first_output_ns).toBe(ts.raw.event_ns[7]);
    // Anthropic's disjoint input count plus its cache reads and writes.
    expect(ts.usage).toMatchObject({
      prompt_tokens: 38,
      completion_tokens: 15,
      prompt_cache_read_tokens: 10,
      prompt_cache_write_tokens: 3,
    });
    expect(ts.metric_input.input_tokens).toBe(38);
    expect(ts.metric_input.output_tokens).toBe(15);
    expect(ts.finish_reason).toBe('end_turn');
    expect(ts.metrics.has('time_to_first_token')).toBe(true);
    expect(ts.metrics.has('inter_token_latency')).toBe(true);
  });

  it('an error event ends the record as sse_error with its message', () => {
    const err = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    const { ts } = stream(messagesAdapter, [MESSAGES_STREAM[0], MESSAGES_STREAM[7], err]);
    expect(ts.error).toMatchObject({ type: 'sse_error', message: 'Overloaded' });
  });

  it('non-streaming: the message body', () => {
    const r = body(
      messagesAdapter,
      j({
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hm', signature: 's' },
          { type: 'text', text: 'Yes.' },
        ],
        usage: { input_tokens: 9, output_tokens: 4 },
      }),
    );
    expect(r.content).toBe('Yes.');
    expect(r.metric_input.input_tokens).toBe(9);
    expect(r.metric_input.output_tokens).toBe(4);
  });

  it('x-api-key and anthropic-version replace the Bearer key; system goes top level', () => {
    const cfg = buildRunConfig({ 'endpoint-type': 'messages', 'api-key': 'sk-ant-secret', 'anthropic-version': '2024-01-01' }, {});
    const req = new RequestBuilder(cfg, messagesAdapter).build({
      index: 0,
      phase: 'profiling',
      x_request_id: 'r',
      credit_issued_ns: 0n,
      targeted_start_ns: null,
      turn: {
        prompt: 'hi',
        isl: 1,
        max_tokens: null,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      },
    });
    expect(req.headers['x-api-key']).toBe('sk-ant-secret');
    expect(req.headers['anthropic-version']).toBe('2024-01-01');
    expect(req.headers.authorization).toBeUndefined();
    expect(JSON.parse(req.body.toString())).toEqual({
      model: cfg.model,
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'hi' }],
      system: 'be brief',
      stream: true,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { completionsAdapter } from '../../../src/endpoints/completions.js';
import { RequestBuilder } from '../../../src/endpoints/request.js';
import { PayloadParseError } from '../../../src/errors.js';

const turn = { prompt: 'hello there', isl: 2, max_tokens: 20 };

describe('chat adapter', () => {
  it('builds a streaming body with include_usage and merged extra inputs', () => {
    const cfg = buildRunConfig({ 'extra-inputs': ['ignore_eos:true', 'max_tokens:7'] }, {});
    const b = chatAdapter.buildBody(turn, cfg);
    expect(b).toMatchObject({
      model: 'mock-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hello there' }],
      ignore_eos: true,
      max_tokens: 7, // extra inputs win over the synthesized length
    });
  });
  it('omits stream_options and max_tokens when not streaming / no length', () => {
    const cfg = buildRunConfig({ streaming: false }, {});
    const b = chatAdapter.buildBody({ ...turn, max_tokens: null }, cfg);
    expect(b).not.toHaveProperty('stream_options');
    expect(b).not.toHaveProperty('max_tokens');
    expect(b.stream).toBe(false);
  });
  it('parses deltas, reasoning, a role-only chunk and usage', () => {
    expect(chatAdapter.parse('{"choices":[{"delta":{"role":"assistant","content":""}}]}')).toEqual({
      kind: 'data',
      content: '',
      reasoning: '',
      has_choices: true,
      usage: null,
    });
    const r = chatAdapter.parse('{"choices":[{"delta":{"reasoning_content":"hmm"}}]}');
    expect(r).toMatchObject({ kind: 'data', reasoning: 'hmm', content: '' });
    const u = chatAdapter.parse(
      '{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8,"completion_tokens_details":{"reasoning_tokens":2}}}',
    );
    expect(u).toEqual({
      kind: 'data',
      content: '',
      reasoning: '',
      has_choices: false,
      usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8, reasoning_tokens: 2 },
    });
    expect(chatAdapter.parse('{"choices":[{"message":{"content":"whole"}}]}')).toMatchObject({ content: 'whole' });
  });
  it('treats wrong-typed usage fields as no value', () => {
    const u = chatAdapter.parse('{"choices":[],"usage":{"prompt_tokens":"3","completion_tokens":-1,"total_tokens":null}}');
    expect(u).toMatchObject({ usage: { prompt_tokens: null, completion_tokens: null, total_tokens: null } });
  });
  it('recognises [DONE], error objects and malformed JSON', () => {
    expect(chatAdapter.parse('[DONE]')).toEqual({ kind: 'done' });
    expect(chatAdapter.parse('{"error":{"message":"boom","type":"server_error"}}')).toEqual({ kind: 'error', message: 'boom' });
    expect(() => chatAdapter.parse('{"choices": [ {bad')).toThrow(PayloadParseError);
    expect(() => chatAdapter.parse('[1,2]')).toThrow(PayloadParseError);
  });
});

describe('completions adapter', () => {
  it('builds a prompt body and parses text', () => {
    const cfg = buildRunConfig({ 'endpoint-type': 'completions' }, {});
    expect(completionsAdapter.buildBody(turn, cfg)).toMatchObject({ prompt: 'hello there', max_tokens: 20, stream: true });
    expect(completionsAdapter.parse('{"choices":[{"text":" hi"}]}')).toMatchObject({ content: ' hi', has_choices: true });
  });
});

describe('RequestBuilder', () => {
  it('adds auth, a fresh request id and the endpoint path', () => {
    const cfg = buildRunConfig({ 'api-key': 'sk-1234', header: ['X-A:1'] }, {});
    const rb = new RequestBuilder(cfg, chatAdapter);
    const credit = { index: 0, phase: 'profiling' as const, x_request_id: 'rid-1', credit_issued_ns: 1n, targeted_start_ns: null, turn };
    const r = rb.build(credit);
    expect(r.path).toBe('/v1/chat/completions');
    expect(r.headers).toMatchObject({
      authorization: 'Bearer sk-1234',
      'x-request-id': 'rid-1',
      'x-a': '1',
      'content-type': 'application/json',
    });
    expect(JSON.parse(r.body.toString()).messages[0].content).toBe('hello there');
  });
});

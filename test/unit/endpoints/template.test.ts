// --endpoint-type template: the body template, the response field paths, and the native decoder
// reading the same events as parse() (array paths natively, flat paths left to TS).
import { beforeAll, describe, expect, it } from 'vitest';
import { compileTemplate, renderTemplate } from '../../../src/endpoints/template-body.js';
import { templateAdapter } from '../../../src/endpoints/template.js';
import { parseTemplateFlags, type TemplateSettings } from '../../../src/endpoints/template-config.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { buildRunConfig } from '../../../src/config/validate.js';
import { bothPaths, expectSame, sseBody } from '../records/decode-equivalence.js';

const TEMPLATE =
  '{"input": {"text": "{{prompt}}", "label": "Q: {{prompt}} ({{max_tokens}})"}, "n": {{max_tokens}}, "stream": {{ stream }}, "m": "{{model}}"}';

function settings(over: Partial<TemplateSettings> = {}): TemplateSettings {
  return {
    file: 't.json',
    text: TEMPLATE,
    content_path: 'outputs[*].text',
    reasoning_path: null,
    usage_path: 'meta.usage',
    error_path: 'failure',
    finish_path: null,
    ...over,
  };
}

let tk: TextTokenizer;
beforeAll(async () => {
  tk = await loadTokenizer();
});

describe('body template', () => {
  it('fills placeholders as JSON values, or escaped inside a longer string', () => {
    const t = compileTemplate(TEMPLATE);
    const body = JSON.parse(renderTemplate(t, { prompt: 'say "hi"\n', max_tokens: 7, model: 'm1', stream: false, messages: [] }));
    expect(body).toEqual({ input: { text: 'say "hi"\n', label: 'Q: say "hi"\n (7)' }, n: 7, stream: false, m: 'm1' });
    expect(JSON.parse(renderTemplate(t, { prompt: 'x', max_tokens: null, model: 'm', stream: true, messages: [] })).n).toBeNull();
  });

  it('an unknown placeholder or a template that is not JSON is bad input naming the flag', () => {
    expect(() => compileTemplate('{"a": "{{promt}}"}')).toThrow(InvalidArgumentError);
    expect(() => compileTemplate('{"a": "{{promt}}"}')).toThrow('--template-file: unknown placeholder {{promt}}');
    expect(() => compileTemplate('{"a": {{prompt}')).toThrow('--template-file: the template is not a JSON object');
  });

  it('the adapter builds the body from a turn and the run config (model, stream, extra inputs)', () => {
    const cfg = { ...buildRunConfig({ model: 'mx', 'extra-inputs': ['temperature:0'] }), streaming: true };
    const body = templateAdapter(settings()).buildBody({ prompt: 'p', isl: 1, max_tokens: 3 }, cfg);
    expect(body).toMatchObject({ input: { text: 'p' }, n: 3, stream: true, m: 'mx', temperature: 0 });
  });
});

describe('response paths', () => {
  it('reads content, reasoning, usage and error where the flags say', () => {
    const a = templateAdapter(settings({ reasoning_path: 'outputs[*].thought' }));
    expect(a.parse(JSON.stringify({ outputs: [{ text: 'he', thought: 'hm' }, { text: 'llo' }] }))).toMatchObject({
      kind: 'data',
      content: 'hello',
      reasoning: 'hm',
      has_choices: true,
    });
    const u = a.parse(JSON.stringify({ outputs: [], meta: { usage: { prompt_tokens: 4, completion_tokens: 9 } } }));
    expect(u).toMatchObject({ kind: 'data', usage: { prompt_tokens: 4, completion_tokens: 9 } });
    expect(a.parse(JSON.stringify({ failure: { message: 'overloaded' } }))).toEqual({ kind: 'error', message: 'overloaded' });
    expect(a.parse('[DONE]')).toEqual({ kind: 'done' });
    expect(() => a.parse('{oops')).toThrow('invalid JSON');
  });

  it('a flat content path (no array) is read by parse(), and the native decoder leaves its events to it', () => {
    const a = templateAdapter(settings({ content_path: 'token.text' }));
    expect(a.parse(JSON.stringify({ token: { text: 'x' } }))).toMatchObject({ content: 'x', has_choices: true });
    expect(a.decodeSpec.error).toBe('(token|failure)');
  });

  it('bad paths are bad input naming the flag', () => {
    expect(() => templateAdapter(settings({ content_path: 'a..b' }))).toThrow('--response-content-path');
    expect(() => templateAdapter(settings({ content_path: 'outputs[*]' }))).toThrow('--response-content-path');
    expect(() => templateAdapter(settings({ usage_path: '' }))).toThrow('--response-usage-path');
    expect(() => templateAdapter(settings({ finish_path: 'a..b' }))).toThrow(InvalidArgumentError);
    expect(() => templateAdapter(settings({ finish_path: '' }))).toThrow('--response-finish-path');
  });

  it('--response-finish-path belongs to the template type; without it nothing is read', () => {
    expect(() => parseTemplateFlags({ 'response-finish-path': 'done' }, 'chat')).toThrow(
      '--response-finish-path: only applies with --endpoint-type template',
    );
    const a = templateAdapter(settings());
    expect(a.decodeSpec.finish).toEqual([]);
    expect(a.parse(JSON.stringify({ outputs: [{ text: 'x', finish_reason: 'stop' }] }))).not.toHaveProperty('finish_reason');
  });
});

describe('native decode equals parse()', () => {
  const j = JSON.stringify;
  const events = [
    j({ outputs: [{ text: '' }] }),
    j({ outputs: [{ text: 'Hello' }] }),
    j({ outputs: [{ text: ' wor' }, { text: 'ld' }, null, 3] }),
    j({ outputs: [{ thought: 'think' }] }),
    j({ outputs: [{ text: 7 }] }),
    j({ outputs: {} }),
    j({ outputs: [{ text: 'last' }], meta: { usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 } } }),
    j({ meta: { usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } } }),
    '[DONE]',
  ];
  it.each([
    ['array path (decoded natively)', settings({ reasoning_path: 'outputs[*].thought' })],
    ['flat path (left to parse)', settings({ content_path: 'outputs.0', usage_path: 'meta.usage' })],
  ])('%s', (_what, s) => {
    const a = templateAdapter(s);
    const p = bothPaths(a, tk, [sseBody(events)], { useServerTokenCount: true });
    expectSame(p, 'template');
    if (s.content_path.includes('[*]')) {
      expect(p.native.content).toBe('Hello world' + 'last');
      expect(p.native.usage).toMatchObject({ completion_tokens: 6 });
    }
  });

  it('flat path: token events go to parse(), a usage-only event is read natively, the same records', () => {
    const a = templateAdapter(settings({ content_path: 'token.text', usage_path: 'meta.usage' }));
    const flat = [
      j({ token: { text: 'He' } }),
      j({ token: { text: '' } }),
      j({ token: null }),
      j({ token: { text: 'llo' } }),
      j({ meta: { usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } } }),
    ];
    const p = bothPaths(a, tk, [sseBody(flat)], { useServerTokenCount: true });
    expectSame(p, 'flat');
    expect(p.native.content).toBe('Hello');
    expect(p.native.usage).toMatchObject({ completion_tokens: 2 });
    expect(p.native.metric_input.token_ns).toHaveLength(2);
  });

  it('the finish path is read from the payload root, natively or by parse(), alike', () => {
    const arr = templateAdapter(settings({ finish_path: 'outputs[*].finish' }));
    const p = bothPaths(arr, tk, [sseBody([j({ outputs: [{ text: 'a' }] }), j({ outputs: [{ text: 'b', finish: 'length' }] }), '[DONE]'])]);
    expectSame(p, 'array finish');
    expect(p.nativeRaw.decoded).toMatchObject({ tail: 0, finish_reason: 'length' });
    expect(p.native.finish_reason).toBe('length');
    // TGI: the last token event carries details.finish_reason; a flat content path leaves it to parse().
    const flat = templateAdapter(settings({ content_path: 'token.text', finish_path: 'details.finish_reason' }));
    const f = bothPaths(flat, tk, [
      sseBody([j({ token: { text: 'a' } }), j({ token: { text: 'b' }, details: { finish_reason: 'eos_token' } })]),
    ]);
    expectSame(f, 'flat finish');
    expect(f.native.finish_reason).toBe('eos_token');
  });

  it('an error event mid-stream is an error record on both paths', () => {
    const a = templateAdapter(settings());
    const p = bothPaths(a, tk, [sseBody([j({ outputs: [{ text: 'a' }] }), j({ failure: 'boom' })])]);
    expectSame(p, 'template error');
    expect(p.native.error).toMatchObject({ message: expect.stringContaining('boom') });
  });
});

import { describe, expect, it } from 'vitest';
import { resolveMockOptions } from '../../../src/mock/options.js';
import { BadRequestError } from '../../../src/errors.js';
import { planGeneration } from '../../../src/mock/request.js';

const opts = resolveMockOptions({ seed: 3 });
const chat = (extra: Record<string, unknown> = {}) => ({ messages: [{ role: 'user', content: 'hello world' }], ...extra });

describe('planGeneration', () => {
  it('honours max_tokens, and max_completion_tokens wins for chat', () => {
    expect(planGeneration('chat', chat({ max_tokens: 7 }), opts).contentTokens).toBe(7);
    const p = planGeneration('chat', chat({ max_tokens: 7, max_completion_tokens: 11 }), opts);
    expect(p.contentTokens).toBe(11);
    expect(p.finishReason).toBe('length');
    // Completions have no max_completion_tokens.
    expect(planGeneration('completions', { prompt: 'x', max_tokens: 5, max_completion_tokens: 9 }, opts).contentTokens).toBe(5);
  });

  it('without max_tokens picks a seeded length in [16, 128] that min_tokens can raise', () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const p = planGeneration('chat', { messages: [{ role: 'user', content: `prompt ${i}` }] }, opts);
      expect(p.contentTokens).toBeGreaterThanOrEqual(16);
      expect(p.contentTokens).toBeLessThanOrEqual(128);
      expect(p.finishReason).toBe('stop');
      lengths.add(p.contentTokens);
    }
    expect(lengths.size).toBeGreaterThan(20);
    expect(planGeneration('chat', chat(), opts)).toEqual(planGeneration('chat', chat(), opts));
    expect(planGeneration('chat', chat({ min_tokens: 500 }), opts).contentTokens).toBe(500);
  });

  it('early eos only without ignore_eos and never below min_tokens', () => {
    const eos = resolveMockOptions({ seed: 3, eosProbability: 0.2 });
    let early = 0;
    for (let i = 0; i < 100; i++) {
      const body = { messages: [{ role: 'user', content: `p${i}` }], max_tokens: 100, min_tokens: 10 };
      const p = planGeneration('chat', body, eos);
      expect(p.contentTokens).toBeGreaterThanOrEqual(10);
      expect(p.contentTokens).toBeLessThanOrEqual(100);
      if (p.contentTokens < 100) {
        early++;
        expect(p.finishReason).toBe('stop');
      }
      expect(planGeneration('chat', { ...body, ignore_eos: true }, eos).contentTokens).toBe(100);
    }
    expect(early).toBeGreaterThan(90);
    const always = resolveMockOptions({ eosProbability: 1 });
    expect(planGeneration('chat', chat({ max_tokens: 50, min_tokens: 4 }), always).contentTokens).toBe(4);
    expect(planGeneration('chat', chat({ max_tokens: 50 }), always).contentTokens).toBe(1);
  });

  it('reasoning tokens are chat-only and come on top of the content', () => {
    const r = resolveMockOptions({ reasoningTokens: 6 });
    const p = planGeneration('chat', chat({ max_tokens: 4 }), r);
    expect([p.reasoningTokens, p.contentTokens]).toEqual([6, 4]);
    expect(planGeneration('completions', { prompt: 'x', max_tokens: 4 }, r).reasoningTokens).toBe(0);
  });

  it('stream options, model echo and the prompt estimate', () => {
    const p = planGeneration('chat', chat({ stream: true, stream_options: { include_usage: true }, model: 'm1' }), opts);
    expect([p.stream, p.includeUsage, p.model]).toEqual([true, true, 'm1']);
    // include_usage without stream means nothing.
    expect(planGeneration('chat', chat({ stream_options: { include_usage: true } }), opts).includeUsage).toBe(false);
    expect(planGeneration('chat', chat(), opts).model).toBe('mock-model');
    // 'hello world' = 11 chars -> 3; token ids count one each.
    expect(planGeneration('chat', chat(), opts).promptTokens).toBe(3);
    expect(planGeneration('completions', { prompt: [1, 2, 3, 4, 5] }, opts).promptTokens).toBe(5);
    const parts = { messages: [{ role: 'user', content: [{ type: 'text', text: 'abcdefgh' }] }] };
    expect(planGeneration('chat', parts, opts).promptTokens).toBe(2);
  });

  it('rejects bad requests', () => {
    const bad: Array<[string, unknown]> = [
      ['chat', { max_tokens: 5 }],
      ['chat', chat({ max_tokens: 0 })],
      ['chat', chat({ max_tokens: 2.5 })],
      ['chat', chat({ max_tokens: 5, min_tokens: 6 })],
      ['chat', [1, 2]],
      ['completions', { max_tokens: 5 }],
      ['completions', { prompt: { a: 1 } }],
    ];
    for (const [kind, body] of bad) {
      expect(() => planGeneration(kind as 'chat', body, opts), JSON.stringify(body)).toThrow(BadRequestError);
    }
  });
});

describe('resolveMockOptions', () => {
  it('fills documented defaults', () => {
    const o = resolveMockOptions();
    expect(o).toMatchObject({ ttftMs: 20, itlMs: 5, tokensPerChunk: 1, reasoningTokens: 0, modelName: 'mock-model', failMode: 'http500' });
    // The closing events go out with the last token unless delayed.
    expect(o).toMatchObject({ usageDelayMs: 0, doneDelayMs: 0 });
  });

  it('names the bad option', () => {
    expect(() => resolveMockOptions({ itlMs: -1 })).toThrow(/--itl-ms/);
    expect(() => resolveMockOptions({ tokensPerChunk: 0 })).toThrow(/--tokens-per-chunk/);
    expect(() => resolveMockOptions({ failRate: 2 })).toThrow(/--fail-rate/);
    expect(() => resolveMockOptions({ failMode: 'boom' as 'hang' })).toThrow(/--fail-mode/);
    expect(() => resolveMockOptions({ port: NaN })).toThrow(/--port/);
    expect(() => resolveMockOptions({ usageDelayMs: -1 })).toThrow(/--usage-delay-ms/);
    expect(() => resolveMockOptions({ doneDelayMs: Infinity })).toThrow(/--done-delay-ms/);
  });
});

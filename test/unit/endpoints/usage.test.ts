import { describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { quoteNonFiniteTokens } from '../../../src/endpoints/lenient-json.js';
import { MAX_USAGE_COUNT, MAX_USAGE_SECONDS, parseUsage, usageOfPayload } from '../../../src/endpoints/usage.js';
import { captureWarnings } from '../../helpers/warnings.js';

const warnings = captureWarnings();

describe('parseUsage: vendor shapes', () => {
  it('OpenAI: prompt/completion details (cached, audio, reasoning, predictions)', () => {
    const u = parseUsage({
      prompt_tokens: 1200,
      completion_tokens: 300,
      total_tokens: 1500,
      prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 7 },
      completion_tokens_details: { reasoning_tokens: 100, audio_tokens: 3, accepted_prediction_tokens: 20, rejected_prediction_tokens: 5 },
    })!;
    expect(u).toMatchObject({
      prompt_tokens: 1200,
      completion_tokens: 300,
      total_tokens: 1500,
      reasoning_tokens: 100,
      prompt_cache_read_tokens: 1024,
      prompt_audio_tokens: 7,
      completion_audio_tokens: 3,
      accepted_prediction_tokens: 20,
      rejected_prediction_tokens: 5,
    });
    // Vendor fields the response did not have are left out.
    for (const k of ['prompt_cache_write_tokens', 'prompt_cache_miss_tokens', 'tool_use_prompt_tokens', 'prompt_audio_seconds']) {
      expect(u).not.toHaveProperty(k);
    }
    expect(warnings).toEqual([]);
  });

  it('OpenAI Responses naming: input_tokens_details / output_tokens_details', () => {
    const u = parseUsage({
      input_tokens: 50,
      output_tokens: 9,
      total_tokens: 59,
      input_tokens_details: { cached_tokens: 32 },
      output_tokens_details: { reasoning_tokens: 4 },
    })!;
    // No Anthropic cache keys: input_tokens is already the total.
    expect(u.prompt_tokens).toBe(50);
    expect(u.completion_tokens).toBe(9);
    expect(u.prompt_cache_read_tokens).toBe(32);
    expect(u.reasoning_tokens).toBe(4);
  });

  it('Anthropic: cache read/write at the top level, input_tokens re-totalled', () => {
    const u = parseUsage({ input_tokens: 10, output_tokens: 40, cache_read_input_tokens: 900, cache_creation_input_tokens: 90 })!;
    expect(u.prompt_tokens).toBe(10 + 900 + 90);
    expect(u.prompt_cache_read_tokens).toBe(900);
    expect(u.prompt_cache_write_tokens).toBe(90);
    expect(u.completion_tokens).toBe(40);
  });

  it('DeepSeek: cache hit and miss tokens', () => {
    const u = parseUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36 })!;
    expect(u.prompt_cache_read_tokens).toBe(64);
    expect(u.prompt_cache_miss_tokens).toBe(36);
    expect(u.prompt_tokens).toBe(100);
  });

  it('Gemini: usageMetadata envelope (in usage or at the top level), thoughts counted in completion', () => {
    const meta = {
      promptTokenCount: 120,
      candidatesTokenCount: 30,
      thoughtsTokenCount: 12,
      totalTokenCount: 162,
      cachedContentTokenCount: 64,
      toolUsePromptTokenCount: 18,
    };
    for (const u of [parseUsage({ usageMetadata: meta })!, usageOfPayload({ candidates: [], usageMetadata: meta })!]) {
      expect(u.prompt_tokens).toBe(120);
      expect(u.completion_tokens).toBe(42);
      expect(u.reasoning_tokens).toBe(12);
      expect(u.total_tokens).toBe(162);
      expect(u.prompt_cache_read_tokens).toBe(64);
      expect(u.tool_use_prompt_tokens).toBe(18);
    }
  });

  it('Mistral: prompt_audio_seconds keeps fractions', () => {
    const u = parseUsage({ prompt_tokens: 5, completion_tokens: 1, total_tokens: 6, prompt_audio_seconds: 12.5 })!;
    expect(u.prompt_audio_seconds).toBe(12.5);
  });

  it('non-objects are no usage; missing fields and JSON null are no value without a warning', () => {
    expect(parseUsage(null)).toBeNull();
    expect(parseUsage('12')).toBeNull();
    expect(parseUsage([1, 2])).toBeNull();
    const u = parseUsage({ prompt_tokens: null, completion_tokens: 3 })!;
    expect(u.prompt_tokens).toBeNull();
    expect(u.total_tokens).toBeNull();
    expect(warnings).toEqual([]);
  });
});

describe('parseUsage: values of the wrong type', () => {
  it('a string, a negative number, a fraction: no value and one warning naming the field', () => {
    const u = parseUsage({
      prompt_tokens: '120',
      completion_tokens: -3,
      total_tokens: 2.5,
      prompt_tokens_details: { cached_tokens: 'lots' },
      prompt_audio_seconds: -1,
    })!;
    expect(u.prompt_tokens).toBeNull();
    expect(u.completion_tokens).toBeNull();
    expect(u.total_tokens).toBeNull();
    expect(u.prompt_cache_read_tokens ?? null).toBeNull();
    expect(u.prompt_audio_seconds ?? null).toBeNull();
    expect(warnings).toHaveLength(5);
    for (const field of [
      'usage.prompt_tokens',
      'usage.completion_tokens',
      'usage.total_tokens',
      'usage.prompt_tokens_details.cached_tokens',
      'usage.prompt_audio_seconds',
    ]) {
      expect(
        warnings.some((w) => w.includes(`'${field}'`)),
        field,
      ).toBe(true);
    }
  });

  it('a value out of range (a count above MAX_USAGE_COUNT, seconds above MAX_USAGE_SECONDS) is treated alike', () => {
    const u = parseUsage({
      prompt_tokens: 1e300,
      completion_tokens: 1e11,
      total_tokens: MAX_USAGE_COUNT,
      prompt_tokens_details: { cached_tokens: MAX_USAGE_COUNT + 1 },
      prompt_audio_seconds: MAX_USAGE_SECONDS * 2,
    })!;
    expect(u.prompt_tokens).toBeNull();
    expect(u.completion_tokens).toBeNull();
    expect(u.total_tokens).toBe(MAX_USAGE_COUNT);
    expect(u.prompt_cache_read_tokens ?? null).toBeNull();
    expect(u.prompt_audio_seconds ?? null).toBeNull();
    expect(warnings).toHaveLength(4);
    expect(warnings.find((w) => w.includes("'usage.completion_tokens'"))).toMatch(
      /is 100000000000, expected a non-negative integer up to 1000000000/,
    );
  });

  it('warns once per field however many responses repeat it', () => {
    for (let i = 0; i < 50; i++) parseUsage({ prompt_tokens: 'x', completion_tokens: 'y' });
    expect(warnings).toHaveLength(2);
  });

  it('a bad field leaves the good ones of the same response', () => {
    const u = parseUsage({ prompt_tokens: 10, completion_tokens: 'nope', total_tokens: 10 })!;
    expect(u.prompt_tokens).toBe(10);
    expect(u.total_tokens).toBe(10);
    expect(u.completion_tokens).toBeNull();
  });
});

describe('NaN and Infinity from Python servers', () => {
  it('quotes bare tokens outside strings only', () => {
    expect(quoteNonFiniteTokens('{"a":NaN,"b":-Infinity,"c":"NaN here","d":Infinity}')).toBe(
      '{"a":"NaN","b":"-Infinity","c":"NaN here","d":"Infinity"}',
    );
    expect(quoteNonFiniteTokens('{"a":"x\\"NaN"}')).toBeNull();
    expect(quoteNonFiniteTokens('{"a":1}')).toBeNull();
  });

  it('a payload with usage NaN keeps its content; the field has no value and is warned about', () => {
    const p = chatAdapter.parse(
      '{"choices":[{"delta":{"content":"hi"}}],"usage":{"prompt_tokens":NaN,"completion_tokens":2,"total_tokens":NaN}}',
    );
    expect(p.kind).toBe('data');
    if (p.kind !== 'data') return;
    expect(p.content).toBe('hi');
    expect(p.usage?.prompt_tokens).toBeNull();
    expect(p.usage?.completion_tokens).toBe(2);
    expect(warnings.some((w) => w.includes("'usage.prompt_tokens'") && w.includes('NaN'))).toBe(true);
  });

  it('invalid JSON that is not about NaN is still a parse error', () => {
    expect(() => chatAdapter.parse('{"choices": [ {bad')).toThrow(/invalid JSON/);
  });
});

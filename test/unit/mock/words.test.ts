// The mock's own tokenizer (--tokenizer-kind words) and its /tokenize answers.
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../src/errors.js';
import { countWords, tokenizeResponse, wordTokens } from '../../../src/mock/words.js';
import { WordSource } from '../../../src/mock/text.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';

describe('mock words tokenizer', () => {
  it('a token is a run of letters and digits, or one other non-space character', () => {
    expect(wordTokens('Hello, world! 12,345 apples.')).toEqual(['Hello', ',', 'world', '!', '12', ',', '345', 'apples', '.']);
    expect(countWords('  \n ')).toBe(0);
    expect(countWords(' thewhile')).toBe(1);
  });

  it('answers /tokenize in vLLM and llama.cpp shapes, and refuses a body with neither', () => {
    const vllm = JSON.parse(tokenizeResponse({ model: 'm', prompt: 'Hello, world', add_special_tokens: false }));
    expect(vllm.count).toBe(3);
    expect(vllm.tokens).toHaveLength(3);
    expect(typeof vllm.max_model_len).toBe('number');
    const llama = JSON.parse(tokenizeResponse({ content: 'Hello, world' }));
    expect(llama).toEqual({ tokens: vllm.tokens });
    expect(() => tokenizeResponse({ inputs: 'x' })).toThrow(BadRequestError);
  });

  it('compound output words are one token each here and differ from cl100k counts', async () => {
    const text = new WordSource(42, true).take(200);
    expect(countWords(text)).toBe(200);
    const cl100k = (await loadTokenizer()).count(text);
    expect(cl100k).toBeGreaterThan(300);
    // The plain output stays one cl100k token per word.
    expect((await loadTokenizer()).count(new WordSource(42).take(200))).toBe(200);
  });
});

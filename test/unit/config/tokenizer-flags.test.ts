// --tokenizer and --tokenizer-revision: what is accepted, and the combinations --tokenizer server refuses.
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors.js';
import { buildRunConfig } from '../../../src/config/validate.js';
import { approximateCountsNote, tokenizerNeedsServer } from '../../../src/run/profile/tokenizer-choice.js';

describe('--tokenizer flags', () => {
  it('keeps the spec and the revision; the default is null (the --model, else cl100k)', () => {
    const c = buildRunConfig({ tokenizer: 'acme/tiny-model', 'tokenizer-revision': 'v2' }, {});
    expect(c.tokenizer).toBe('acme/tiny-model');
    expect(c.tokenizer_revision).toBe('v2');
    expect(buildRunConfig({}, {}).tokenizer).toBeNull();
  });

  it.each([
    [{ tokenizer: '  ' }, /^--tokenizer: must not be empty/],
    [{ tokenizer: 'a/b', 'tokenizer-revision': 'a b' }, /^--tokenizer-revision: expected a ref name or a commit hash/],
    [{ tokenizer: 'server', 'input-file': 'x.jsonl' }, /^--tokenizer: 'server' works with synthetic prompts only, not with --input-file/],
    [{ tokenizer: 'server', 'num-prefix-prompts': 2, 'prefix-prompt-length': 8 }, /not with --num-prefix-prompts/],
    [{ tokenizer: 'server', 'tokenizer-revision': 'main' }, /^--tokenizer-revision: has no meaning with --tokenizer server/],
    [{ tokenizer: 'cl100k', 'tokenizer-revision': 'main' }, /^--tokenizer-revision: has no meaning with --tokenizer cl100k/],
  ])('%j is refused in one line', (flags, msg) => {
    expect(() => buildRunConfig(flags, {})).toThrow(InvalidArgumentError);
    expect(() => buildRunConfig(flags, {})).toThrow(msg);
  });

  it('the server tokenizer, or a model named only by the server, waits for the server', () => {
    expect(tokenizerNeedsServer(buildRunConfig({ tokenizer: 'server' }, {}))).toBe(true);
    expect(tokenizerNeedsServer(buildRunConfig({ url: 'http://h:1' }, {}))).toBe(true);
    expect(tokenizerNeedsServer(buildRunConfig({ url: 'http://h:1', model: 'm' }, {}))).toBe(false);
  });

  it('the cl100k note gives the fixes, leaving out --use-server-token-count when the run has it', () => {
    const note = approximateCountsNote(buildRunConfig({ url: 'http://h:1', model: 'acme-x' }, {}));
    expect(note).toMatch(
      /--model acme-x is not a Hugging Face Hub id \(org\/name\) and the cache holds no tokenizer for it; counting with cl100k/,
    );
    expect(approximateCountsNote(buildRunConfig({ url: 'http://h:1', model: 'acme/x', tokenizer: 'cl100k' }, {}))).toMatch(
      /tokenizer: --tokenizer cl100k; counting with cl100k/,
    );
    expect(note).toContain('--tokenizer server, or --use-server-token-count');
    const withUsage = approximateCountsNote(buildRunConfig({ url: 'http://h:1', model: 'acme-x', 'use-server-token-count': true }, {}));
    expect(withUsage).not.toContain('--use-server-token-count');
  });
});

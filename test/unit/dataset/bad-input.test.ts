// Every bad dataset input fails while loading, with one line naming the file, the line and the
// problem (InvalidFileError, exit code 2).
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidFileError } from '../../../src/errors.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { fixture, loadSource } from './helpers.js';

let tok: TextTokenizer;
beforeAll(async () => {
  tok = await loadTokenizer();
});

async function failure(name: string, type?: string): Promise<Error> {
  const flags: Record<string, unknown> = { 'input-file': fixture(name) };
  if (type) flags['custom-dataset-type'] = type;
  try {
    await loadSource(tok, flags);
  } catch (err) {
    return err as Error;
  }
  throw new Error(`${name} loaded without an error`);
}

describe('bad dataset files', () => {
  it.each([
    ['bad/not_json.jsonl', 'single_turn', 3, /not valid JSON/],
    ['bad/single_turn_not_object.jsonl', 'single_turn', 2, /expected a JSON object, got an array/],
    ['bad/single_turn_missing_text.jsonl', 'single_turn', 2, /missing required field "text" or "prompt" or "messages"/],
    ['bad/single_turn_bad_max_tokens.jsonl', 'single_turn', 1, /field "max_tokens" must be a positive integer, got number 0/],
    ['bad/single_turn_bad_message.jsonl', 'single_turn', 2, /messages\[0\]: missing required field "content"/],
    ['bad/multi_turn_missing_text.jsonl', 'multi_turn', 2, /turns\[1\]: missing required field "text" or "prompt"/],
    ['bad/multi_turn_duplicate_session.jsonl', 'multi_turn', 2, /session_id "s" is already used on line 1/],
    ['bad/multi_turn_empty.jsonl', 'multi_turn', 1, /field "turns" must not be empty/],
    ['bad/mooncake_missing_input.jsonl', 'mooncake_trace', 2, /missing required field "input_length" or "text_input"/],
    ['bad/mooncake_wrong_type.jsonl', 'mooncake_trace', 4, /field "input_length" must be a positive integer, got a string \("ten"\)/],
    ['bad/mooncake_bad_hash.jsonl', 'mooncake_trace', 1, /field "hash_ids"\[1\] must be a non-negative integer, got number -1/],
    ['bad/mooncake_missing_timestamp.jsonl', 'mooncake_trace', 2, /missing "timestamp" or "delay" \(line 1 has one/],
    ['bad/sharegpt_bad_entry.json', 'sharegpt', 3, /entry 1: conversations\[1\]: missing required field "value"/],
    ['bad/sharegpt_not_json.json', 'sharegpt', 3, /not valid JSON/],
  ])('%s (%s) → line %i', async (name, type, line, re) => {
    const err = await failure(name, type);
    expect(err).toBeInstanceOf(InvalidFileError);
    expect((err as InvalidFileError).exitCode).toBe(2);
    expect(err.message).toContain(`${fixture(name)}:${line}: `);
    expect(err.message).toMatch(re);
    expect(err.message).not.toContain('\n');
  });

  it('the type is guessed from the first line when not given, and the same checks apply', async () => {
    const err = await failure('bad/mooncake_wrong_type.jsonl');
    expect(err.message).toContain(`${fixture('bad/mooncake_wrong_type.jsonl')}:4: `);
  });

  it('a file that does not exist', async () => {
    const err = await failure('nope/missing.jsonl', 'single_turn');
    expect(err).toBeInstanceOf(InvalidFileError);
    expect(err.message).toBe(`${fixture('nope/missing.jsonl')}: cannot read the dataset file (no such file)`);
  });

  it('a file read as the wrong type fails on its first line', async () => {
    const err = await failure('single_turn.jsonl', 'mooncake_trace');
    expect(err.message).toContain(`${fixture('single_turn.jsonl')}:1: missing required field "input_length" or "text_input"`);
  });

  it('--sharegpt-multi-turn with a file that turns out not to be ShareGPT', async () => {
    await expect(loadSource(tok, { 'input-file': fixture('single_turn.jsonl'), 'sharegpt-multi-turn': true })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(loadSource(tok, { 'input-file': fixture('single_turn.jsonl'), 'sharegpt-multi-turn': true })).rejects.toThrow(
      /--sharegpt-multi-turn: cannot be combined with --input-file .*single_turn/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseDatasetFlags, type DatasetFlags } from '../../../src/dataset/config.js';
import { buildRunConfig } from '../../../src/config/validate.js';
import { InvalidArgumentError } from '../../../src/errors.js';

describe('parseDatasetFlags', () => {
  it('defaults: synthetic, sequential, one turn, no prefixes, no mixture', () => {
    expect(parseDatasetFlags({})).toEqual({
      input_file: null,
      public_dataset: null,
      hf: null,
      sonnet: null,
      custom_dataset_type: null,
      sampling_strategy: 'sequential',
      sharegpt_multi_turn: false,
      conversation_num: null,
      conversation_turn_mean: 1,
      conversation_turn_stddev: 0,
      conversation_turn_delay_mean_ms: 0,
      conversation_turn_delay_stddev_ms: 0,
      num_prefix_prompts: 0,
      prefix_prompt_length: 0,
      shared_system_prompt_length: 0,
      seq_dist: null,
      fixed_schedule_speedup: 1,
    });
  });

  it('reads every flag', () => {
    const d = parseDatasetFlags({
      'conversation-num': 5,
      'conversation-turn-mean': 3,
      'conversation-turn-stddev': 1,
      'conversation-turn-delay-mean': 200,
      'conversation-turn-delay-stddev': 50,
      'num-prefix-prompts': 4,
      'prefix-prompt-length': 32,
      'shared-system-prompt-length': 16,
      'dataset-sampling-strategy': 'shuffle',
      'seq-dist': '100,10:0.5;200,20:0.5',
    });
    expect(d).toMatchObject({
      conversation_num: 5,
      conversation_turn_mean: 3,
      conversation_turn_stddev: 1,
      conversation_turn_delay_mean_ms: 200,
      conversation_turn_delay_stddev_ms: 50,
      num_prefix_prompts: 4,
      prefix_prompt_length: 32,
      shared_system_prompt_length: 16,
      sampling_strategy: 'shuffle',
    });
    expect(d.seq_dist).toHaveLength(2);
    expect(parseDatasetFlags({ 'input-file': 'x.jsonl', 'custom-dataset-type': 'sharegpt', 'sharegpt-multi-turn': true })).toMatchObject({
      input_file: 'x.jsonl',
      custom_dataset_type: 'sharegpt',
      sharegpt_multi_turn: true,
    });
  });

  it.each<[DatasetFlags, RegExp]>([
    [{ 'custom-dataset-type': 'mooncake_trace' }, /--custom-dataset-type: needs --input-file/],
    [
      { 'input-file': 'f', 'custom-dataset-type': 'csv' },
      /--custom-dataset-type: expected one of single_turn, multi_turn, mooncake_trace, sharegpt/,
    ],
    [{ 'seq-dist': '100,10:1', 'isl-stddev': 5 }, /--seq-dist: .*--isl-stddev/],
    [{ 'seq-dist': '100,10:1', isl: 100 }, /--seq-dist: .*--isl\b/],
    [{ 'seq-dist': '100,10:1', osl: 10 }, /--seq-dist: .*--osl\b/],
    [{ 'seq-dist': '100,10:0.5' }, /--seq-dist: probabilities must sum to 1/],
    [{ 'input-file': 'f', isl: 100 }, /--isl: .*--input-file/],
    [{ 'input-file': 'f', 'seq-dist': '1,1:1' }, /--seq-dist: .*--input-file/],
    [{ 'input-file': 'f', 'conversation-num': 3 }, /--conversation-num: .*--input-file/],
    [{ 'input-file': 'f', 'num-prefix-prompts': 3, 'prefix-prompt-length': 5 }, /--num-prefix-prompts: .*--input-file/],
    [{ 'num-prefix-prompts': 3 }, /--num-prefix-prompts: needs --prefix-prompt-length/],
    [{ 'prefix-prompt-length': 30 }, /--prefix-prompt-length: needs --num-prefix-prompts/],
    [{ 'num-prefix-prompts': 2, 'prefix-prompt-length': 128 }, /--prefix-prompt-length: must be below --isl \(128 >= 128\)/],
    [{ 'num-prefix-prompts': 2, 'prefix-prompt-length': 50, isl: 40 }, /--prefix-prompt-length: must be below --isl/],
    [
      { 'num-prefix-prompts': 2, 'prefix-prompt-length': 50, 'seq-dist': '100,1:0.5;50,1:0.5' },
      /--prefix-prompt-length: must be below every --seq-dist ISL/,
    ],
    [{ 'sharegpt-multi-turn': true }, /--sharegpt-multi-turn: needs --input-file/],
    [
      { 'sharegpt-multi-turn': true, 'input-file': 'f', 'custom-dataset-type': 'single_turn' },
      /--sharegpt-multi-turn: cannot be combined with --custom-dataset-type single_turn/,
    ],
    [{ 'dataset-sampling-strategy': 'shuffle' }, /--dataset-sampling-strategy: needs --input-file or --conversation-num/],
    [
      { 'input-file': 'f', 'dataset-sampling-strategy': 'lifo' },
      /--dataset-sampling-strategy: expected one of sequential, random, shuffle/,
    ],
    [{ 'conversation-num': 0 }, /--conversation-num: must be at least 1/],
    [{ 'conversation-num': 2.5 }, /--conversation-num: expected an integer/],
    [{ 'conversation-turn-mean': 0.5 }, /--conversation-turn-mean: must be at least 1/],
    [{ 'conversation-turn-delay-mean': Number.NaN }, /--conversation-turn-delay-mean: expected a number, got NaN/],
    [{ 'shared-system-prompt-length': -1 }, /--shared-system-prompt-length/],
    [{ 'input-file': '  ' }, /--input-file: must not be empty/],
  ])('rejects %j with one line naming the flags', (flags, re) => {
    expect(() => parseDatasetFlags(flags)).toThrow(InvalidArgumentError);
    expect(() => parseDatasetFlags(flags)).toThrow(re);
  });

  it('--osl stays usable with a file (the output length of entries that give none)', () => {
    expect(() => parseDatasetFlags({ 'input-file': 'f', osl: 32, 'osl-stddev': 4 })).not.toThrow();
  });

  it('is part of the run config', () => {
    const cfg = buildRunConfig({ 'input-file': 'x.jsonl', 'custom-dataset-type': 'single_turn' }, {});
    expect(cfg.dataset.input_file).toBe('x.jsonl');
    expect(cfg.dataset.custom_dataset_type).toBe('single_turn');
    expect(() => buildRunConfig({ 'custom-dataset-type': 'single_turn' }, {})).toThrow(/--custom-dataset-type: needs --input-file/);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { detectDatasetType } from '../../../src/dataset/index.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { fixture, loadSource, take } from './helpers.js';

let tok: TextTokenizer;
beforeAll(async () => {
  tok = await loadTokenizer();
});

describe('single_turn', () => {
  it('reads text, prompt and messages lines with their max_tokens; ISL counted with the tokenizer', async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('single_turn.jsonl'), 'custom-dataset-type': 'single_turn', osl: 77 });
    expect(source.kind).toBe('single_turn');
    expect(source.size).toBe(4);
    expect(source.hasTimestamps).toBe(false);
    const convs = take(source, 4);
    expect(convs.map((c) => c.turns.length)).toEqual([1, 1, 1, 1]);
    const turns = convs.map((c) => c.turns[0]);
    expect(turns.map((t) => t.prompt)).toEqual([
      'Explain how a lighthouse lens focuses light.',
      'Write a haiku about rain on a tin roof.',
      'You answer in one sentence.\n\nWhy is the sky blue?',
      'List three uses of baking soda.',
    ]);
    // A line without max_tokens takes --osl.
    expect(turns.map((t) => t.max_tokens)).toEqual([40, 20, 30, 77]);
    for (const t of turns) expect(t.isl).toBe(tok.count(t.prompt));
    expect(turns[2].messages).toEqual([
      { role: 'system', content: 'You answer in one sentence.' },
      { role: 'user', content: 'Why is the sky blue?' },
    ]);
    expect(turns[0].messages).toBeUndefined();
    expect(turns.every((t) => t.timestamp_ms === null && t.delay_ms === null)).toBe(true);
    expect(convs.map((c) => c.id)).toEqual(['L1', 'L2', 'L4', 'L5']);
  });

  it('timestamps out of order are sorted, with one warning counting the late lines', async () => {
    const { source, warnings } = await loadSource(tok, { 'input-file': fixture('single_turn_timed.jsonl') });
    expect(source.hasTimestamps).toBe(true);
    const turns = take(source, 5).map((c) => c.turns[0]);
    expect(turns.map((t) => t.timestamp_ms)).toEqual([0, 100, 100, 300, 400]);
    // Stable: equal timestamps keep file order.
    expect(turns.map((t) => t.prompt)).toEqual([
      'first by time',
      'second by time',
      'also second by time',
      'third by time',
      'fourth by time',
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/single_turn_timed\.jsonl: 2 lines are out of time order/);
  });

  it('delays become a schedule: each line after the previous one', async () => {
    const { source, warnings } = await loadSource(tok, { 'input-file': fixture('single_turn_delay.jsonl') });
    expect(source.hasTimestamps).toBe(true);
    expect(take(source, 5).map((c) => c.turns[0].timestamp_ms)).toEqual([0, 250, 350, 1000, 1050]);
    expect(warnings).toEqual([]);
  });

  it('a returned conversation is a copy: changing it does not change the dataset', async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('single_turn.jsonl') });
    const a = source.next();
    a.turns[0].prompt = 'changed';
    take(source, 3);
    expect(source.next().turns[0].prompt).toBe('Explain how a lighthouse lens focuses light.');
  });
});

describe('sampling strategies over a file', () => {
  const lines = (convs: { id: string }[]) => convs.map((c) => c.id);

  it('sequential wraps around in file order', async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('single_turn.jsonl'), 'dataset-sampling-strategy': 'sequential' });
    expect(lines(take(source, 9))).toEqual(['L1', 'L2', 'L4', 'L5', 'L1', 'L2', 'L4', 'L5', 'L1']);
  });

  it('shuffle gives a permutation per pass, the same for the same seed', async () => {
    const flags = { 'input-file': fixture('single_turn.jsonl'), 'dataset-sampling-strategy': 'shuffle', 'random-seed': 4 };
    const a = lines(take((await loadSource(tok, flags)).source, 12));
    const b = lines(take((await loadSource(tok, flags)).source, 12));
    expect(a).toEqual(b);
    for (let p = 0; p < 3; p++) expect([...a.slice(p * 4, p * 4 + 4)].sort()).toEqual(['L1', 'L2', 'L4', 'L5']);
  });

  it('random is seeded', async () => {
    const flags = (seed: number) => ({
      'input-file': fixture('single_turn.jsonl'),
      'dataset-sampling-strategy': 'random',
      'random-seed': seed,
    });
    const a = lines(take((await loadSource(tok, flags(1))).source, 40));
    const b = lines(take((await loadSource(tok, flags(1))).source, 40));
    const c = lines(take((await loadSource(tok, flags(2))).source, 40));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(new Set(a)).toEqual(new Set(['L1', 'L2', 'L4', 'L5']));
  });
});

describe('multi_turn', () => {
  it('one conversation per line, turns in order with think times; system prompts kept', async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('multi_turn.jsonl'), 'custom-dataset-type': 'multi_turn', osl: 9 });
    expect(source.kind).toBe('multi_turn');
    expect(source.size).toBe(3);
    expect(source.hasTimestamps).toBe(false);
    const [travel, code, owls] = take(source, 3);
    expect(travel.id).toBe('travel');
    expect(travel.turns.map((t) => t.prompt)).toEqual(['Plan a two-day trip to Lisbon.', 'Make day two cheaper.', 'Where should we eat?']);
    expect(travel.turns.map((t) => t.delay_ms)).toEqual([null, 1500, 800]);
    expect(travel.turns.map((t) => t.max_tokens)).toEqual([60, 40, 9]);
    for (const t of travel.turns) expect(t.isl).toBe(tok.count(t.prompt));
    expect(code.system_prompt).toBe('You are a terse reviewer.');
    expect(code.turns[0].max_tokens).toBe(30);
    expect(owls.id).toBe('L3');
    expect(owls.turns.map((t) => t.delay_ms)).toEqual([null, 0]);
  });

  it('first-turn timestamps schedule the conversations, in time order', async () => {
    const { source, warnings } = await loadSource(tok, { 'input-file': fixture('multi_turn_timed.jsonl') });
    expect(source.hasTimestamps).toBe(true);
    const [first, second] = take(source, 2);
    expect(first.id).toBe('early');
    expect(first.turns.map((t) => [t.timestamp_ms, t.delay_ms])).toEqual([
      [100, null],
      [900, null],
    ]);
    expect(second.turns.map((t) => [t.timestamp_ms, t.delay_ms])).toEqual([
      [500, null],
      [null, 200],
    ]);
    expect(warnings).toEqual([expect.stringMatching(/1 line is out of time order/)]);
  });
});

describe('sharegpt', () => {
  it('first human turn as the prompt, the reply length as max_tokens; unusable conversations skipped with a warning', async () => {
    const { source, warnings } = await loadSource(tok, { 'input-file': fixture('sharegpt.json'), 'custom-dataset-type': 'sharegpt' });
    expect(source.kind).toBe('sharegpt');
    expect(source.size).toBe(2);
    expect(warnings).toEqual([
      expect.stringMatching(/sharegpt\.json: skipped 2 conversations without a human message followed by a reply/),
    ]);
    const [a, c] = take(source, 2);
    expect(a.id).toBe('conv-a');
    expect(a.turns).toHaveLength(1);
    expect(a.turns[0].prompt).toBe('What is the capital of Australia?');
    expect(a.turns[0].isl).toBe(tok.count('What is the capital of Australia?'));
    expect(a.turns[0].max_tokens).toBe(
      tok.count('The capital of Australia is Canberra, chosen as a compromise between Sydney and Melbourne.'),
    );
    expect(c.turns[0].prompt).toBe('Name a prime number.');
    expect(c.turns[0].max_tokens).toBe(tok.count('Seven.'));
    expect(c.system_prompt).toBeUndefined();
  });

  it('--sharegpt-multi-turn: every human turn, each sized by its own reply', async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('sharegpt.json'), 'sharegpt-multi-turn': true });
    const a = source.next();
    expect(a.turns.map((t) => t.prompt)).toEqual(['What is the capital of Australia?', 'When was it founded?']);
    expect(a.turns[1].max_tokens).toBe(tok.count('Canberra was officially founded in 1913.'));
  });

  it('reads the JSONL form too (user/assistant roles accepted)', async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('sharegpt.jsonl'), 'custom-dataset-type': 'sharegpt' });
    expect(take(source, 2).map((c) => c.turns[0].prompt)).toEqual(['Say hi.', 'Count to three.']);
  });
});

describe('shared system prompt with a file', () => {
  it('every conversation gets the same system prompt of exactly the given length', async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('single_turn.jsonl'), 'shared-system-prompt-length': 40 });
    const convs = take(source, 4);
    const sys = convs[0].system_prompt!;
    expect(tok.count(sys)).toBe(40);
    expect(convs.every((c) => c.system_prompt === sys)).toBe(true);
  });
});

describe('detectDatasetType', () => {
  it.each([
    ['single_turn.jsonl', 'single_turn'],
    ['multi_turn.jsonl', 'multi_turn'],
    ['mooncake.jsonl', 'mooncake_trace'],
    ['sharegpt.json', 'sharegpt'],
    ['sharegpt.jsonl', 'sharegpt'],
  ])('%s → %s', async (name, type) => {
    const fs = await import('node:fs');
    expect(detectDatasetType(name, fs.readFileSync(fixture(name), 'utf8'))).toBe(type);
  });
});

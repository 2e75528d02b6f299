import { beforeAll, describe, expect, it } from 'vitest';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import type { ConversationTurn } from '../../../src/dataset/types.js';
import { fixture, loadSource, take } from './helpers.js';

let tok: TextTokenizer;
beforeAll(async () => {
  tok = await loadTokenizer();
});

const B = 512;

function commonPrefixChars(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function commonTokens(a: string, b: string): number {
  const x = tok.encode(a);
  const y = tok.encode(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

async function traceTurns(seed = 0): Promise<ConversationTurn[]> {
  const { source } = await loadSource(tok, {
    'input-file': fixture('mooncake.jsonl'),
    'custom-dataset-type': 'mooncake_trace',
    'random-seed': seed,
    osl: 33,
  });
  return take(source, 7).map((c) => c.turns[0]);
}

describe('mooncake_trace', () => {
  it('reads timestamps, lengths and output lengths; a trace is a timed source', async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('mooncake.jsonl') });
    expect(source.kind).toBe('mooncake_trace');
    expect(source.size).toBe(7);
    expect(source.hasTimestamps).toBe(true);
    const turns = take(source, 7).map((c) => c.turns[0]);
    expect(turns.map((t) => t.timestamp_ms)).toEqual([0, 50, 120, 200, 260, 300, 310]);
    expect(turns.map((t) => t.max_tokens)).toEqual([20, 10, 30, 5, 12, 8, 64]);
  });

  it('every synthesized prompt is exactly input_length tokens under the tokenizer', async () => {
    const turns = await traceTurns();
    const lengths = [1200, 700, 1536, 300, 1100];
    lengths.forEach((n, i) => {
      expect(turns[i].isl).toBe(n);
      expect(tok.count(turns[i].prompt)).toBe(n);
    });
    // A literal text_input is sent as given and counted.
    expect(turns[5].prompt).toBe('Summarize the plot of a mystery novel in two sentences.');
    expect(turns[5].isl).toBe(tok.count(turns[5].prompt));
    // No hash_ids: a prompt of its own, still exact.
    expect(tok.count(turns[6].prompt)).toBe(90);
  });

  it('requests sharing hash_ids share those blocks byte for byte and token for token', async () => {
    const t = (await traceTurns()).map((x) => x.prompt);
    const enc = t.map((p) => tok.encode(p));
    // Lines 1, 3, 5 share hash ids [0, 1]: 1024 tokens; line 2 shares only [0].
    const prefix01 = enc[0].slice(0, 2 * B);
    expect(enc[2].slice(0, 2 * B)).toEqual(prefix01);
    expect(enc[4].slice(0, 2 * B)).toEqual(prefix01);
    expect(enc[1].slice(0, B)).toEqual(prefix01.slice(0, B));
    // ...and the text itself, not just the tokens.
    const text01 = tok.decode(prefix01);
    for (const i of [0, 2, 4]) expect(t[i].startsWith(text01)).toBe(true);
    // Different ids part ways: line 2's second block ([3]) differs from block 1 at once.
    expect(commonTokens(t[0], t[1])).toBeLessThan(B + 3);
    expect(commonTokens(t[0], t[2])).toBeLessThan(2 * B + 3);
    // Line 5 is line 1 cut short inside block 2: it is a prefix of line 1, tokens included.
    expect(enc[0].slice(0, 1100)).toEqual(enc[4]);
    expect(t[0].startsWith(t[4])).toBe(true);
    // Unshared ids share nothing with the rest beyond a token or two.
    expect(commonPrefixChars(t[3], t[0])).toBeLessThan(20);
  });

  it('is reproducible from the seed (and a replayed line gives the same prompt); another seed changes the text', async () => {
    const a = await traceTurns(1);
    const b = await traceTurns(1);
    const c = await traceTurns(2);
    expect(a.map((x) => x.prompt)).toEqual(b.map((x) => x.prompt));
    expect(a[0].prompt).not.toBe(c[0].prompt);
    const { source } = await loadSource(tok, { 'input-file': fixture('mooncake.jsonl'), 'random-seed': 1 });
    const twice = take(source, 14).map((x) => x.turns[0].prompt);
    expect(twice.slice(7)).toEqual(twice.slice(0, 7));
  });

  it('a trace that goes backwards is replayed in time order, with one warning counting the lines', async () => {
    const { source, warnings } = await loadSource(tok, { 'input-file': fixture('mooncake_backwards.jsonl') });
    expect(take(source, 5).map((c) => c.turns[0].timestamp_ms)).toEqual([500, 1000, 1500, 2000, 3000]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/mooncake_backwards\.jsonl: 2 lines are out of time order; replaying in timestamp order/);
  });

  it("session_id groups lines into one conversation; a later line's delay is think time", async () => {
    const { source } = await loadSource(tok, { 'input-file': fixture('mooncake_sessions.jsonl') });
    expect(source.size).toBe(3);
    const convs = take(source, 3);
    expect(convs.map((c) => c.id)).toEqual(['a', 'L2', 'b']);
    expect(convs[0].turns.map((t) => [t.isl, t.timestamp_ms, t.delay_ms])).toEqual([
      [600, 0, null],
      [200, null, 300],
    ]);
    for (const c of convs) for (const t of c.turns) expect(tok.count(t.prompt)).toBe(t.isl);
  });
});

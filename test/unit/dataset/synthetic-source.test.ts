import { beforeAll, describe, expect, it } from 'vitest';
import { SyntheticDataset } from '../../../src/dataset/synthetic.js';
import type { Conversation } from '../../../src/dataset/types.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { loadSource, take } from './helpers.js';

let tok: TextTokenizer;
beforeAll(async () => {
  tok = await loadTokenizer();
});

function meanStd(xs: number[]): { mean: number; std: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return { mean, std: Math.sqrt(v) };
}

const turnsOf = (convs: Conversation[]) => convs.flatMap((c) => c.turns);

describe('synthetic ConversationSource', () => {
  it('with no dataset flags: endless one-turn conversations, the same turns as SyntheticDataset', async () => {
    const { source } = await loadSource(tok, { isl: 90, 'isl-stddev': 20, osl: 30, 'osl-stddev': 5, 'random-seed': 8 });
    expect(source.kind).toBe('synthetic');
    expect(source.size).toBeNull();
    expect(source.hasTimestamps).toBe(false);
    const old = new SyntheticDataset({ isl_mean: 90, isl_stddev: 20, osl_mean: 30, osl_stddev: 5, seed: 8 }, tok);
    for (const c of take(source, 50)) {
      expect(c.turns).toHaveLength(1);
      expect(c.system_prompt).toBeUndefined();
      const t = old.next();
      expect(c.turns[0]).toEqual({ prompt: t.prompt, isl: t.isl, max_tokens: t.max_tokens, timestamp_ms: null, delay_ms: null });
    }
  });

  it('conversation ids are distinct', async () => {
    const { source } = await loadSource(tok, { isl: 20 });
    expect(new Set(take(source, 100).map((c) => c.id)).size).toBe(100);
  });

  it('multi-turn: turn counts follow --conversation-turn-mean/-stddev; stddev 0 gives the mean exactly', async () => {
    const { source } = await loadSource(tok, {
      isl: 8,
      osl: 4,
      'conversation-turn-mean': 4,
      'conversation-turn-stddev': 1.5,
      'random-seed': 2,
    });
    const counts = take(source, 2000).map((c) => c.turns.length);
    const { mean, std } = meanStd(counts);
    // SE of the mean 1.5/sqrt(2000) = 0.034; clamping at 1 and rounding shift it by < 0.05.
    expect(Math.abs(mean - 4)).toBeLessThan(0.2);
    expect(Math.abs(std - 1.5)).toBeLessThan(0.2);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
    const fixed = (await loadSource(tok, { isl: 8, 'conversation-turn-mean': 3 })).source;
    expect(new Set(take(fixed, 50).map((c) => c.turns.length))).toEqual(new Set([3]));
  });

  it('multi-turn: think time between turns follows --conversation-turn-delay-mean/-stddev (ms); none before the first', async () => {
    const { source } = await loadSource(tok, {
      isl: 8,
      'conversation-turn-mean': 3,
      'conversation-turn-delay-mean': 500,
      'conversation-turn-delay-stddev': 100,
    });
    const convs = take(source, 1000);
    expect(convs.every((c) => c.turns[0].delay_ms === null)).toBe(true);
    const delays = convs.flatMap((c) => c.turns.slice(1).map((t) => t.delay_ms as number));
    expect(delays).toHaveLength(2000);
    const { mean, std } = meanStd(delays);
    // SE of the mean 100/sqrt(2000) = 2.2 ms.
    expect(Math.abs(mean - 500)).toBeLessThan(10);
    expect(Math.abs(std - 100)).toBeLessThan(8);
    expect(delays.every((d) => d >= 0)).toBe(true);
    const still = (await loadSource(tok, { isl: 8, 'conversation-turn-mean': 2, 'conversation-turn-delay-mean': 250 })).source.next();
    expect(still.turns.map((t) => t.delay_ms)).toEqual([null, 250]);
  });

  it('every turn of every conversation is exact under the tokenizer', async () => {
    const { source } = await loadSource(tok, { isl: 60, 'isl-stddev': 25, 'conversation-turn-mean': 3, 'conversation-turn-stddev': 1 });
    const wrong = turnsOf(take(source, 80)).filter((t) => tok.count(t.prompt) !== t.isl);
    expect(wrong).toEqual([]);
  });

  it('prefix pool: each first turn starts with one of N shared prefixes (its exact tokens), ISL exact and including it', async () => {
    const { source } = await loadSource(tok, {
      isl: 100,
      'isl-stddev': 30,
      'num-prefix-prompts': 3,
      'prefix-prompt-length': 40,
      'conversation-turn-mean': 2,
      'random-seed': 5,
    });
    const convs = take(source, 300);
    const firsts = convs.map((c) => c.turns[0]);
    // The pool: the first 40 tokens of every first turn, decoded, give exactly 3 distinct prefixes.
    const prefixes = new Set(firsts.map((t) => tok.decode(tok.encode(t.prompt).slice(0, 40))));
    expect(prefixes.size).toBe(3);
    for (const p of prefixes) expect(tok.count(p)).toBe(40);
    for (const t of firsts) {
      expect([...prefixes].some((p) => t.prompt.startsWith(p))).toBe(true);
      expect(tok.count(t.prompt)).toBe(t.isl);
      expect(t.isl).toBeGreaterThanOrEqual(41);
    }
    // Each prefix is used about a third of the time (binomial sd ~8 at n=300).
    for (const p of prefixes) {
      const n = firsts.filter((t) => t.prompt.startsWith(p)).length;
      expect(Math.abs(n - 100)).toBeLessThan(40);
    }
    // Later turns do not start with a pool prefix, and their own parts differ.
    for (const c of convs) expect([...prefixes].some((p) => c.turns[1].prompt.startsWith(p))).toBe(false);
    expect(new Set(firsts.map((t) => t.prompt)).size).toBe(300);
  });

  it('--seq-dist: lengths follow the mixture', async () => {
    const { source } = await loadSource(tok, { 'seq-dist': '30,5:0.25;70,9:0.75', 'random-seed': 3 });
    const turns = turnsOf(take(source, 2000));
    const short = turns.filter((t) => t.isl === 30 && t.max_tokens === 5).length;
    const long = turns.filter((t) => t.isl === 70 && t.max_tokens === 9).length;
    expect(short + long).toBe(2000);
    // Binomial(2000, 0.25): sd 19.4; allow 5 sd.
    expect(Math.abs(short - 500)).toBeLessThan(97);
    for (const t of turns.slice(0, 100)) expect(tok.count(t.prompt)).toBe(t.isl);
  });

  it('--seq-dist with stddevs samples around each entry', async () => {
    const { source } = await loadSource(tok, { 'seq-dist': '200|20,50|0:1' });
    const isl = turnsOf(take(source, 1500)).map((t) => t.isl as number);
    const { mean, std } = meanStd(isl);
    expect(Math.abs(mean - 200)).toBeLessThan(2.5);
    expect(Math.abs(std - 20)).toBeLessThan(2);
  });

  it('--shared-system-prompt-length: one system prompt of exactly that length for every conversation', async () => {
    const { source } = await loadSource(tok, { isl: 20, 'shared-system-prompt-length': 64, 'conversation-turn-mean': 2 });
    const convs = take(source, 20);
    const sys = convs[0].system_prompt!;
    expect(tok.count(sys)).toBe(64);
    expect(convs.every((c) => c.system_prompt === sys)).toBe(true);
    expect(convs.every((c) => !c.turns[0].prompt.startsWith(sys))).toBe(true);
  });

  it('--conversation-num: a finite set replayed per the sampling strategy', async () => {
    const seq = (await loadSource(tok, { isl: 16, 'conversation-num': 5, 'conversation-turn-mean': 2 })).source;
    expect(seq.size).toBe(5);
    const a = take(seq, 10);
    expect(a.slice(5)).toEqual(a.slice(0, 5));
    expect(new Set(a.slice(0, 5).map((c) => c.turns[0].prompt)).size).toBe(5);
    const shuf = (
      await loadSource(tok, { isl: 16, 'conversation-num': 5, 'conversation-turn-mean': 2, 'dataset-sampling-strategy': 'shuffle' })
    ).source;
    const b = take(shuf, 10);
    for (const pass of [b.slice(0, 5), b.slice(5)])
      expect(pass.map((c) => c.id).sort()).toEqual(
        a
          .slice(0, 5)
          .map((c) => c.id)
          .sort(),
      );
    // Conversation i is the same whatever order it is drawn in.
    const byId = new Map(a.map((c) => [c.id, c]));
    for (const c of b) expect(c).toEqual(byId.get(c.id));
  });
});

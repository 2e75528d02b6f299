import { beforeAll, describe, expect, it } from 'vitest';
import { SyntheticDataset, validateSyntheticConfig } from '../../../src/dataset/synthetic.js';
import type { SyntheticConfig } from '../../../src/dataset/types.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import type { Turn } from '../../../src/model/turn.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';

let tok: TextTokenizer;
beforeAll(async () => {
  tok = await loadTokenizer();
});

const BASE: SyntheticConfig = { isl_mean: 200, isl_stddev: 0, osl_mean: 50, osl_stddev: 0, seed: 1 };

function take(ds: SyntheticDataset, n: number): Turn[] {
  return Array.from({ length: n }, () => ds.next());
}

function meanStd(xs: number[]): { mean: number; std: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return { mean, std: Math.sqrt(v) };
}

describe('SyntheticDataset', () => {
  it('samples ISL and OSL with the configured mean and stddev', () => {
    const ds = new SyntheticDataset({ isl_mean: 500, isl_stddev: 50, osl_mean: 200, osl_stddev: 20, seed: 3 }, tok);
    const turns = take(ds, 3000);
    const isl = meanStd(turns.map((t) => t.isl as number));
    const osl = meanStd(turns.map((t) => t.max_tokens as number));
    // SE of the mean: 50/sqrt(3000) = 0.91 (ISL), 0.37 (OSL); SE of std ~0.65 / 0.26.
    // Tolerances are ~4 SE (rounding to integers adds ~0.3 to the std at most).
    expect(Math.abs(isl.mean - 500)).toBeLessThan(3.7);
    expect(Math.abs(isl.std - 50)).toBeLessThan(2.6);
    expect(Math.abs(osl.mean - 200)).toBeLessThan(1.5);
    expect(Math.abs(osl.std - 20)).toBeLessThan(1.1);
    expect(turns.every((t) => Number.isInteger(t.isl) && Number.isInteger(t.max_tokens))).toBe(true);
  });

  it('each prompt counts exactly its isl tokens', () => {
    const ds = new SyntheticDataset({ isl_mean: 300, isl_stddev: 120, osl_mean: null, osl_stddev: 0, seed: 4 }, tok);
    const wrong = take(ds, 150).filter((t) => tok.count(t.prompt) !== t.isl);
    expect(wrong).toEqual([]);
  });

  it('stddev 0 gives constant lengths', () => {
    const turns = take(new SyntheticDataset({ ...BASE, isl_mean: 128, osl_mean: 64 }, tok), 200);
    expect(new Set(turns.map((t) => t.isl))).toEqual(new Set([128]));
    expect(new Set(turns.map((t) => t.max_tokens))).toEqual(new Set([64]));
    expect(new Set(turns.map((t) => t.prompt)).size).toBe(200);
  });

  it('osl null gives max_tokens null', () => {
    const turns = take(new SyntheticDataset({ ...BASE, osl_mean: null, osl_stddev: 30 }, tok), 20);
    expect(turns.every((t) => t.max_tokens === null)).toBe(true);
  });

  it('clamps sampled lengths to at least 1', () => {
    const turns = take(new SyntheticDataset({ ...BASE, isl_mean: 2, isl_stddev: 10, osl_mean: 1, osl_stddev: 10 }, tok), 500);
    expect(Math.min(...turns.map((t) => t.isl as number))).toBe(1);
    expect(Math.min(...turns.map((t) => t.max_tokens as number))).toBe(1);
    expect(turns.every((t) => tok.count(t.prompt) === t.isl)).toBe(true);
  });

  it('is deterministic for a seed, and a different seed changes the turns', () => {
    const cfg = { isl_mean: 100, isl_stddev: 30, osl_mean: 40, osl_stddev: 10, seed: 77 };
    const a = take(new SyntheticDataset(cfg, tok), 50);
    expect(take(new SyntheticDataset(cfg, tok), 50)).toEqual(a);
    const b = take(new SyntheticDataset({ ...cfg, seed: 78 }, tok), 50);
    expect(b.map((t) => t.prompt)).not.toEqual(a.map((t) => t.prompt));
    expect(b.map((t) => t.isl)).not.toEqual(a.map((t) => t.isl));
  });

  it('changing the OSL options leaves prompts and ISLs unchanged (separate streams)', () => {
    const cfg = { isl_mean: 100, isl_stddev: 30, osl_mean: 40, osl_stddev: 10, seed: 5 };
    const a = take(new SyntheticDataset(cfg, tok), 30);
    const b = take(new SyntheticDataset({ ...cfg, osl_mean: null }, tok), 30);
    expect(b.map((t) => [t.prompt, t.isl])).toEqual(a.map((t) => [t.prompt, t.isl]));
  });

  it('is endless by default and finite (repeating) with count', () => {
    expect(new SyntheticDataset(BASE, tok).size).toBeNull();
    const ds = new SyntheticDataset({ ...BASE, isl_stddev: 20, count: 3 }, tok);
    expect(ds.kind).toBe('synthetic');
    expect(ds.size).toBe(3);
    const first = take(ds, 3);
    expect(new Set(first.map((t) => t.prompt)).size).toBe(3);
    expect(take(ds, 4)).toEqual([...first, first[0]]);
  });
});

describe('validateSyntheticConfig', () => {
  const cases: [Partial<SyntheticConfig>, string][] = [
    [{ isl_mean: -5 }, '--isl'],
    [{ isl_mean: 0 }, '--isl'],
    [{ isl_mean: 12.5 }, '--isl'],
    [{ isl_mean: Number.NaN }, '--isl'],
    [{ isl_stddev: -1 }, '--isl-stddev'],
    [{ osl_mean: -10 }, '--osl'],
    [{ osl_stddev: -0.5 }, '--osl-stddev'],
    [{ osl_stddev: Number.POSITIVE_INFINITY }, '--osl-stddev'],
    [{ seed: 1.5 }, '--random-seed'],
  ];
  for (const [patch, flag] of cases) {
    it(`rejects ${JSON.stringify(patch)} naming ${flag}`, () => {
      const run = (): void => validateSyntheticConfig({ ...BASE, ...patch });
      expect(run).toThrow(InvalidArgumentError);
      expect(run).toThrow(new RegExp(`^${flag} must be`));
    });
  }

  it('the dataset constructor validates too, before building anything', () => {
    expect(() => new SyntheticDataset({ ...BASE, isl_stddev: -3 }, tok)).toThrow(/--isl-stddev/);
  });

  it('accepts a valid config, including null osl and fractional stddevs', () => {
    expect(() => validateSyntheticConfig({ ...BASE, osl_mean: null, isl_stddev: 0.5, count: 10 })).not.toThrow();
  });
});

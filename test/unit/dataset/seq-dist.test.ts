import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/model/rng.js';
import { parseSeqDist, pickSeqDist } from '../../../src/dataset/seq-dist.js';
import { InvalidArgumentError } from '../../../src/errors.js';

describe('parseSeqDist', () => {
  it('parses pairs, probabilities and optional stddevs', () => {
    expect(parseSeqDist('256,128:0.6; 1024|50,512|20:0.4;')).toEqual([
      { isl: 256, isl_stddev: 0, osl: 128, osl_stddev: 0, prob: 0.6 },
      { isl: 1024, isl_stddev: 50, osl: 512, osl_stddev: 20, prob: 0.4 },
    ]);
  });

  it('accepts sums within 1e-6 of 1', () => {
    expect(parseSeqDist('10,10:0.3333333;20,20:0.3333333;30,30:0.3333334')).toHaveLength(3);
  });

  it.each([
    ['100,10:0.5;200,20:0.4', /--seq-dist: probabilities must sum to 1, got 0.9/],
    ['100,10:0.5;200,20:0.5000021', /must sum to 1/],
    ['', /empty/],
    ['100,10', /expected ISL,OSL:prob/],
    ['100:1', /expected ISL,OSL:prob/],
    ['0,10:1', /ISL .* positive integer/],
    ['100,1.5:1', /OSL .* positive integer/],
    ['100|-1,10:1', /stddev/],
    ['100,10:abc', /probability/],
    ['100,10:0', /probability/],
  ])('rejects %j', (spec, re) => {
    expect(() => parseSeqDist(spec)).toThrow(InvalidArgumentError);
    expect(() => parseSeqDist(spec)).toThrow(re);
  });
});

describe('pickSeqDist', () => {
  it('picks entries with their probabilities', () => {
    const entries = parseSeqDist('1,1:0.2;2,2:0.5;3,3:0.3');
    const rng = new Rng('mix');
    const counts = [0, 0, 0];
    const N = 20000;
    for (let i = 0; i < N; i++) counts[pickSeqDist(entries, rng).isl - 1]++;
    // Binomial sd at N=20000: <= 71 draws; allow 5 sd.
    [0.2, 0.5, 0.3].forEach((p, i) => expect(Math.abs(counts[i] - p * N)).toBeLessThan(355));
  });
});

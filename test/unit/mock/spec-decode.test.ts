import { describe, expect, it } from 'vitest';
import { resolveMockOptions } from '../../../src/mock/options.js';
import { planGeneration } from '../../../src/mock/request.js';
import { planSpecSteps, SpecStepCursor } from '../../../src/mock/spec-decode.js';

describe('mock speculative decoding', () => {
  it('steps emit exactly the response length; 0 ≤ accepted ≤ drafted', () => {
    for (const tokens of [1, 2, 7, 64, 500]) {
      const s = planSpecSteps(tokens, 4, 0.7, tokens)!;
      const emitted = s.accepted.reduce((a, j) => a + j + 1, 0);
      expect(emitted).toBe(tokens);
      expect(s.emittedEnd[s.emittedEnd.length - 1]).toBe(tokens);
      s.accepted.forEach((j, i) => {
        expect(j).toBeGreaterThanOrEqual(0);
        expect(j).toBeLessThanOrEqual(s.drafted[i]);
        expect(s.drafted[i]).toBe(4);
      });
    }
  });

  it('acceptance follows P in order: rate ≈ (1/K)·Σ P^i, length ≈ 1 + Σ P^i', () => {
    const K = 4;
    const P = 0.6;
    let acc = 0;
    let drafted = 0;
    let steps = 0;
    for (let seed = 0; seed < 200; seed++) {
      const s = planSpecSteps(1000, K, P, seed)!;
      acc += s.accepted.reduce((a, b) => a + b, 0);
      drafted += s.drafted.reduce((a, b) => a + b, 0);
      steps += s.accepted.length;
    }
    const sum = [1, 2, 3, 4].reduce((a, i) => a + P ** i, 0);
    // ~87k steps: the standard error of the rate is ~0.1 %; 1 % is a wide margin.
    expect(acc / drafted).toBeGreaterThan(sum / K - 0.01);
    expect(acc / drafted).toBeLessThan(sum / K + 0.01);
    expect(1 + acc / steps).toBeCloseTo(1 + sum, 1);
  });

  it('P = 0 accepts nothing, P = 1 everything; K = 0 is off', () => {
    expect(planSpecSteps(10, 3, 0, 1)!.accepted.every((j) => j === 0)).toBe(true);
    // 14 tokens at 4 per step: three full steps, then one cut to the 2 tokens left.
    expect(planSpecSteps(14, 3, 1, 1)!.accepted).toEqual([3, 3, 3, 1]);
    expect(planSpecSteps(10, 0, 0.5, 1)).toBeNull();
  });

  it('the cursor hands out each step once, when its last token has gone out', () => {
    const s = planSpecSteps(14, 3, 1, 1)!; // steps end at tokens 4, 8, 12, 14
    const c = new SpecStepCursor(s);
    expect(c.upTo(3)).toBeNull();
    expect(c.upTo(4)).toBe('{"draft_tokens":[3],"accepted_tokens":[3]}');
    expect(c.upTo(5)).toBeNull();
    expect(c.upTo(14)).toBe('{"draft_tokens":[3,3,3],"accepted_tokens":[3,3,1]}');
    expect(c.upTo(14)).toBeNull();
  });

  it('a plan gets steps only when the option is on, over content and reasoning tokens', () => {
    const body = { messages: [{ role: 'user', content: 'hi' }], max_tokens: 20 };
    expect(planGeneration('chat', body, resolveMockOptions()).specSteps).toBeNull();
    const p = planGeneration('chat', body, resolveMockOptions({ specDecodeDraftLen: 2, specDecodeAcceptance: 0.5, reasoningTokens: 5 }));
    expect(p.specSteps!.emittedEnd.at(-1)).toBe(25);
    // Turning spec decode on changes nothing else about the plan.
    const off = planGeneration('chat', body, resolveMockOptions({ reasoningTokens: 5 }));
    expect({ ...p, specSteps: null }).toEqual(off);
  });

  it('validates the options', () => {
    expect(() => resolveMockOptions({ specDecodeDraftLen: -1 })).toThrow(/--spec-decode-draft-len/);
    expect(() => resolveMockOptions({ specDecodeAcceptance: 1.5 })).toThrow(/--spec-decode-acceptance/);
  });
});

// Simulated speculative decoding for the mock (--spec-decode-draft-len K --spec-decode-acceptance P).
// Each verify step proposes K draft tokens; drafts are checked in order and each is accepted with
// probability P until the first rejection, so a step accepts j ∈ [0, K] drafts and emits j + 1 tokens
// (the bonus token). Expected per-draft acceptance rate: (1/K)·Σ_{i=1..K} P^i; expected acceptance
// length: 1 + Σ_{i=1..K} P^i. The last step is cut so the steps emit exactly the response's tokens.
//
// Wire format (servebench's extension, read by endpoints/spec-decode.ts): a top-level
//   "spec_decode": {"draft_tokens": [K, ...], "accepted_tokens": [j, ...]}
// on each chunk, listing the steps completed by the end of that chunk (omitted when none), or on
// the whole body for a non-streaming response.
import { createRng, mixSeed, unit } from './text.js';

export interface SpecSteps {
  drafted: number[];
  accepted: number[];
  /** Tokens emitted by the end of each step (cumulative), for attributing steps to chunks. */
  emittedEnd: number[];
}

/** The verify steps that emit `tokens` tokens, seeded; null when spec decode is off (K = 0). */
export function planSpecSteps(tokens: number, draftLen: number, acceptance: number, seed: number): SpecSteps | null {
  if (!(draftLen > 0) || !(tokens > 0)) return null;
  const rng = createRng(mixSeed(seed, 0x5bd1e995));
  const drafted: number[] = [];
  const accepted: number[] = [];
  const emittedEnd: number[] = [];
  let emitted = 0;
  while (emitted < tokens) {
    let j = 0;
    while (j < draftLen && unit(rng) < acceptance) j++;
    // The final step stops at the response's length, like an engine at max_tokens.
    j = Math.min(j, tokens - emitted - 1);
    emitted += j + 1;
    drafted.push(draftLen);
    accepted.push(j);
    emittedEnd.push(emitted);
  }
  return { drafted, accepted, emittedEnd };
}

/** The `spec_decode` JSON for steps [from, to), or null when the range is empty. */
export function specDecodeJson(s: SpecSteps, from: number, to: number): string | null {
  if (to <= from) return null;
  return `{"draft_tokens":[${s.drafted.slice(from, to).join(',')}],"accepted_tokens":[${s.accepted.slice(from, to).join(',')}]}`;
}

/** Hands out the steps completed as tokens go out, chunk by chunk. */
export class SpecStepCursor {
  private next = 0;

  constructor(private readonly steps: SpecSteps | null) {}

  /** JSON for the steps completed once `emitted` tokens have been sent (null: none new). */
  upTo(emitted: number): string | null {
    const s = this.steps;
    if (!s) return null;
    const from = this.next;
    while (this.next < s.emittedEnd.length && s.emittedEnd[this.next] <= emitted) this.next++;
    return specDecodeJson(s, from, this.next);
  }
}

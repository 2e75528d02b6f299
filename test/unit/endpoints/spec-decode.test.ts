import { describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { SpecDecodeAccumulator, specDecodeOfPayload } from '../../../src/endpoints/spec-decode.js';
import { captureWarnings } from '../../helpers/warnings.js';

const warnings = captureWarnings();

function fold(...payloads: Record<string, unknown>[]) {
  const acc = new SpecDecodeAccumulator();
  for (const p of payloads) {
    const c = specDecodeOfPayload(p);
    if (c) acc.add(c);
  }
  return acc.result();
}

describe('spec-decode payload shapes', () => {
  it("servebench's per-step extension adds up across chunks", () => {
    const r = fold(
      { choices: [], spec_decode: { draft_tokens: [4, 4], accepted_tokens: [0, 3] } },
      { choices: [] },
      { choices: [], spec_decode: { draft_tokens: [4], accepted_tokens: [3] } },
    );
    expect(r).toEqual({ steps: 3, accepted_draft_tokens: 6, draft_tokens: 12, histogram: [1, 0, 0, 2] });
  });

  it('vLLM metrics.speculative_decoding (dense list, or an object with string keys); the last one wins', () => {
    const dense = { num_spec_steps: 43, num_accepted_draft_tokens: 10, num_draft_tokens: 129, acceptance_histogram: [39, 1, 0, 3] };
    const r = fold(
      { metrics: { speculative_decoding: { ...dense, num_spec_steps: 1, acceptance_histogram: [1], num_accepted_draft_tokens: 0 } } },
      { metrics: { speculative_decoding: dense } },
    );
    expect(r).toEqual({ steps: 43, accepted_draft_tokens: 10, draft_tokens: 129, histogram: [39, 1, 0, 3] });
    const keyed = fold({ metrics: { speculative_decoding: { ...dense, acceptance_histogram: { '0': 39, '1': 1, '3': 3 } } } });
    expect(keyed?.histogram).toEqual([39, 1, 0, 3]);
  });

  it('SGLang sglext.spec_tokens_details on a choice', () => {
    const r = fold({
      choices: [
        {
          index: 0,
          sglext: {
            spec_tokens_details: {
              spec_verify_ct: 43,
              spec_num_correct_drafts: 63,
              spec_num_proposed_drafts: 215,
              spec_correct_drafts_histogram: [11, 14, 11, 4, 0, 3],
            },
          },
        },
      ],
    });
    expect(r).toEqual({ steps: 43, accepted_draft_tokens: 63, draft_tokens: 215, histogram: [11, 14, 11, 4, 0, 3] });
  });

  it('inconsistent or malformed stats are ignored with a one-time warning', () => {
    const bad = [
      {
        metrics: {
          speculative_decoding: {
            num_spec_steps: 99,
            num_accepted_draft_tokens: 10,
            num_draft_tokens: 129,
            acceptance_histogram: [39, 1, 0, 3],
          },
        },
      },
      {
        metrics: {
          speculative_decoding: { num_spec_steps: 2, num_accepted_draft_tokens: 2, num_draft_tokens: 1, acceptance_histogram: [1, 0, 1] },
        },
      },
      {
        metrics: {
          speculative_decoding: { num_spec_steps: 1, num_accepted_draft_tokens: 0, num_draft_tokens: 1, acceptance_histogram: [-1] },
        },
      },
      { metrics: { speculative_decoding: { num_spec_steps: 1, num_accepted_draft_tokens: 0, num_draft_tokens: 1 } } },
    ];
    for (const p of bad) expect(specDecodeOfPayload(p)).toBeNull();
    expect(specDecodeOfPayload({ spec_decode: { draft_tokens: [2], accepted_tokens: [3] } })).toBeNull();
    expect(specDecodeOfPayload({ spec_decode: { draft_tokens: [2, 2], accepted_tokens: [1] } })).toBeNull();
    expect(warnings).toHaveLength(2); // one per source shape
  });

  it('no stats, or zero verify steps: no record', () => {
    expect(fold({ choices: [] })).toBeNull();
    expect(
      fold({
        metrics: {
          speculative_decoding: { num_spec_steps: 0, num_accepted_draft_tokens: 0, num_draft_tokens: 0, acceptance_histogram: [] },
        },
      }),
    ).toBeNull();
  });

  it('the chat adapter hands the stats over with the payload', () => {
    const p = chatAdapter.parse('{"choices":[{"delta":{"content":"a b"}}],"spec_decode":{"draft_tokens":[3],"accepted_tokens":[1]}}');
    expect(p.kind === 'data' && p.spec_decode).toEqual({ kind: 'steps', drafted: [3], accepted: [1] });
  });
});

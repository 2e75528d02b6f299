// Speculative decoding acceptance of one request, engine-neutral.

/**
 * Speculative decoding acceptance of one request, engine-neutral. `histogram[j]` is the number of
 * verify steps that accepted exactly j draft tokens, so sum(histogram) = steps and
 * sum(j · histogram[j]) = accepted_draft_tokens.
 */
export interface SpecDecodeRecord {
  steps: number;
  accepted_draft_tokens: number;
  draft_tokens: number;
  histogram: number[];
}

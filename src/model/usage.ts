// Server-reported usage, normalised across vendors.

/**
 * Server-reported usage, normalised across vendors (see endpoints/usage.ts for the field map).
 * Fields absent from the response, or of the wrong type, are null. The fields after
 * reasoning_tokens are optional so older producers of Usage stay valid.
 */
export interface Usage {
  /** Every prompt token the server processed, cached or not (Anthropic's disjoint counts are re-totalled). */
  prompt_tokens: number | null;
  /** Output tokens including reasoning (Gemini's candidates + thoughts). */
  completion_tokens: number | null;
  total_tokens: number | null;
  reasoning_tokens: number | null;
  prompt_cache_read_tokens?: number | null;
  prompt_cache_write_tokens?: number | null;
  prompt_cache_miss_tokens?: number | null;
  prompt_audio_tokens?: number | null;
  completion_audio_tokens?: number | null;
  /** Mistral: seconds of audio in the prompt (a duration, not a count). */
  prompt_audio_seconds?: number | null;
  /** Gemini: prompt tokens spent on tool declarations. */
  tool_use_prompt_tokens?: number | null;
  accepted_prediction_tokens?: number | null;
  rejected_prediction_tokens?: number | null;
}

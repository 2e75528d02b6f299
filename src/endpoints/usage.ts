// Server-reported usage, read defensively: a field of the wrong type is "no value".
import type { Usage } from '../records/types.js';

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

export function parseUsage(u: unknown): Usage | null {
  if (u === null || typeof u !== 'object') return null;
  const o = u as Record<string, unknown>;
  const details = (o.completion_tokens_details ?? o.output_tokens_details) as Record<string, unknown> | undefined;
  return {
    prompt_tokens: count(o.prompt_tokens ?? o.input_tokens),
    completion_tokens: count(o.completion_tokens ?? o.output_tokens),
    total_tokens: count(o.total_tokens),
    reasoning_tokens: details && typeof details === 'object' ? count(details.reasoning_tokens) : null,
  };
}

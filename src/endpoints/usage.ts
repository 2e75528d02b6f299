// Server-reported usage, read defensively and normalised across vendors. A field of the wrong type
// (a string, a negative or fractional count, NaN) is "no value" for that response, with one warning
// per field per run; the record and the run go on.
//
// Field map (the first present synonym wins, as in AIPerf's vendor usage reference):
//   prompt_tokens        prompt_tokens | input_tokens (Anthropic) | promptTokenCount (Gemini) | inputTokens (Bedrock)
//                        Anthropic/Bedrock count only the uncached remainder in input_tokens; when their
//                        cache fields are present they are added back, so the value means "every prompt
//                        token the server processed" for every vendor (and cache read % stays ≤ 100).
//   completion_tokens    completion_tokens | output_tokens | candidatesTokenCount (+ thoughtsTokenCount,
//                        so reasoning is included as in OpenAI's completion_tokens) | outputTokens
//   total_tokens         total_tokens | totalTokenCount | totalTokens
//   reasoning_tokens     {completion,output}_tokens_details.reasoning_tokens | thoughtsTokenCount
//   prompt_cache_read    {prompt,input}_tokens_details.cached_tokens | cache_read_input_tokens |
//                        prompt_cache_hit_tokens (DeepSeek) | cachedContentTokenCount | cacheReadInputTokens
//   prompt_cache_write   cache_creation_input_tokens | cacheWriteInputTokens
//   prompt_cache_miss    prompt_cache_miss_tokens (DeepSeek)
//   prompt/completion audio tokens   {prompt,input} / {completion,output}_tokens_details.audio_tokens
//   prompt_audio_seconds prompt_audio_seconds (Mistral; seconds, may be fractional)
//   tool_use_prompt      toolUsePromptTokenCount (Gemini)
//   accepted/rejected prediction     {completion,output}_tokens_details.{accepted,rejected}_prediction_tokens
// Gemini's `usageMetadata` envelope (at the response's top level, or inside `usage`) is read through.
import type { Usage } from '../records/types.js';
import { warnOnce } from '../warnings.js';

type Obj = Record<string, unknown>;
type Kind = 'count' | 'seconds';

const PROMPT_DETAILS = ['prompt_tokens_details', 'input_tokens_details'];
const COMPLETION_DETAILS = ['completion_tokens_details', 'output_tokens_details'];
const DISJOINT_INPUT_KEYS = new Set(['input_tokens', 'inputTokens']);
const DISJOINT_CACHE_KEYS = ['cache_read_input_tokens', 'cache_creation_input_tokens', 'cacheReadInputTokens', 'cacheWriteInputTokens'];

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function describe(v: unknown): string {
  const s = typeof v === 'number' ? String(v) : JSON.stringify(v) ?? String(v);
  return s.length > 40 ? s.slice(0, 40) + '…' : s;
}

/**
 * A present value checked for its kind: the number, or null (with a one-time warning naming `path`)
 * when it has the wrong type. JSON null means "not reported" and is not warned about.
 */
function checked(v: unknown, path: string, kind: Kind): number | null {
  if (v === null) return null;
  const ok = typeof v === 'number' && Number.isFinite(v) && v >= 0 && (kind === 'seconds' || Number.isInteger(v));
  if (ok) return v as number;
  const want = kind === 'count' ? 'a non-negative integer' : 'a non-negative number';
  warnOnce(
    `usage:${path}`,
    `the server's usage field '${path}' is ${describe(v)}, expected ${want}; that metric has no value for such responses (warned once)`,
  );
  return null;
}

/** The first present top-level synonym: its key and checked value; undefined when none is present. */
function first(u: Obj, keys: readonly string[], kind: Kind = 'count'): { key: string; value: number | null } | undefined {
  for (const key of keys) {
    if (key in u && u[key] !== undefined) return { key, value: checked(u[key], `usage.${key}`, kind) };
  }
  return undefined;
}

/** `inner` inside the first details object (of `detailsKeys`) that has it. */
function inDetails(u: Obj, detailsKeys: readonly string[], inner: string): number | null | undefined {
  for (const dk of detailsKeys) {
    const d = u[dk];
    if (isObj(d) && inner in d && d[inner] !== undefined) return checked(d[inner], `usage.${dk}.${inner}`, 'count');
  }
  return undefined;
}

/** Gemini's usageMetadata keys lifted to the top level; keys already there win. */
function unwrap(u: Obj): Obj {
  const meta = u.usageMetadata;
  if (!isObj(meta)) return u;
  const out: Obj = { ...u };
  for (const [k, v] of Object.entries(meta)) if (!(k in out)) out[k] = v;
  return out;
}

/** Parse one `usage` object (OpenAI-shaped or any vendor shape above); null when it is not an object. */
export function parseUsage(raw: unknown): Usage | null {
  if (!isObj(raw)) return null;
  const u = unwrap(raw);

  const prompt = first(u, ['prompt_tokens', 'input_tokens', 'promptTokenCount', 'inputTokens']);
  let prompt_tokens = prompt?.value ?? null;
  if (prompt && prompt_tokens !== null && DISJOINT_INPUT_KEYS.has(prompt.key)) {
    let cache = 0;
    let disjoint = false;
    for (const k of DISJOINT_CACHE_KEYS) {
      if (!(k in u) || u[k] === undefined) continue;
      disjoint = true;
      const v = checked(u[k], `usage.${k}`, 'count');
      if (v !== null) cache += v;
    }
    if (disjoint) prompt_tokens += cache;
  }

  const thoughts = first(u, ['thoughtsTokenCount']);
  const completion = first(u, ['completion_tokens', 'output_tokens', 'candidatesTokenCount', 'outputTokens']);
  let completion_tokens = completion?.value ?? null;
  // Gemini's candidates exclude thoughts; OpenAI's completion_tokens include reasoning.
  if (completion?.key === 'candidatesTokenCount' && completion_tokens !== null && thoughts?.value != null) {
    completion_tokens += thoughts.value;
  }

  const detailsReasoning = inDetails(u, COMPLETION_DETAILS, 'reasoning_tokens');
  const nestedCacheRead = inDetails(u, PROMPT_DETAILS, 'cached_tokens');
  const cacheRead =
    nestedCacheRead !== undefined
      ? nestedCacheRead
      : first(u, ['cache_read_input_tokens', 'prompt_cache_hit_tokens', 'cachedContentTokenCount', 'cacheReadInputTokens'])?.value;

  const out: Usage = {
    prompt_tokens,
    completion_tokens,
    total_tokens: first(u, ['total_tokens', 'totalTokenCount', 'totalTokens'])?.value ?? null,
    reasoning_tokens: detailsReasoning !== undefined ? detailsReasoning : (thoughts?.value ?? null),
  };
  // The vendor-specific fields are only set when the response had them (most responses have none).
  const optional: Omit<Usage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens' | 'reasoning_tokens'> = {
    prompt_cache_read_tokens: cacheRead ?? null,
    prompt_cache_write_tokens: first(u, ['cache_creation_input_tokens', 'cacheWriteInputTokens'])?.value ?? null,
    prompt_cache_miss_tokens: first(u, ['prompt_cache_miss_tokens'])?.value ?? null,
    prompt_audio_tokens: inDetails(u, PROMPT_DETAILS, 'audio_tokens') ?? null,
    completion_audio_tokens: inDetails(u, COMPLETION_DETAILS, 'audio_tokens') ?? null,
    prompt_audio_seconds: first(u, ['prompt_audio_seconds'], 'seconds')?.value ?? null,
    tool_use_prompt_tokens: first(u, ['toolUsePromptTokenCount'])?.value ?? null,
    accepted_prediction_tokens: inDetails(u, COMPLETION_DETAILS, 'accepted_prediction_tokens') ?? null,
    rejected_prediction_tokens: inDetails(u, COMPLETION_DETAILS, 'rejected_prediction_tokens') ?? null,
  };
  for (const [k, v] of Object.entries(optional)) if (v !== null) (out as unknown as Record<string, number>)[k] = v;
  return out;
}

/** The usage of one response payload: its `usage` object, or Gemini's top-level `usageMetadata`. */
export function usageOfPayload(o: Obj): Usage | null {
  if (isObj(o.usage)) return parseUsage(o.usage);
  if (isObj(o.usageMetadata)) return parseUsage({ usageMetadata: o.usageMetadata });
  return null;
}

// Server-reported usage, read defensively and normalised across vendors. A field of the wrong type
// (a string, a negative or fractional count, NaN) or out of range (a count above MAX_USAGE_COUNT,
// seconds above MAX_USAGE_SECONDS: no real response is that large, and such values would overflow
// the metrics derived from them) is "no value" for that response, with one warning per field per
// run; the record and the run go on.
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
import type { Usage } from '../model/usage.js';
import { warnOnce } from '../warnings.js';

type Obj = Record<string, unknown>;
type Kind = 'count' | 'seconds';

// The Realtime API's response.done says input_token_details / output_token_details.
const PROMPT_DETAILS = ['prompt_tokens_details', 'input_tokens_details', 'input_token_details'];
const COMPLETION_DETAILS = ['completion_tokens_details', 'output_tokens_details', 'output_token_details'];
const DISJOINT_INPUT_KEYS = new Set(['input_tokens', 'inputTokens']);
const DISJOINT_CACHE_KEYS = ['cache_read_input_tokens', 'cache_creation_input_tokens', 'cacheReadInputTokens', 'cacheWriteInputTokens'];
const PROMPT_KEYS = ['prompt_tokens', 'input_tokens', 'promptTokenCount', 'inputTokens'];
const COMPLETION_KEYS = ['completion_tokens', 'output_tokens', 'candidatesTokenCount', 'outputTokens'];
const TOTAL_KEYS = ['total_tokens', 'totalTokenCount', 'totalTokens'];
const THOUGHTS_KEYS = ['thoughtsTokenCount'];
const CACHE_READ_KEYS = ['cache_read_input_tokens', 'prompt_cache_hit_tokens', 'cachedContentTokenCount', 'cacheReadInputTokens'];
const CACHE_WRITE_KEYS = ['cache_creation_input_tokens', 'cacheWriteInputTokens'];
const CACHE_MISS_KEYS = ['prompt_cache_miss_tokens'];
const AUDIO_SECONDS_KEYS = ['prompt_audio_seconds'];
const TOOL_USE_KEYS = ['toolUsePromptTokenCount'];

/** The largest usage count taken as real (a billion tokens in one response; context windows are ~10^7). */
export const MAX_USAGE_COUNT = 1e9;
/** The largest usage duration taken as real, in seconds (about 115 days). */
export const MAX_USAGE_SECONDS = 1e7;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function describe(v: unknown): string {
  const s = typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 40 ? s.slice(0, 40) + '…' : s;
}

/**
 * A present value checked for its kind: the number, or null (with a one-time warning naming the
 * field, `usage.<outer>.<inner>`) when it has the wrong type. JSON null means "not reported" and is
 * not warned about. The field name is only built for a warning: this runs on every usage payload.
 */
function checked(v: unknown, kind: Kind, outer: string, inner?: string): number | null {
  if (v === null) return null;
  const max = kind === 'count' ? MAX_USAGE_COUNT : MAX_USAGE_SECONDS;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max && (kind === 'seconds' || Number.isInteger(v))) return v;
  const path = inner === undefined ? `usage.${outer}` : `usage.${outer}.${inner}`;
  const want = kind === 'count' ? `a non-negative integer up to ${max}` : `a non-negative number up to ${max}`;
  warnOnce(
    `usage:${path}`,
    `the server's usage field '${path}' is ${describe(v)}, expected ${want}; that metric has no value for such responses (warned once)`,
  );
  return null;
}

/** The first present top-level synonym: its key and checked value; undefined when none is present. */
function first(u: Obj, keys: readonly string[], kind: Kind = 'count'): { key: string; value: number | null } | undefined {
  for (const key of keys) {
    const v = u[key];
    if (v !== undefined) return { key, value: checked(v, kind, key) };
  }
  return undefined;
}

/** `inner` inside the first details object (of `detailsKeys`) that has it. */
function inDetails(u: Obj, detailsKeys: readonly string[], inner: string): number | null | undefined {
  for (const dk of detailsKeys) {
    const d = u[dk];
    if (isObj(d) && d[inner] !== undefined) return checked(d[inner], 'count', dk, inner);
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

  const prompt = first(u, PROMPT_KEYS);
  let prompt_tokens = prompt?.value ?? null;
  if (prompt && prompt_tokens !== null && DISJOINT_INPUT_KEYS.has(prompt.key)) {
    let cache = 0;
    let disjoint = false;
    for (const k of DISJOINT_CACHE_KEYS) {
      if (u[k] === undefined) continue;
      disjoint = true;
      const v = checked(u[k], 'count', k);
      if (v !== null) cache += v;
    }
    if (disjoint) prompt_tokens += cache;
  }

  const thoughts = first(u, THOUGHTS_KEYS);
  const completion = first(u, COMPLETION_KEYS);
  let completion_tokens = completion?.value ?? null;
  // Gemini's candidates exclude thoughts; OpenAI's completion_tokens include reasoning.
  if (completion?.key === 'candidatesTokenCount' && completion_tokens !== null && thoughts?.value != null) {
    completion_tokens += thoughts.value;
  }

  const detailsReasoning = inDetails(u, COMPLETION_DETAILS, 'reasoning_tokens');
  const nestedCacheRead = inDetails(u, PROMPT_DETAILS, 'cached_tokens');
  const cacheRead = nestedCacheRead !== undefined ? nestedCacheRead : first(u, CACHE_READ_KEYS)?.value;

  const out: Usage = {
    prompt_tokens,
    completion_tokens,
    total_tokens: first(u, TOTAL_KEYS)?.value ?? null,
    reasoning_tokens: detailsReasoning !== undefined ? detailsReasoning : (thoughts?.value ?? null),
  };
  // The vendor-specific fields are only set when the response had them (most responses have none).
  if (cacheRead != null) out.prompt_cache_read_tokens = cacheRead;
  const write = first(u, CACHE_WRITE_KEYS)?.value;
  if (write != null) out.prompt_cache_write_tokens = write;
  const miss = first(u, CACHE_MISS_KEYS)?.value;
  if (miss != null) out.prompt_cache_miss_tokens = miss;
  const promptAudio = inDetails(u, PROMPT_DETAILS, 'audio_tokens');
  if (promptAudio != null) out.prompt_audio_tokens = promptAudio;
  const completionAudio = inDetails(u, COMPLETION_DETAILS, 'audio_tokens');
  if (completionAudio != null) out.completion_audio_tokens = completionAudio;
  const seconds = first(u, AUDIO_SECONDS_KEYS, 'seconds')?.value;
  if (seconds != null) out.prompt_audio_seconds = seconds;
  const toolUse = first(u, TOOL_USE_KEYS)?.value;
  if (toolUse != null) out.tool_use_prompt_tokens = toolUse;
  const accepted = inDetails(u, COMPLETION_DETAILS, 'accepted_prediction_tokens');
  if (accepted != null) out.accepted_prediction_tokens = accepted;
  const rejected = inDetails(u, COMPLETION_DETAILS, 'rejected_prediction_tokens');
  if (rejected != null) out.rejected_prediction_tokens = rejected;
  return out;
}

/** The usage of one response payload: its `usage` object, or Gemini's top-level `usageMetadata`. */
export function usageOfPayload(o: Obj): Usage | null {
  if (isObj(o.usage)) return parseUsage(o.usage);
  if (isObj(o.usageMetadata)) return parseUsage({ usageMetadata: o.usageMetadata });
  return null;
}

/**
 * The usage of a response whose every token is input (embeddings, rankings): vLLM's rerank reports
 * only total_tokens, which is then the prompt's count.
 */
export function inputUsage(o: Obj): Usage | null {
  const u = usageOfPayload(o);
  if (u !== null && u.prompt_tokens === null && u.total_tokens !== null) u.prompt_tokens = u.total_tokens;
  return u;
}

/** `update`'s reported fields over `base`'s (Anthropic: message_delta's output count after message_start's input count). */
export function mergeUsage(base: Usage | null, update: Usage): Usage {
  if (base === null) return update;
  const out: Record<string, number | null | undefined> = { ...base };
  for (const [k, v] of Object.entries(update)) if (v !== null && v !== undefined) out[k] = v as number;
  return out as unknown as Usage;
}

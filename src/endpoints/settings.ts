// The settings of the non-chat endpoint types (embeddings, rankings, Responses, Anthropic Messages):
// their flags' validation, their default paths, and which of them stream. Endpoint types are plain
// strings here so that config/types.ts can import these settings without a cycle.
import { badFlag as bad } from '../errors.js';

/** How a rankings server is asked: Cohere/Jina /v1/rerank, vLLM /rerank or /score, Hugging Face TEI /rerank. */
export const RANKINGS_FLAVORS = ['cohere', 'vllm-rerank', 'vllm-score', 'tei'] as const;
export type RankingsFlavor = (typeof RANKINGS_FLAVORS)[number];

export interface EndpointSettings {
  /** --batch-size-text: inputs per embeddings request. */
  readonly batch_size_text: number;
  readonly rankings_flavor: RankingsFlavor;
  /** --rankings-passages: passages ranked against each query. */
  readonly rankings_passages: number;
  /** --rankings-passage-length: tokens per synthetic passage. */
  readonly rankings_passage_length: number;
  /** --anthropic-version: the `anthropic-version` header of --endpoint-type messages. */
  readonly anthropic_version: string;
}

export interface EndpointFlags {
  'batch-size-text'?: number;
  'rankings-flavor'?: string;
  'rankings-passages'?: number;
  'rankings-passage-length'?: number;
  'anthropic-version'?: string;
}

export const ENDPOINT_DEFAULTS = {
  batch_size_text: 1,
  rankings_flavor: 'cohere',
  rankings_passages: 8,
  rankings_passage_length: 64,
  anthropic_version: '2023-06-01',
} as const;

/** Endpoint types whose responses are one JSON body: never streamed. */
const BODY_ONLY: ReadonlySet<string> = new Set(['embeddings', 'rankings', 'transcriptions', 'image_generation', 'video_generation']);

const RANKINGS_PATHS: Record<RankingsFlavor, string> = {
  cohere: '/v1/rerank',
  'vllm-rerank': '/rerank',
  'vllm-score': '/score',
  tei: '/rerank',
};

function positiveInt(flag: string, v: number | undefined, dflt: number, max: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max)
    bad(flag, `expected an integer from 1 to ${max}, got ${String(v)}`);
  return v;
}

export function parseEndpointFlags(f: EndpointFlags, type: string): EndpointSettings {
  const flavor = f['rankings-flavor'] ?? ENDPOINT_DEFAULTS.rankings_flavor;
  if (!(RANKINGS_FLAVORS as readonly string[]).includes(flavor))
    bad('rankings-flavor', `expected one of ${RANKINGS_FLAVORS.join(', ')}, got ${JSON.stringify(flavor)}`);
  const version = f['anthropic-version'] ?? ENDPOINT_DEFAULTS.anthropic_version;
  if (!/^[\w.-]+$/.test(version)) bad('anthropic-version', `expected a version such as 2023-06-01, got ${JSON.stringify(version)}`);
  const given = (k: keyof EndpointFlags) => f[k] !== undefined;
  if (given('batch-size-text') && type !== 'embeddings') bad('batch-size-text', 'applies to --endpoint-type embeddings only');
  for (const k of ['rankings-flavor', 'rankings-passages', 'rankings-passage-length'] as const)
    if (given(k) && type !== 'rankings') bad(k, 'applies to --endpoint-type rankings only');
  return {
    batch_size_text: positiveInt('batch-size-text', f['batch-size-text'], ENDPOINT_DEFAULTS.batch_size_text, 4096),
    rankings_flavor: flavor as RankingsFlavor,
    rankings_passages: positiveInt('rankings-passages', f['rankings-passages'], ENDPOINT_DEFAULTS.rankings_passages, 10_000),
    rankings_passage_length: positiveInt(
      'rankings-passage-length',
      f['rankings-passage-length'],
      ENDPOINT_DEFAULTS.rankings_passage_length,
      1_000_000,
    ),
    anthropic_version: version,
  };
}

/** The default request path of a type whose path depends on its settings; null: the type's fixed path. */
export function settingsPath(type: string, s: EndpointSettings): string | null {
  return type === 'rankings' ? RANKINGS_PATHS[s.rankings_flavor] : null;
}

/** Whether the run streams: --streaming, else the type's way (embeddings and rankings never stream). */
export function streamingFor(type: string, given: boolean | undefined): boolean {
  if (!BODY_ONLY.has(type)) return given ?? true;
  if (given === true) bad('streaming', `--endpoint-type ${type} answers with one JSON body; it cannot stream`);
  return false;
}

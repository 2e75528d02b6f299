// Rankings (rerank): one query and N passages per request (the turn's prompt and its `inputs`),
// one body back, never streamed. --rankings-flavor picks the request shape:
//   cohere       /v1/rerank  {query, documents, top_n}   → {results: [{index, relevance_score}]}  (Jina too)
//   vllm-rerank  /rerank     {query, documents}          → {results: [...], usage: {total_tokens}}
//   vllm-score   /score      {text_1, text_2}            → {data: [{index, score}], usage}
//   tei          /rerank     {query, texts}              → [{index, score}]  (a bare array)
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import { PayloadParseError } from '../errors.js';
import type { Turn } from '../model/turn.js';
import { errorPayload } from './common.js';
import { JS_DECODE } from './js-decode.js';
import { inputUsage } from './usage.js';

function rankingsBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'endpoint_settings'>): Record<string, unknown> {
  const query = turn.prompt;
  const passages = turn.inputs ?? [];
  switch (cfg.endpoint_settings.rankings_flavor) {
    case 'cohere':
      return { model: cfg.model, query, documents: passages, top_n: passages.length };
    case 'vllm-rerank':
      return { model: cfg.model, query, documents: passages };
    case 'vllm-score':
      return { model: cfg.model, text_1: query, text_2: passages };
    case 'tei':
      return { query, texts: passages, raw_scores: false };
  }
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (err) {
    throw new PayloadParseError(`invalid JSON in response: ${(err as Error).message}`);
  }
}

export const rankingsAdapter: EndpointAdapter = {
  type: 'rankings',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'endpoint_settings' | 'extra_inputs'>) {
    return { ...rankingsBody(turn, cfg), ...cfg.extra_inputs };
  },
  parse(data: string): Payload {
    const v = parseJson(data);
    const ok: Payload = { kind: 'data', content: '', reasoning: '', has_choices: false, usage: null };
    if (Array.isArray(v)) return ok; // TEI: the scores themselves
    if (v === null || typeof v !== 'object') throw new PayloadParseError('rankings response is not a JSON object or array');
    const o = v as Record<string, unknown>;
    const err = errorPayload(o);
    if (err) return err;
    if (!Array.isArray(o.results) && !Array.isArray(o.data))
      throw new PayloadParseError('rankings response has no `results` or `data` array');
    return { ...ok, usage: inputUsage(o) };
  },
  decodeSpec: JS_DECODE,
  generates: false,
};

// The APIs the mock serves beside OpenAI chat/completions, by path: embeddings, the rerank family
// (Cohere/Jina /v1/rerank, vLLM /rerank and /score, TEI /rerank), the Responses API and Anthropic
// Messages. Each reads its request into a generation plan (as chat would, so timing, lengths and
// seeds follow the same flags) and brings its own response shapes (shape.ts).
import { BadRequestError } from '../errors.js';
import { messagesApi } from './messages-api.js';
import type { MockOptions } from './options.js';
import type { GenerationPlan } from './request.js';
import { responsesApi } from './responses-api.js';
import { chatPlan, type MockApi, type ResponseShape } from './shape.js';
import { createRng, hashString, unit } from './text.js';

type Body = Record<string, unknown>;

function strings(v: unknown, what: string): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'string'))
    throw new BadRequestError(`${what} must be a string or a non-empty array of strings`);
  return list;
}

/** Embeddings and rerank answer at once after --ttft-ms: one "token", no reasoning, never streamed. */
function bodyPlan(body: Body, texts: string[], opts: MockOptions): GenerationPlan {
  const plan = chatPlan(
    { ...body, stream: false },
    texts.map((t) => ({ role: 'user', content: t })),
    1,
    opts,
  );
  return { ...plan, reasoningTokens: 0, contentTokens: 1, specSteps: null };
}

function scores(seed: number, n: number): number[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => Math.round(unit(rng) * 1e6) / 1e6);
}

function bodyOnly(body: () => string): ResponseShape {
  return {
    stream() {
      throw new BadRequestError('this endpoint does not stream');
    },
    body,
  };
}

const embeddings: MockApi = {
  plan: (b, opts) => bodyPlan(b, strings(b.input, 'input'), opts),
  shape: (plan, _id, _created, b) =>
    bodyOnly(() => {
      const inputs = strings(b.input, 'input');
      const data = inputs.map((t, index) => ({ object: 'embedding', index, embedding: scores(hashString(t, plan.textSeed), 8) }));
      const usage = { prompt_tokens: plan.promptTokens, total_tokens: plan.promptTokens };
      return JSON.stringify({ object: 'list', data, model: plan.model, usage });
    }),
};

/** The passages of a rerank request, whichever flavor's field holds them. */
function passages(b: Body): string[] {
  return strings(b.documents ?? b.texts ?? b.text_2, 'documents (texts, text_2)');
}

const rerank: MockApi = {
  plan: (b, opts) => {
    const query = b.query ?? b.text_1;
    if (typeof query !== 'string') throw new BadRequestError('query (text_1) must be a string');
    return bodyPlan(b, [query, ...passages(b)], opts);
  },
  shape: (plan, id, created, b, path) =>
    bodyOnly(() => {
      const docs = passages(b);
      const s = scores(plan.textSeed, docs.length);
      const usage = { prompt_tokens: plan.promptTokens, total_tokens: plan.promptTokens };
      if (path === '/score') {
        const data = s.map((score, index) => ({ index, object: 'score', score }));
        return JSON.stringify({ id, object: 'list', created, model: plan.model, data, usage });
      }
      const order = s.map((score, index) => ({ index, score })).sort((x, y) => y.score - x.score);
      // TEI: a bare array of scores; the others: results, with vLLM's usage of total tokens only.
      if (b.texts !== undefined) return JSON.stringify(order);
      const results = order.map((r) => ({ index: r.index, relevance_score: r.score, document: { text: docs[r.index] } }));
      return JSON.stringify({ id, model: plan.model, results, usage: { total_tokens: plan.promptTokens } });
    }),
};

/** The mock's routes beside /v1/chat/completions and /v1/completions. */
export const MOCK_APIS: ReadonlyMap<string, MockApi> = new Map([
  ['/v1/embeddings', embeddings],
  ['/v1/rerank', rerank],
  ['/rerank', rerank],
  ['/score', rerank],
  ['/v1/responses', responsesApi],
  ['/v1/messages', messagesApi],
]);

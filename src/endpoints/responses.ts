// The OpenAI Responses API: /v1/responses. A stream is typed events (the SSE `event:` name repeats
// the data's `type`): text comes in `response.output_text.delta`, reasoning in
// `response.reasoning_text.delta` / `response.reasoning_summary_text.delta`, the usage in
// `response.completed` (or `.incomplete`, a max_output_tokens stop), a failure in `response.failed`
// or an `error` event. The events' full-text echoes (`*.done`, the final response) are not tokens.
// A non-streaming body is the response object itself.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import type { Turn } from '../model/turn.js';
import type { Usage } from '../model/usage.js';
import { decodeJson, errorPayload, str } from './common.js';
import { JS_DECODE } from './js-decode.js';
import { responsesContent } from './media-parts.js';
import { usageOfPayload } from './usage.js';

type Obj = Record<string, unknown>;

const REASONING_DELTAS = new Set(['response.reasoning_text.delta', 'response.reasoning_summary_text.delta']);

function obj(v: unknown): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj).filter((x): x is Obj => x !== null) : [];
}

function data(content: string, reasoning: string, usage: Usage | null): Extract<Payload, { kind: 'data' }> {
  return { kind: 'data', content, reasoning, has_choices: content !== '' || reasoning !== '', usage };
}

/**
 * Why a finished response ended: its incomplete_details.reason (max_output_tokens, content_filter:
 * chat's "length" and "content_filter") when it stopped short, else its status ("completed", chat's
 * "stop"). Status alone would say only "incomplete", not why.
 */
function finishOf(r: Obj): string | null {
  return str(obj(r.incomplete_details)?.reason) || str(r.status) || null;
}

/** A whole response object: its output items' texts, usage and finish reason, or its error. */
function responseBody(o: Obj): Payload {
  const err = errorPayload(o);
  if (err) return err;
  if (o.status === 'failed') return { kind: 'error', message: 'the response failed (no error given)' };
  let content = '';
  let reasoning = '';
  for (const item of list(o.output)) {
    if (item.type === 'message') for (const part of list(item.content)) if (part.type === 'output_text') content += str(part.text);
    if (item.type === 'reasoning') {
      // The reasoning text when the server gives it, else its summary.
      const text = list(item.content)
        .map((p) => str(p.text))
        .join('');
      reasoning +=
        text !== ''
          ? text
          : list(item.summary)
              .map((p) => str(p.text))
              .join('');
    }
  }
  return { ...data(content, reasoning, usageOfPayload(o)), finish_reason: finishOf(o) };
}

export const responsesAdapter: EndpointAdapter = {
  type: 'responses',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'streaming' | 'extra_inputs'>) {
    // Images (media-parts.ts) join the last user message as input_image parts.
    const input = turn.media
      ? responsesContent(turn.messages ?? [{ role: 'user', content: turn.prompt }], turn)
      : (turn.messages ?? turn.prompt);
    const body: Obj = { model: cfg.model, input, stream: cfg.streaming };
    if (turn.max_tokens !== null) body.max_output_tokens = turn.max_tokens;
    return { ...body, ...cfg.extra_inputs };
  },
  parse(text: string): Payload {
    const o = decodeJson(text);
    const type = o.type;
    if (typeof type !== 'string') return responseBody(o);
    if (type === 'response.output_text.delta') return data(str(o.delta), '', null);
    if (REASONING_DELTAS.has(type)) return data('', str(o.delta), null);
    if (type === 'response.completed' || type === 'response.incomplete') {
      // Only the final event's status: response.created / .in_progress carry "in_progress".
      const r = obj(o.response) ?? {};
      return { ...data('', '', usageOfPayload(r)), finish_reason: finishOf(r) };
    }
    if (type === 'response.failed') {
      const r = obj(o.response) ?? {};
      return errorPayload(r) ?? { kind: 'error', message: 'response.failed (no error given)' };
    }
    if (type === 'error') return { kind: 'error', message: str(o.message) || JSON.stringify(o).slice(0, 300) };
    return data('', '', null);
  },
  decodeSpec: JS_DECODE,
};

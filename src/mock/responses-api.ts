// The mock's OpenAI Responses API (/v1/responses): `input` as a string or a message list, a stream
// of typed events (response.created … response.output_text.delta … response.completed, or
// response.incomplete when max_output_tokens cut it), or the response object as one body.
import { BadRequestError } from '../errors.js';
import type { GenerationPlan } from './request.js';
import { chatPlan, type MockApi, type StreamFormat } from './shape.js';

type Body = Record<string, unknown>;

function event(type: string, data: Body): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function usage(plan: GenerationPlan): Body {
  const out = plan.contentTokens + plan.reasoningTokens;
  return {
    input_tokens: plan.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: out,
    output_tokens_details: { reasoning_tokens: plan.reasoningTokens },
    total_tokens: plan.promptTokens + out,
  };
}

function response(plan: GenerationPlan, id: string, created: number, output: Body[], done: boolean): Body {
  const status = !done ? 'in_progress' : plan.finishReason === 'length' ? 'incomplete' : 'completed';
  return {
    id,
    object: 'response',
    created_at: created,
    status,
    model: plan.model,
    output,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    usage: done ? usage(plan) : null,
  };
}

function outputs(id: string, content: string, reasoning: string): Body[] {
  const out: Body[] = [];
  if (reasoning !== '')
    out.push({ id: `rs_${id}`, type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: reasoning }] });
  out.push({
    id: `msg_${id}`,
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: content, annotations: [] }],
  });
  return out;
}

class ResponsesStream implements StreamFormat {
  private seq = 0;
  private text = '';
  private reasoningText = '';

  constructor(
    private readonly plan: GenerationPlan,
    private readonly id: string,
    private readonly created: number,
  ) {}

  private ev(type: string, data: Body): string {
    return event(type, { ...data, sequence_number: this.seq++ });
  }

  role(): string {
    const item = { id: `msg_${this.id}`, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    return (
      this.ev('response.created', { response: response(this.plan, this.id, this.created, [], false) }) +
      this.ev('response.output_item.added', { output_index: 0, item }) +
      this.ev('response.content_part.added', {
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '' },
      })
    );
  }

  reasoning(text: string): string {
    this.reasoningText += text;
    return this.ev('response.reasoning_text.delta', { item_id: `rs_${this.id}`, output_index: 0, content_index: 0, delta: text });
  }

  content(text: string): string {
    this.text += text;
    return this.ev('response.output_text.delta', { item_id: `msg_${this.id}`, output_index: 0, content_index: 0, delta: text });
  }

  usage(): string {
    const r = response(this.plan, this.id, this.created, outputs(this.id, this.text, this.reasoningText), true);
    return (
      this.ev('response.output_text.done', { item_id: `msg_${this.id}`, output_index: 0, content_index: 0, text: this.text }) +
      this.ev(r.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: r })
    );
  }

  done(): string {
    return '';
  }

  error(): string {
    return this.ev('error', { code: 'server_error', message: 'mock injected stream error', param: null });
  }
}

/** `input` as chat messages: a string is one user message; a list keeps its roles and texts. */
function inputMessages(input: unknown): { role: string; content: unknown }[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) throw new BadRequestError('input must be a string or an array of messages');
  return input.map((m) => {
    if (m === null || typeof m !== 'object') throw new BadRequestError('each input item must be an object');
    const { role, content } = m as Body;
    return { role: typeof role === 'string' ? role : 'user', content };
  });
}

export const responsesApi: MockApi = {
  plan: (b, opts) => chatPlan(b, inputMessages(b.input), b.max_output_tokens, opts),
  shape: (plan, id, created) => ({
    stream: () => new ResponsesStream(plan, id, created),
    body: (content, reasoning) => JSON.stringify(response(plan, id, created, outputs(id, content, reasoning), true)),
  }),
};

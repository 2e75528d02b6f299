// The mock's Anthropic Messages API (/v1/messages): `messages` (and a top-level `system`), the
// stream of typed events (message_start, content_block_start/delta/stop with thinking_delta then
// text_delta, ping, message_delta with the output usage, message_stop), or the message as one body.
import { BadRequestError } from '../errors.js';
import type { GenerationPlan } from './request.js';
import { chatPlan, type MockApi, type StreamFormat } from './shape.js';

type Body = Record<string, unknown>;

function event(type: string, data: Body): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function stopReason(plan: GenerationPlan): string {
  return plan.finishReason === 'length' ? 'max_tokens' : 'end_turn';
}

class MessagesStream implements StreamFormat {
  private block = -1;
  private kind: 'thinking' | 'text' | null = null;

  constructor(
    private readonly plan: GenerationPlan,
    private readonly id: string,
  ) {}

  /** Closes the open block and opens one of `kind`, unless it is open already. */
  private open(kind: 'thinking' | 'text'): string {
    if (this.kind === kind) return '';
    let out = this.kind !== null ? event('content_block_stop', { index: this.block }) : '';
    this.block++;
    this.kind = kind;
    const content_block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' };
    out += event('content_block_start', { index: this.block, content_block });
    return out;
  }

  role(): string {
    const p = this.plan;
    const usage = { input_tokens: p.promptTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
    const message = {
      id: this.id,
      type: 'message',
      role: 'assistant',
      model: p.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    };
    return event('message_start', { message }) + this.open(p.reasoningTokens > 0 ? 'thinking' : 'text') + event('ping', {});
  }

  reasoning(text: string): string {
    return this.open('thinking') + event('content_block_delta', { index: this.block, delta: { type: 'thinking_delta', thinking: text } });
  }

  content(text: string): string {
    return this.open('text') + event('content_block_delta', { index: this.block, delta: { type: 'text_delta', text } });
  }

  usage(): string {
    const p = this.plan;
    return (
      event('content_block_stop', { index: this.block }) +
      event('message_delta', {
        delta: { stop_reason: stopReason(p), stop_sequence: null },
        usage: { output_tokens: p.contentTokens + p.reasoningTokens },
      }) +
      event('message_stop', {})
    );
  }

  done(): string {
    return '';
  }

  error(): string {
    return event('error', { error: { type: 'overloaded_error', message: 'mock injected stream error' } });
  }
}

function messagesOf(b: Body): { role: string; content: unknown }[] {
  if (!Array.isArray(b.messages)) throw new BadRequestError('messages must be an array');
  if (b.max_tokens === undefined) throw new BadRequestError('max_tokens is required');
  const out = b.messages.map((m) => {
    if (m === null || typeof m !== 'object') throw new BadRequestError('each message must be an object');
    const { role, content } = m as Body;
    return { role: typeof role === 'string' ? role : 'user', content };
  });
  return typeof b.system === 'string' ? [{ role: 'system', content: b.system }, ...out] : out;
}

export const messagesApi: MockApi = {
  plan: (b, opts) => chatPlan(b, messagesOf(b), b.max_tokens, opts),
  shape: (plan, id) => ({
    stream: () => new MessagesStream(plan, id),
    body: (text, thinking) => {
      const content: Body[] = [];
      if (thinking !== '') content.push({ type: 'thinking', thinking, signature: 'mock' });
      content.push({ type: 'text', text });
      const usage = { input_tokens: plan.promptTokens, output_tokens: plan.contentTokens + plan.reasoningTokens };
      return JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model: plan.model,
        content,
        stop_reason: stopReason(plan),
        stop_sequence: null,
        usage,
      });
    },
  }),
};

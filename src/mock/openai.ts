// OpenAI response shapes, built as strings. A request's constant JSON prefix is built once,
// so each streamed chunk costs a few concatenations instead of an object plus JSON.stringify.
import type { FinishReason, GenerationPlan } from './request.js';
import { specDecodeJson } from './spec-decode.js';

export const SSE_DONE = 'data: [DONE]\n\n';
/** The malformed event for --fail-mode malformed: cut off mid-object. */
export const SSE_MALFORMED = 'data: {"choices": [ {bad\n\n';
export const SSE_ERROR = 'data: {"error": {"message": "mock injected stream error", "type": "server_error", "code": 500}}\n\n';

export function errorBody(message: string, type: string, code: number | null): string {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

/** The usage object as JSON text; reasoning details only when reasoning was produced. */
export function usageJson(prompt: number, content: number, reasoning: number): string {
  const completion = content + reasoning;
  const details = reasoning > 0 ? `,"completion_tokens_details":{"reasoning_tokens":${reasoning}}` : '';
  return `{"prompt_tokens":${prompt},"completion_tokens":${completion},"total_tokens":${prompt + completion}${details}}`;
}

/** Builds every SSE event of one streamed response. */
export class ChunkFormatter {
  private readonly head: string;
  private readonly usageHead: string;
  private readonly chat: boolean;

  constructor(plan: GenerationPlan, id: string, created: number) {
    this.chat = plan.kind === 'chat';
    const object = this.chat ? 'chat.completion.chunk' : 'text_completion';
    this.usageHead = `data: {"id":"${id}","object":"${object}","created":${created},"model":${JSON.stringify(plan.model)}`;
    this.head = `${this.usageHead},"choices":[{"index":0,`;
  }

  private tail(finish: FinishReason | null, usage: string | null, spec: string | null = null): string {
    const f = finish === null ? 'null' : `"${finish}"`;
    const u = usage === null ? '' : `,"usage":${usage}`;
    const s = spec === null ? '' : `,"spec_decode":${spec}`;
    return `,"logprobs":null,"finish_reason":${f}}]${u}${s}}\n\n`;
  }

  /** The role-only first chunk OpenAI sends for chat. */
  role(usage: string | null): string {
    return `${this.head}"delta":{"role":"assistant","content":""}${this.tail(null, usage)}`;
  }

  /** `text` is vocabulary words only, so it needs no JSON escaping. */
  content(text: string, finish: FinishReason | null, usage: string | null, spec: string | null = null): string {
    return this.chat
      ? `${this.head}"delta":{"content":"${text}"}${this.tail(finish, usage, spec)}`
      : `${this.head}"text":"${text}"${this.tail(finish, usage, spec)}`;
  }

  /** `spec`: the spec_decode steps completed by this chunk (see spec-decode.ts), or null. */
  reasoning(text: string, usage: string | null, spec: string | null = null): string {
    return `${this.head}"delta":{"reasoning_content":"${text}"}${this.tail(null, usage, spec)}`;
  }

  /** The include_usage chunk: empty choices, then usage. */
  usage(usage: string): string {
    return `${this.usageHead},"choices":[],"usage":${usage}}\n\n`;
  }
}

/** The one JSON body of a non-streaming response. */
export function completionBody(plan: GenerationPlan, id: string, created: number, content: string, reasoning: string): string {
  const model = JSON.stringify(plan.model);
  const usage = usageJson(plan.promptTokens, plan.contentTokens, plan.reasoningTokens);
  const finish = `"finish_reason":"${plan.finishReason}"`;
  const steps = plan.specSteps ? specDecodeJson(plan.specSteps, 0, plan.specSteps.drafted.length) : null;
  const spec = steps === null ? '' : `,"spec_decode":${steps}`;
  if (plan.kind === 'chat') {
    const r = plan.reasoningTokens > 0 ? `,"reasoning_content":"${reasoning}"` : '';
    return (
      `{"id":"${id}","object":"chat.completion","created":${created},"model":${model},"choices":[{"index":0,` +
      `"message":{"role":"assistant","content":"${content}"${r}},"logprobs":null,${finish}}],"usage":${usage}${spec}}`
    );
  }
  return (
    `{"id":"${id}","object":"text_completion","created":${created},"model":${model},"choices":[{"index":0,` +
    `"text":"${content}","logprobs":null,${finish}}],"usage":${usage}${spec}}`
  );
}

// OpenAI chat completions: /v1/chat/completions.
import type { RunConfig } from '../config/types.js';
import type { Turn } from '../records/types.js';
import { commonBody, decodeJson, errorPayload, str } from './common.js';
import type { EndpointAdapter, Payload } from './types.js';
import { parseUsage } from './usage.js';

export const chatAdapter: EndpointAdapter = {
  type: 'chat',
  buildBody(turn: Turn, cfg: RunConfig) {
    return { ...commonBody(turn, cfg), messages: turn.messages ?? [{ role: 'user', content: turn.prompt }], ...cfg.extra_inputs };
  },
  parse(data: string): Payload {
    if (data === '[DONE]') return { kind: 'done' };
    const o = decodeJson(data);
    const err = errorPayload(o);
    if (err) return err;
    const choices = Array.isArray(o.choices) ? (o.choices as Record<string, unknown>[]) : [];
    let content = '';
    let reasoning = '';
    for (const c of choices) {
      // Streaming chunks carry `delta`; whole responses carry `message`.
      const m = (c?.delta ?? c?.message) as Record<string, unknown> | undefined;
      if (!m || typeof m !== 'object') continue;
      content += str(m.content);
      // vLLM/DeepSeek use reasoning_content; some servers use reasoning.
      reasoning += str(m.reasoning_content) || str(m.reasoning);
    }
    return { kind: 'data', content, reasoning, has_choices: choices.length > 0, usage: parseUsage(o.usage) };
  },
};

// OpenAI (legacy) completions: /v1/completions.
import type { RunConfig } from '../config/types.js';
import type { Turn } from '../records/types.js';
import { commonBody, decodeJson, errorPayload, str } from './common.js';
import type { EndpointAdapter, Payload } from './types.js';
import { parseUsage } from './usage.js';

export const completionsAdapter: EndpointAdapter = {
  type: 'completions',
  buildBody(turn: Turn, cfg: RunConfig) {
    return { ...commonBody(turn, cfg), prompt: turn.prompt, ...cfg.extra_inputs };
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
      content += str(c?.text);
      reasoning += str(c?.reasoning_content);
    }
    return { kind: 'data', content, reasoning, has_choices: choices.length > 0, usage: parseUsage(o.usage) };
  },
};

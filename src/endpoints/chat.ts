// OpenAI chat completions: /v1/chat/completions.
import type { RunConfig } from '../config/types.js';
import type { Turn } from '../records/types.js';
import { COMMON_DECODE, commonBody, parseChoicesPayload, str } from './common.js';
import type { EndpointAdapter, Payload } from './types.js';

export const chatAdapter: EndpointAdapter = {
  type: 'chat',
  buildBody(turn: Turn, cfg: RunConfig) {
    return { ...commonBody(turn, cfg), messages: turn.messages ?? [{ role: 'user', content: turn.prompt }], ...cfg.extra_inputs };
  },
  parse(data: string): Payload {
    return parseChoicesPayload(data, (c) => {
      // Streaming chunks carry `delta`; whole responses carry `message`.
      const m = (c.delta ?? c.message) as Record<string, unknown> | undefined;
      if (!m || typeof m !== 'object') return ['', ''];
      // vLLM/DeepSeek use reasoning_content; some servers use reasoning.
      return [str(m.content), str(m.reasoning_content) || str(m.reasoning)];
    });
  },
  decodeSpec: { ...COMMON_DECODE, message: '(delta|message)', content: ['content'], reasoning: ['reasoning_content', 'reasoning'] },
};

// OpenAI chat completions: /v1/chat/completions.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import type { Turn } from '../model/turn.js';
import { CHOICE_FINISH, COMMON_DECODE, commonBody, parseChoicesPayload, str } from './common.js';
import { chatMediaParts, withMediaParts } from './media-parts.js';

export const chatAdapter: EndpointAdapter = {
  type: 'chat',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'streaming' | 'per_chunk_usage' | 'extra_inputs'>) {
    const messages = turn.messages ?? [{ role: 'user', content: turn.prompt }];
    // Images and audio (media-parts.ts) join the last user message as content parts.
    return {
      ...commonBody(turn, cfg),
      messages: turn.media ? withMediaParts(messages, chatMediaParts(turn)) : messages,
      ...cfg.extra_inputs,
    };
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
  decodeSpec: {
    ...COMMON_DECODE,
    message: '(delta|message)',
    content: ['content'],
    reasoning: ['reasoning_content', 'reasoning'],
    finish: CHOICE_FINISH,
  },
};

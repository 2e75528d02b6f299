// OpenAI (legacy) completions: /v1/completions.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import type { Turn } from '../model/turn.js';
import { CHOICE_FINISH, COMMON_DECODE, commonBody, parseChoicesPayload, str } from './common.js';

export const completionsAdapter: EndpointAdapter = {
  type: 'completions',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'streaming' | 'per_chunk_usage' | 'extra_inputs'>) {
    return { ...commonBody(turn, cfg), prompt: turn.prompt, ...cfg.extra_inputs };
  },
  parse(data: string): Payload {
    return parseChoicesPayload(data, (c) => [str(c.text), str(c.reasoning_content)]);
  },
  decodeSpec: { ...COMMON_DECODE, message: '', content: ['text'], reasoning: ['reasoning_content'], finish: CHOICE_FINISH },
};

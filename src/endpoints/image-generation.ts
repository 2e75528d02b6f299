// OpenAI image generation: /v1/images/generations. The response's `data` holds one entry per
// image (b64_json or url); their count is the record's num_images.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import { PayloadParseError } from '../errors.js';
import type { Turn } from '../model/turn.js';
import { COMMON_DECODE, decodeJson, errorPayload } from './common.js';
import { usageOfPayload } from './usage.js';

export const imageGenerationAdapter: EndpointAdapter = {
  type: 'image_generation',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'media' | 'extra_inputs'>) {
    const { width_mean, height_mean, batch_size } = cfg.media.image;
    return {
      model: cfg.model,
      prompt: turn.prompt,
      n: batch_size,
      size: `${width_mean}x${height_mean}`,
      response_format: 'b64_json',
      ...cfg.extra_inputs,
    };
  },
  parse(data: string): Payload {
    const o = decodeJson(data);
    const err = errorPayload(o);
    if (err) return err;
    if (!Array.isArray(o.data)) throw new PayloadParseError('image generation response has no "data" array');
    const entries = o.data as unknown[];
    const images = entries.filter((d) => {
      const e = d as Record<string, unknown> | null;
      return e !== null && typeof e === 'object' && (typeof e.b64_json === 'string' || typeof e.url === 'string');
    });
    if (images.length !== entries.length)
      throw new PayloadParseError('image generation response: a "data" entry has neither b64_json nor url');
    return { kind: 'data', content: '', reasoning: '', has_choices: false, usage: usageOfPayload(o), media: { images: images.length } };
  },
  textOutput: false,
  sendsMaxTokens: false,
  decodeSpec: { ...COMMON_DECODE, message: '', content: [], reasoning: [], finish: [] },
};

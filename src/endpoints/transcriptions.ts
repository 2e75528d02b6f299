// OpenAI audio transcriptions: /v1/audio/transcriptions, a multipart upload of one WAV file.
// The response is {"text": "…"} (response_format json), with usage when the server reports it.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import { PayloadParseError } from '../errors.js';
import type { Turn } from '../model/turn.js';
import { COMMON_DECODE, decodeJson, errorPayload, str } from './common.js';
import { multipartBody } from './multipart.js';
import { usageOfPayload } from './usage.js';

export const transcriptionsAdapter: EndpointAdapter = {
  type: 'transcriptions',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'extra_inputs'>) {
    return { model: cfg.model, response_format: 'json', ...cfg.extra_inputs };
  },
  buildRawBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'extra_inputs'>) {
    const clip = turn.media?.audio?.[0];
    // The media source gives every transcription turn a clip (dataset/media-source.ts).
    if (!clip) throw new Error('transcription turn without audio');
    const fields: Record<string, string> = { model: cfg.model, response_format: 'json' };
    for (const [k, v] of Object.entries(cfg.extra_inputs)) fields[k] = typeof v === 'string' ? v : JSON.stringify(v);
    return multipartBody(fields, [{ name: 'file', filename: 'audio.wav', contentType: 'audio/wav', data: clip.data }]);
  },
  parse(data: string): Payload {
    const o = decodeJson(data);
    const err = errorPayload(o);
    if (err) return err;
    if (typeof o.text !== 'string') throw new PayloadParseError('transcription response has no "text" string');
    return { kind: 'data', content: str(o.text), reasoning: '', has_choices: false, usage: usageOfPayload(o) };
  },
  // Not streamed (config/validate.ts); the spec only keeps the native decoder's contract.
  textInput: false,
  sendsMaxTokens: false,
  decodeSpec: { ...COMMON_DECODE, message: '', content: ['text'], reasoning: [], finish: [] },
};

// OpenAI Realtime API (--endpoint-type realtime, over WebSocket: transport/realtime.ts). The "body"
// is the list of client events the transport sends on open: the conversation as
// conversation.item.create events, each audio clip as 100 ms input_audio_buffer.append events and a
// commit (realtime-audio.ts), then response.create. parse() reads each server event: text
// deltas (GA `response.output_text.delta`, beta `response.text.delta`, and the audio transcript
// deltas) are tokens, response.done carries usage (and a failed status), `error` is an error.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import type { Turn } from '../model/turn.js';
import { decodeJson, str } from './common.js';
import { audioClipEvents } from './realtime-audio.js';
import { usageOfPayload } from './usage.js';

const TEXT_DELTAS = new Set([
  'response.output_text.delta',
  'response.text.delta',
  'response.output_audio_transcript.delta',
  'response.audio_transcript.delta',
]);

function item(role: string, text: string): Record<string, unknown> {
  // Assistant history is output text; user and system turns are input text.
  const type = role === 'assistant' ? 'output_text' : 'input_text';
  return { type: 'conversation.item.create', item: { type: 'message', role, content: [{ type, text }] } };
}

function errorText(e: unknown): string {
  if (typeof e === 'string') return e;
  const m = (e as { message?: unknown } | null)?.message;
  return typeof m === 'string' && m !== '' ? m : JSON.stringify(e);
}

export const realtimeAdapter: EndpointAdapter = {
  type: 'realtime',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'extra_inputs'>) {
    const messages = turn.messages ?? [{ role: 'user' as const, content: turn.prompt }];
    const response: Record<string, unknown> = { modalities: ['text'], ...cfg.extra_inputs };
    if (turn.max_tokens !== null) response.max_output_tokens = turn.max_tokens;
    const clips = turn.media?.audio ?? [];
    // With audio, an empty prompt sends no text item (the audio is the user's turn).
    const texts = clips.length > 0 ? messages.filter((m) => m.content !== '') : messages;
    return {
      events: [...texts.map((m) => item(m.role, m.content)), ...clips.flatMap(audioClipEvents), { type: 'response.create', response }],
    };
  },
  parse(data: string): Payload {
    const o = decodeJson(data);
    const type = str(o.type);
    if (type === 'error') return { kind: 'error', message: errorText(o.error ?? o) };
    if (TEXT_DELTAS.has(type)) return { kind: 'data', content: str(o.delta), reasoning: '', has_choices: true, usage: null };
    if (type === 'response.done') {
      const r = (o.response ?? {}) as { status?: unknown; status_details?: { error?: unknown }; usage?: unknown };
      if (r.status === 'failed') return { kind: 'error', message: errorText(r.status_details?.error ?? 'response failed') };
      return { kind: 'data', content: '', reasoning: '', has_choices: false, usage: usageOfPayload({ usage: r.usage }) };
    }
    return { kind: 'data', content: '', reasoning: '', has_choices: false, usage: null };
  },
  // Never used: the realtime transport hands every event to parse() (no native WebSocket path).
  decodeSpec: {
    choices: 'choices',
    message: '',
    content: ['delta'],
    reasoning: [],
    usage: [],
    error: 'error',
    spec_decode: [],
    finish: [],
  },
};

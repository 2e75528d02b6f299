// Content parts for a turn's media, per API shape, and the count the image metrics read. Reusable
// by every adapter that sends images or audio with a prompt (chat today; Responses can call
// responsesContent()).
import type { Turn } from '../model/turn.js';

type Part = Record<string, unknown>;
type Message = { role: string; content: unknown };

/** OpenAI chat parts: `image_url` per image, `input_audio` (base64 WAV) per clip. */
export function chatMediaParts(turn: Turn): Part[] {
  const parts: Part[] = [];
  for (const url of turn.media?.images ?? []) parts.push({ type: 'image_url', image_url: { url } });
  for (const a of turn.media?.audio ?? [])
    parts.push({ type: 'input_audio', input_audio: { data: a.data.toString('base64'), format: a.format } });
  return parts;
}

/** OpenAI Responses parts: `input_image` per image (audio is not an input of that API). */
export function responsesMediaParts(turn: Turn): Part[] {
  return (turn.media?.images ?? []).map((image_url) => ({ type: 'input_image', image_url }));
}

/** The messages with the media parts added to the last user message (its text becomes a `text` part). */
export function withMediaParts(messages: readonly Message[], parts: Part[], textType = 'text'): Message[] {
  if (parts.length === 0) return [...messages];
  let last = -1;
  for (let i = messages.length - 1; i >= 0 && last < 0; i--) if (messages[i].role === 'user') last = i;
  if (last < 0) return [...messages, { role: 'user', content: parts }];
  return messages.map((m, i) =>
    i !== last ? m : { ...m, content: [...(typeof m.content === 'string' ? [{ type: textType, text: m.content }] : []), ...parts] },
  );
}

/** Responses `input` for a turn with media: one user message of `input_text` plus `input_image` parts. */
export function responsesContent(messages: readonly Message[], turn: Turn): Message[] {
  return withMediaParts(messages, responsesMediaParts(turn), 'input_text');
}

/** Image content parts of a wire body (AIPerf's num_images: `image_url` / `input_image` parts). */
export function countImageParts(body: unknown): number {
  let n = 0;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'image_url' || o.type === 'input_image') n++;
      else Object.values(o).forEach(visit);
    }
  };
  visit(body);
  return n;
}

// Anthropic Messages: /v1/messages. A stream is typed events: message_start (the input usage),
// content_block_start / content_block_delta (text_delta: content, thinking_delta: reasoning) /
// content_block_stop, message_delta (the output usage so far), message_stop, ping, error. A
// non-streaming body is the message. The key goes as x-api-key, with anthropic-version.
import type { AdapterAuthSettings, BodySettings, EndpointAdapter, Payload } from './types.js';
import type { Turn } from '../model/turn.js';
import { decodeJson, str } from './common.js';
import { JS_DECODE } from './js-decode.js';
import { parseUsage } from './usage.js';

type Obj = Record<string, unknown>;

/** Anthropic requires max_tokens; a turn without one asks for this many. */
export const DEFAULT_MAX_TOKENS = 4096;

function obj(v: unknown): Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

/** A content block's (or delta's) texts: [content, reasoning]. */
function blockText(b: Obj): [string, string] {
  if (b.type === 'text' || b.type === 'text_delta') return [str(b.text), ''];
  if (b.type === 'thinking' || b.type === 'thinking_delta') return ['', str(b.thinking)];
  return ['', ''];
}

function errorOf(o: Obj): Payload {
  const e = obj(o.error);
  const message = str(e.message) || str(e.type) || 'error event (no message)';
  return { kind: 'error', message };
}

export const messagesAdapter: EndpointAdapter = {
  type: 'messages',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'streaming' | 'extra_inputs'>) {
    const all = turn.messages ?? [{ role: 'user' as const, content: turn.prompt }];
    // The system prompt is a top-level field, not a message.
    const system = all.filter((m) => m.role === 'system').map((m) => m.content);
    const body: Obj = {
      model: cfg.model,
      max_tokens: turn.max_tokens ?? DEFAULT_MAX_TOKENS,
      messages: all.filter((m) => m.role !== 'system'),
      stream: cfg.streaming,
    };
    if (system.length > 0) body.system = system.join('\n');
    return { ...body, ...cfg.extra_inputs };
  },
  parse(text: string): Payload {
    const o = decodeJson(text);
    const none: Payload = { kind: 'data', content: '', reasoning: '', has_choices: false, usage: null };
    switch (o.type) {
      case 'message_start': {
        const u = parseUsage(obj(o.message).usage);
        return { ...none, usage: u, usage_partial: true };
      }
      case 'content_block_start':
      case 'content_block_delta': {
        const [content, reasoning] = blockText(obj(o.type === 'content_block_delta' ? o.delta : o.content_block));
        return { ...none, content, reasoning, has_choices: o.type === 'content_block_delta' };
      }
      case 'message_delta': {
        // Why the message ended (end_turn, max_tokens, stop_sequence, tool_use…) comes once, here.
        const p: Payload = { ...none, usage: parseUsage(o.usage), usage_partial: true };
        const stop = str(obj(o.delta).stop_reason);
        if (stop !== '') p.finish_reason = stop;
        return p;
      }
      case 'error':
        return errorOf(o);
      case 'message': {
        // The non-streaming body.
        let content = '';
        let reasoning = '';
        for (const b of Array.isArray(o.content) ? o.content : []) {
          const [c, r] = blockText(obj(b));
          content += c;
          reasoning += r;
        }
        const stop = str(o.stop_reason);
        return {
          kind: 'data',
          content,
          reasoning,
          has_choices: true,
          usage: parseUsage(o.usage),
          finish_reason: stop === '' ? null : stop,
        };
      }
      default:
        // content_block_stop, message_stop, ping, and event types added later.
        return none;
    }
  },
  decodeSpec: JS_DECODE,
  authHeaders(cfg: AdapterAuthSettings) {
    const h: Record<string, string> = { 'anthropic-version': cfg.endpoint_settings.anthropic_version };
    if (cfg.api_key !== null) h['x-api-key'] = cfg.api_key;
    return h;
  },
};

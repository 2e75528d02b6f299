// The mock's OpenAI Realtime API: a WebSocket at /v1/realtime. The client's conversation.item.create
// gives the prompt, response.create starts a response: response.created, then one
// response.output_text.delta per token (--ttft-ms, then --itl-ms apart), response.output_text.done and
// response.done with usage. input_audio_buffer.append adds base64 pcm16 (24 kHz mono) to the buffer;
// input_audio_buffer.commit answers input_audio_buffer.committed with the audio's duration and makes
// it input (audio tokens in usage, one per 100 ms as OpenAI counts them). An event that is not JSON,
// bad base64, or a commit of an empty buffer gets an `error` event; the socket stays open.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { MockOptions } from './options.js';

export const REALTIME_PATH = '/v1/realtime';
const DEFAULT_TOKENS = 16;
/** pcm16 at the API's default input rate: bytes per second. */
const PCM_BYTES_PER_S = 24_000 * 2;
const AUDIO_TOKEN_MS = 100;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function promptText(item: unknown): string {
  const content = (item as { content?: { text?: unknown; transcript?: unknown }[] } | null)?.content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (typeof c?.text === 'string' ? c.text : typeof c?.transcript === 'string' ? c.transcript : '')).join(' ');
}

function serve(ws: WebSocket, opts: MockOptions): void {
  let prompt = '';
  let n = 0;
  /** Bytes appended since the last commit, and audio seconds committed since the last response. */
  let buffered = 0;
  let audioS = 0;
  const timers = new Set<NodeJS.Timeout>();
  const send = (o: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(o));
  };
  const later = (ms: number, f: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      f();
    }, ms);
    timers.add(t);
  };
  send({ type: 'session.created', event_id: 'evt_0', session: { id: 'sess_mock', object: 'realtime.session', modalities: ['text'] } });
  ws.on('message', (data) => {
    let ev: { type?: unknown; item?: unknown; audio?: unknown; response?: { max_output_tokens?: unknown } };
    try {
      ev = JSON.parse(String(data)) as typeof ev;
    } catch {
      send({ type: 'error', error: { type: 'invalid_request_error', message: 'event is not JSON' } });
      return;
    }
    const invalid = (message: string) => send({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_value', message } });
    if (ev.type === 'input_audio_buffer.append') {
      const a = ev.audio;
      if (typeof a !== 'string' || a === '' || !BASE64.test(a)) return invalid('input_audio_buffer.append: audio is not base64');
      const bytes = Buffer.byteLength(a, 'base64');
      if (bytes % 2 !== 0) return invalid('input_audio_buffer.append: pcm16 audio has an odd byte count');
      buffered += bytes;
    } else if (ev.type === 'input_audio_buffer.commit') {
      if (buffered === 0) return invalid('input_audio_buffer.commit: the buffer is empty');
      const seconds = buffered / PCM_BYTES_PER_S;
      audioS += seconds;
      buffered = 0;
      send({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: `item_audio_${n}`, audio_duration_s: seconds });
    } else if (ev.type === 'conversation.item.create') {
      prompt += promptText(ev.item);
      send({ type: 'conversation.item.created', item: ev.item });
    } else if (ev.type === 'response.create') {
      const id = `resp_${++n}`;
      const max = ev.response?.max_output_tokens;
      const tokens = typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : DEFAULT_TOKENS;
      const audioTokens = Math.ceil((audioS * 1000) / AUDIO_TOKEN_MS - 1e-9);
      const textTokens = prompt.split(/\s+/).filter(Boolean).length;
      const inputTokens = textTokens + audioTokens;
      const details = { text_tokens: textTokens, audio_tokens: audioTokens };
      prompt = '';
      audioS = 0;
      send({ type: 'response.created', response: { id, object: 'realtime.response', status: 'in_progress' } });
      let i = 0;
      const step = () => {
        send({
          type: 'response.output_text.delta',
          response_id: id,
          item_id: `item_${n}`,
          output_index: 0,
          content_index: 0,
          delta: `token${i} `,
        });
        if (++i < tokens) return later(opts.itlMs, step);
        send({ type: 'response.output_text.done', response_id: id });
        send({
          type: 'response.done',
          response: {
            id,
            object: 'realtime.response',
            status: 'completed',
            usage: { input_tokens: inputTokens, output_tokens: tokens, total_tokens: inputTokens + tokens, input_token_details: details },
          },
        });
      };
      later(opts.ttftMs, step);
    } else if (ev.type === 'input_audio_buffer.clear') {
      buffered = 0;
      send({ type: 'input_audio_buffer.cleared' });
    } else if (ev.type !== 'session.update') {
      send({ type: 'error', error: { type: 'invalid_request_error', message: `unknown event type ${JSON.stringify(ev.type)}` } });
    }
  });
  ws.on('close', () => {
    for (const t of timers) clearTimeout(t);
  });
}

/** Serves /v1/realtime upgrades on the mock's HTTP server; close() drops every socket. */
export function attachRealtime(server: Server, opts: MockOptions): { close(): void } {
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== REALTIME_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, opts));
  });
  return {
    close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}

// The mock's media routes: audio transcriptions (multipart WAV upload), image generation and
// SGLang-style video generation. Each answers one JSON body after the mock's TTFT (transcriptions:
// plus --itl-ms per second of audio, so RTFx depends on the clip). --fail-mode malformed makes the
// picked requests answer a body cut off mid-object; http500/http429 answer those errors.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PNG } from 'pngjs';
import wavefile from 'wavefile';
import type { FaultPicker } from './faults.js';
import { sendHttpFault } from './faults.js';
import { errorBody } from './openai.js';
import type { MockOptions } from './options.js';

export const MEDIA_ROUTES = new Set(['/v1/audio/transcriptions', '/v1/images/generations', '/v1/videos']);

const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
/** A fixed peak memory, plus a little per pixel asked, so a test can check the value travels. */
export const MOCK_VIDEO_BASE_MB = 20480;

let tinyPng: string | null = null;
function pngB64(): string {
  // A small real PNG: clients that decode it get an image; size does not follow the request.
  tinyPng ??= PNG.sync.write(new PNG({ width: 8, height: 8 })).toString('base64');
  return tinyPng;
}

function json(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function badRequest(res: ServerResponse, message: string): void {
  json(res, 400, errorBody(message, 'invalid_request_error', 400));
}

/** The seconds of the uploaded WAV, from its header; throws when the upload is not a form with a WAV `file`. */
async function uploadedSeconds(body: Buffer, contentType: string): Promise<number> {
  // undici's FormData parser (Node's Response), a kept implementation of RFC 7578.
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  const file = form.get('file');
  if (file === null || typeof file === 'string') throw new Error('multipart field "file" is missing');
  const wav = new wavefile.WaveFile(Buffer.from(await file.arrayBuffer()));
  const fmt = wav.fmt as { sampleRate: number; blockAlign: number };
  return (wav.data as { chunkSize: number }).chunkSize / (fmt.sampleRate * fmt.blockAlign);
}

function sizeOf(v: unknown): [number, number] | null {
  const m = typeof v === 'string' ? /^(\d+)x(\d+)$/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2])] : null;
}

export function serveMedia(path: string, req: IncomingMessage, res: ServerResponse, opts: MockOptions, faults: FaultPicker): void {
  const parts: Buffer[] = [];
  let size = 0;
  req.on('data', (b: Buffer) => {
    size += b.length;
    if (size <= MAX_UPLOAD_BYTES) parts.push(b);
  });
  req.on('end', () => {
    if (size > MAX_UPLOAD_BYTES) return json(res, 413, errorBody('upload too large', 'invalid_request_error', 413));
    void answer(path, Buffer.concat(parts), req.headers['content-type'] ?? '', res, opts, faults.next());
  });
}

async function answer(
  path: string,
  body: Buffer,
  contentType: string,
  res: ServerResponse,
  opts: MockOptions,
  fault: string | null,
): Promise<void> {
  let delayMs = opts.ttftMs;
  let out: string;
  try {
    if (path === '/v1/audio/transcriptions') {
      if (!contentType.startsWith('multipart/form-data')) return badRequest(res, 'expected multipart/form-data');
      const seconds = await uploadedSeconds(body, contentType);
      delayMs += opts.itlMs * seconds;
      const words = Array.from({ length: Math.max(1, Math.round(seconds * 2)) }, (_, i) => `word${i}`).join(' ');
      out = JSON.stringify({ text: words, usage: { type: 'duration', seconds: Math.ceil(seconds) } });
    } else {
      const req = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      if (path === '/v1/images/generations') {
        const n = typeof req.n === 'number' && Number.isInteger(req.n) && req.n > 0 ? req.n : 1;
        out = JSON.stringify({ created: Math.floor(Date.now() / 1000), data: Array.from({ length: n }, () => ({ b64_json: pngB64() })) });
      } else {
        const [w, h] = sizeOf(req.size) ?? [0, 0];
        out = JSON.stringify({
          id: `video-mock-${Date.now()}`,
          object: 'video',
          status: 'completed',
          inference_time_s: opts.ttftMs / 1000,
          peak_memory_mb: MOCK_VIDEO_BASE_MB + (w * h) / 1e6,
        });
      }
    }
  } catch (err) {
    return badRequest(res, `bad request body: ${(err as Error).message}`);
  }
  if (fault === 'http500' || fault === 'http429') return sendHttpFault(res, fault);
  if (fault === 'hang') return;
  if (fault === 'malformed') out = out.slice(0, Math.floor(out.length / 2));
  const reply = out;
  setTimeout(() => json(res, 200, reply), delayMs);
}

// The media adapters on fixture bodies written from each API's documentation: chat image and audio
// parts, the transcription upload (read back by undici's multipart parser), image and video
// generation responses, and malformed bodies as PayloadParseError (a parse_error record).
import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { synthWav } from '../../../src/dataset/media-synth.js';
import { Rng } from '../../../src/model/rng.js';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { imageGenerationAdapter } from '../../../src/endpoints/image-generation.js';
import { countImageParts, responsesContent } from '../../../src/endpoints/media-parts.js';
import { RequestBuilder } from '../../../src/endpoints/request.js';
import { transcriptionsAdapter } from '../../../src/endpoints/transcriptions.js';
import { videoGenerationAdapter } from '../../../src/endpoints/video-generation.js';
import { responsesAdapter } from '../../../src/endpoints/responses.js';
import { PayloadParseError } from '../../../src/errors.js';
import type { Credit } from '../../../src/model/credit.js';
import type { Turn } from '../../../src/model/turn.js';

const clip = synthWav(new Rng(5), 0.5, 16000, 16, 1);
const IMG = 'data:image/png;base64,iVBORw0KGgo=';
const turn: Turn = { prompt: 'describe', isl: 1, max_tokens: 8, media: { images: [IMG, 'https://example.com/a.jpg'], audio: [clip] } };
const credit = (t: Turn): Credit => ({
  index: 0,
  phase: 'profiling',
  x_request_id: 'r0',
  credit_issued_ns: 0n,
  targeted_start_ns: null,
  turn: t,
});

describe('responses with images', () => {
  it('sends input_text and one input_image per image in the user input, and counts them', () => {
    const cfg = buildRunConfig({ 'endpoint-type': 'responses' }, {});
    const body = responsesAdapter.buildBody({ ...turn, media: { images: turn.media!.images } }, cfg) as { input: unknown };
    expect(body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'describe' },
          { type: 'input_image', image_url: IMG },
          { type: 'input_image', image_url: 'https://example.com/a.jpg' },
        ],
      },
    ]);
    expect(countImageParts(body)).toBe(2);
  });

  it('keeps the plain prompt when the turn has no media', () => {
    const body = responsesAdapter.buildBody({ prompt: 'hi', isl: 1, max_tokens: 4 }, buildRunConfig({ 'endpoint-type': 'responses' }, {}));
    expect(body.input).toBe('hi');
  });
});

describe('chat with media', () => {
  it('adds image_url and input_audio parts after the text of the user message', () => {
    const body = chatAdapter.buildBody(turn, buildRunConfig({}, {})) as { messages: { role: string; content: unknown }[] };
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'describe' },
          { type: 'image_url', image_url: { url: IMG } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          { type: 'input_audio', input_audio: { data: clip.data.toString('base64'), format: 'wav' } },
        ],
      },
    ]);
    expect(countImageParts(body)).toBe(2);
  });

  it('a text-only turn keeps plain string content', () => {
    const body = chatAdapter.buildBody({ prompt: 'hi', isl: 1, max_tokens: 8 }, buildRunConfig({}, {}));
    expect(body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('Responses parts: input_text then input_image, on the last user message only', () => {
    const msgs = responsesContent(
      [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
      turn,
    );
    expect(msgs[0]).toEqual({ role: 'system', content: 's' });
    expect(msgs[1].content).toEqual([
      { type: 'input_text', text: 'u' },
      { type: 'input_image', image_url: IMG },
      { type: 'input_image', image_url: 'https://example.com/a.jpg' },
    ]);
    expect(countImageParts(msgs)).toBe(2);
  });
});

describe('transcriptions', () => {
  const cfg = buildRunConfig({ 'endpoint-type': 'transcriptions', 'extra-inputs': ['language:en'] }, {});

  it('sends a multipart form that a real parser reads back: model, fields and the WAV bytes', async () => {
    const req = new RequestBuilder(cfg, transcriptionsAdapter).build(
      credit({ prompt: '', isl: null, max_tokens: null, media: { audio: [clip] } }),
    );
    expect(req.path).toBe('/v1/audio/transcriptions');
    expect(req.streaming).toBe(false);
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': req.headers['content-type'] } }).formData();
    expect(form.get('model')).toBe(cfg.model);
    expect(form.get('language')).toBe('en');
    expect(form.get('response_format')).toBe('json');
    const file = form.get('file') as File;
    expect(file.name).toBe('audio.wav');
    expect(file.type).toBe('audio/wav');
    expect(Buffer.from(await file.arrayBuffer()).equals(clip.data)).toBe(true);
  });

  it('reads the text and the usage; a body without text is a parse error', () => {
    const p = transcriptionsAdapter.parse(
      '{"text":"hello there","usage":{"type":"tokens","input_tokens":14,"output_tokens":3,"total_tokens":17}}',
    );
    expect(p).toMatchObject({ kind: 'data', content: 'hello there', usage: { prompt_tokens: 14, completion_tokens: 3 } });
    expect(() => transcriptionsAdapter.parse('{"txt":"x"}')).toThrow(PayloadParseError);
    expect(() => transcriptionsAdapter.parse('{"text":')).toThrow(PayloadParseError);
    expect(transcriptionsAdapter.parse('{"error":{"message":"bad audio"}}')).toEqual({ kind: 'error', message: 'bad audio' });
  });
});

describe('image generation', () => {
  const cfg = buildRunConfig(
    { 'endpoint-type': 'image_generation', 'batch-size-image': 3, 'image-width-mean': 512, 'image-height-mean': 256 },
    {},
  );

  it('asks for n images of the configured size as b64_json', () => {
    expect(imageGenerationAdapter.buildBody({ prompt: 'a cat', isl: 2, max_tokens: null }, cfg)).toEqual({
      model: cfg.model,
      prompt: 'a cat',
      n: 3,
      size: '512x256',
      response_format: 'b64_json',
    });
  });

  it('counts the images of the response; a malformed body is a parse error', () => {
    const p = imageGenerationAdapter.parse('{"created":1,"data":[{"b64_json":"AAA"},{"url":"https://x/y.png"}]}');
    expect(p).toMatchObject({ kind: 'data', media: { images: 2 } });
    expect(() => imageGenerationAdapter.parse('{"created":1}')).toThrow(PayloadParseError);
    expect(() => imageGenerationAdapter.parse('{"data":[{"revised_prompt":"x"}]}')).toThrow(PayloadParseError);
    expect(() => imageGenerationAdapter.parse('{"data":[')).toThrow(PayloadParseError);
  });
});

describe('video generation', () => {
  it('reads inference_time_s and peak_memory_mb at the top level or under data', () => {
    expect(videoGenerationAdapter.parse('{"id":"v1","status":"completed","inference_time_s":12.5,"peak_memory_mb":30210}')).toMatchObject({
      media: { video_inference_time_s: 12.5, video_peak_memory_mb: 30210 },
    });
    expect(videoGenerationAdapter.parse('{"data":[{"url":"u","inference_time_s":3,"peak_memory_mb":1.5}]}')).toMatchObject({
      media: { video_inference_time_s: 3, video_peak_memory_mb: 1.5 },
    });
  });

  it('a missing or ill-typed figure has no value; a body that is not JSON is a parse error', () => {
    const p = videoGenerationAdapter.parse('{"status":"completed","inference_time_s":"slow"}');
    expect(p.kind === 'data' && p.media).toEqual({});
    expect(() => videoGenerationAdapter.parse('{"status":')).toThrow(PayloadParseError);
  });
});

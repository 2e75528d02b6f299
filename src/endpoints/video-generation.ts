// SGLang-style video generation (/v1/videos): one JSON body per request whose server-reported
// `inference_time_s` and `peak_memory_mb` (top level, or in `data`) are the video metrics. A
// field that is missing or not a non-negative number gives that metric no value; the record stands.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import type { ResponseMedia } from '../model/media.js';
import type { Turn } from '../model/turn.js';
import { warnOnce } from '../warnings.js';
import { COMMON_DECODE, decodeJson, errorPayload } from './common.js';
import { usageOfPayload } from './usage.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function figure(sources: Obj[], key: string): number | undefined {
  for (const s of sources) {
    const v = s[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
    warnOnce(
      `video:${key}`,
      `the server's '${key}' is not a non-negative number; that metric has no value for such responses (warned once)`,
    );
    return undefined;
  }
  return undefined;
}

export const videoGenerationAdapter: EndpointAdapter = {
  type: 'video_generation',
  buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'media' | 'extra_inputs'>) {
    const { width_mean, height_mean } = cfg.media.image;
    const size = width_mean > 0 ? { size: `${width_mean}x${height_mean}` } : {};
    return { model: cfg.model, prompt: turn.prompt, ...size, ...cfg.extra_inputs };
  },
  parse(data: string): Payload {
    const o = decodeJson(data);
    const err = errorPayload(o);
    if (err) return err;
    const d: unknown = Array.isArray(o.data) ? (o.data as unknown[])[0] : o.data;
    const sources = isObj(d) ? [o, d] : [o];
    const media: ResponseMedia = {};
    const t = figure(sources, 'inference_time_s');
    const m = figure(sources, 'peak_memory_mb');
    if (t !== undefined) media.video_inference_time_s = t;
    if (m !== undefined) media.video_peak_memory_mb = m;
    return { kind: 'data', content: '', reasoning: '', has_choices: false, usage: usageOfPayload(o), media };
  },
  textOutput: false,
  sendsMaxTokens: false,
  decodeSpec: { ...COMMON_DECODE, message: '', content: [], reasoning: [], finish: [] },
};

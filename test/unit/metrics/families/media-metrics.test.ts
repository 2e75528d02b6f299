// Image, audio and video metrics on hand-built records (AIPerf's formulas): RTFx = duration /
// latency, image throughput = images / latency, image latency = latency / images; the video figures
// are the server's; a text-only record has none of them.
import { describe, expect, it } from 'vitest';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { defaultRegistry } from '../../../../src/metrics/catalogue.js';
import { mediaInput } from '../../../../src/records/media.js';
import type { MediaMetricInput } from '../../../../src/model/media.js';
import { metricRecord } from '../fixtures.js';

const MEDIA_TAGS = [
  'num_images',
  'image_throughput',
  'image_latency',
  'audio_duration',
  'rtfx',
  'video_inference_time',
  'video_peak_memory',
];
const none: MediaMetricInput = { num_images: null, audio_duration_s: null, video_inference_time_s: null, video_peak_memory_mb: null };

function metrics(latencyMs: number, media: Partial<MediaMetricInput> | null) {
  const r = metricRecord({ streaming: false, end: latencyMs });
  if (media) r.media = { ...none, ...media };
  return computeRecordMetrics(r, defaultRegistry());
}

describe('media metrics', () => {
  it('RTFx is audio seconds over request latency seconds', () => {
    const m = metrics(250, { audio_duration_s: 10 });
    expect(m.get('request_latency')).toBe(250e6);
    expect(m.get('audio_duration')).toBe(10e9);
    expect(m.get('rtfx')).toBeCloseTo(40, 9);
    expect(metrics(4000, { audio_duration_s: 2 }).get('rtfx')).toBeCloseTo(0.5, 9);
  });

  it('image throughput and latency divide by the image count', () => {
    const m = metrics(500, { num_images: 4 });
    expect(m.get('num_images')).toBe(4);
    expect(m.get('image_throughput')).toBeCloseTo(8, 9);
    expect(m.get('image_latency')).toBe(125e6);
  });

  it('video figures come from the server, in ns and MB', () => {
    const m = metrics(900, { video_inference_time_s: 0.75, video_peak_memory_mb: 20480.5 });
    expect(m.get('video_inference_time')).toBe(0.75e9);
    expect(m.get('video_peak_memory')).toBe(20480.5);
    expect(m.has('rtfx')).toBe(false);
    expect(m.has('num_images')).toBe(false);
  });

  it('a text-only record has no media metric', () => {
    const m = metrics(100, null);
    for (const tag of MEDIA_TAGS) expect(m.has(tag), tag).toBe(false);
  });

  it('records/media.ts: sent images win over generated ones; clip seconds add up; nothing is null', () => {
    const clip = { format: 'wav' as const, data: Buffer.alloc(0), duration_s: 1.25 };
    expect(mediaInput({ images: ['a', 'b'], audio: [clip, clip] }, null)).toEqual({ ...none, num_images: 2, audio_duration_s: 2.5 });
    expect(mediaInput(undefined, { images: 3 })).toEqual({ ...none, num_images: 3 });
    expect(mediaInput(undefined, { images: 0 })).toBeNull();
    expect(mediaInput(undefined, null)).toBeNull();
  });
});

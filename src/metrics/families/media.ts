// Image, audio and video metrics (AIPerf reference, "Image Metrics", "Audio Metrics", "Video
// Metrics"). Each reads the record's media figures (records/media.ts); a text-only record has none,
// so these metrics have no value there and their rows do not appear.
import { MetricFlag, type RecordMetricDef } from '../core/types.js';

const NS_PER_S = 1e9;

/** Logical image references in the wire request (image inputs), or images generated (image generation). */
export const numImages: RecordMetricDef = {
  kind: 'record',
  tag: 'num_images',
  header: 'Number of Images',
  unit: 'images',
  display: 'images',
  flags: MetricFlag.NO_CONSOLE,
  group: 'none',
  requires: [],
  compute: (r) => r.media?.num_images ?? undefined,
};

/** num_images / request_latency_seconds. */
export const imageThroughput: RecordMetricDef = {
  kind: 'record',
  tag: 'image_throughput',
  header: 'Image Throughput',
  unit: 'images/s',
  display: 'images/s',
  flags: MetricFlag.LARGER_IS_BETTER,
  group: 'default',
  requires: ['num_images', 'request_latency'],
  compute: (_r, v) => {
    const n = v.get('num_images') as number | undefined;
    const lat = v.get('request_latency') as number | undefined;
    return n === undefined || lat === undefined || lat <= 0 ? undefined : n / (lat / NS_PER_S);
  },
};

/** request_latency / num_images (kept in ns, shown in ms). */
export const imageLatency: RecordMetricDef = {
  kind: 'record',
  tag: 'image_latency',
  header: 'Image Latency',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: ['num_images', 'request_latency'],
  compute: (_r, v) => {
    const n = v.get('num_images') as number | undefined;
    const lat = v.get('request_latency') as number | undefined;
    return n === undefined || n <= 0 || lat === undefined ? undefined : lat / n;
  },
};

/** Input audio seconds of the request (kept in ns, shown in s); hidden from the console as in AIPerf. */
export const audioDuration: RecordMetricDef = {
  kind: 'record',
  tag: 'audio_duration',
  header: 'Audio Duration',
  unit: 'ns',
  display: 's',
  flags: MetricFlag.NO_CONSOLE,
  group: 'none',
  requires: [],
  compute: (r) => (r.media?.audio_duration_s == null ? undefined : r.media.audio_duration_s * NS_PER_S),
};

/** Inverse real-time factor: audio_duration_seconds / request_latency_seconds. */
export const rtfx: RecordMetricDef = {
  kind: 'record',
  tag: 'rtfx',
  header: 'Inverse Real-Time Factor (RTFx)',
  unit: 'ratio',
  display: 'ratio',
  flags: MetricFlag.LARGER_IS_BETTER,
  group: 'default',
  requires: ['audio_duration', 'request_latency'],
  compute: (_r, v) => {
    const d = v.get('audio_duration') as number | undefined;
    const lat = v.get('request_latency') as number | undefined;
    return d === undefined || lat === undefined || lat <= 0 ? undefined : d / lat;
  },
};

/** The server's `inference_time_s` (kept in ns, shown in ms). */
export const videoInferenceTime: RecordMetricDef = {
  kind: 'record',
  tag: 'video_inference_time',
  header: 'Video Inference Time',
  unit: 'ns',
  display: 'ms',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: [],
  compute: (r) => (r.media?.video_inference_time_s == null ? undefined : r.media.video_inference_time_s * NS_PER_S),
};

/** The server's `peak_memory_mb`. */
export const videoPeakMemory: RecordMetricDef = {
  kind: 'record',
  tag: 'video_peak_memory',
  header: 'Video Peak Memory',
  unit: 'MB',
  display: 'MB',
  flags: MetricFlag.NONE,
  group: 'default',
  requires: [],
  compute: (r) => r.media?.video_peak_memory_mb ?? undefined,
};

export const mediaRecordMetrics: readonly RecordMetricDef[] = [
  numImages,
  imageThroughput,
  imageLatency,
  audioDuration,
  rtfx,
  videoInferenceTime,
  videoPeakMemory,
];

// Media on both sides of a request: a turn's images and audio, and what a response says about media.

/** A WAV clip sent as a request input. */
export interface AudioClip {
  format: 'wav';
  data: Buffer;
  duration_s: number;
}

/** Non-text inputs of a turn: image URLs (http(s) or base64 data URLs) and audio clips. */
export interface TurnMedia {
  images?: string[];
  audio?: AudioClip[];
}

/** What a response says about media (endpoints/image-generation.ts, video-generation.ts). */
export interface ResponseMedia {
  /** Images in the response (image generation). */
  images?: number;
  /** Server-reported generation time and peak GPU memory (SGLang video generation). */
  video_inference_time_s?: number;
  video_peak_memory_mb?: number;
}

/** The media figures of one record, request side and response side (metrics/families/media.ts). */
export interface MediaMetricInput {
  num_images: number | null;
  audio_duration_s: number | null;
  video_inference_time_s: number | null;
  video_peak_memory_mb: number | null;
}

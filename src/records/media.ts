// A record's media figures (metrics/families/media.ts reads them): images and audio seconds the
// request carried, images the response generated, and the video figures the server reported.
import type { MediaMetricInput, ResponseMedia, TurnMedia } from '../model/media.js';

/** Null for a text-only request with a text-only response (no media metric then has a value). */
export function mediaInput(sent: TurnMedia | undefined, got: ResponseMedia | null | undefined): MediaMetricInput | null {
  const sentImages = sent?.images?.length ?? 0;
  const clips = sent?.audio ?? [];
  const out: MediaMetricInput = {
    // Image inputs are the images of the wire request (one part each); a generation request's are those it got back.
    num_images: sentImages > 0 ? sentImages : got?.images !== undefined && got.images > 0 ? got.images : null,
    audio_duration_s: clips.length > 0 ? clips.reduce((s, c) => s + c.duration_s, 0) : null,
    video_inference_time_s: got?.video_inference_time_s ?? null,
    video_peak_memory_mb: got?.video_peak_memory_mb ?? null,
  };
  return Object.values(out).some((v) => v !== null) ? out : null;
}

// The media flags (issue 16 items 5-7): synthetic images and audio for request inputs, audio files,
// and the sizes asked of generation endpoints. Validated once; a bad value or a missing file is
// one line naming the flag, exit 2, before any request.
import fs from 'node:fs';
import { badFlag as bad } from '../errors.js';
import type { ImageFormat } from './media-synth.js';

export interface ImageSettings {
  width_mean: number;
  width_stddev: number;
  height_mean: number;
  height_stddev: number;
  format: ImageFormat;
  /** Images per request (chat/Responses inputs; `n` of image generation). */
  batch_size: number;
}

export interface AudioSettings {
  /** Seconds per synthetic clip, mean; 0: no synthetic audio. */
  length_mean_s: number;
  length_stddev_s: number;
  /** Sample rates (Hz) a clip picks from, seeded. */
  sample_rates: number[];
  /** Bit depths a clip picks from. */
  depths: number[];
  channels: number;
  /** Clips per request (chat `input_audio` parts; transcriptions send one). */
  batch_size: number;
  /** WAV files used instead of synthetic clips, in turn. */
  files: string[];
}

export interface MediaConfig {
  image: ImageSettings;
  audio: AudioSettings;
}

export interface MediaFlags {
  'endpoint-type'?: string;
  'image-width-mean'?: number;
  'image-width-stddev'?: number;
  'image-height-mean'?: number;
  'image-height-stddev'?: number;
  'image-format'?: string;
  'batch-size-image'?: number;
  'audio-length-mean'?: number;
  'audio-length-stddev'?: number;
  'audio-sample-rates'?: (number | string)[] | number | string;
  'audio-depths'?: (number | string)[] | number | string;
  'audio-num-channels'?: number;
  'batch-size-audio'?: number;
  'audio-format'?: string;
  'audio-file'?: string[] | string;
}

/** Seconds of synthetic audio a transcription request gets when no length or file is given. */
export const DEFAULT_TRANSCRIPTION_SECONDS = 5;
/** Image size asked of an image generation endpoint when none is given. */
export const DEFAULT_GENERATED_IMAGE_SIZE = 1024;
/** The largest synthetic image side and clip length: far beyond any real input, and memory stays bounded. */
const MAX_IMAGE_SIDE = 8192;
const MAX_AUDIO_SECONDS = 3600;

function num(flag: string, v: number | undefined, dflt: number, opts: { int?: boolean; min?: number; max?: number } = {}): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(flag, `expected a number, got ${String(v)}`);
  if (opts.int && !Number.isInteger(v)) bad(flag, `expected an integer, got ${v}`);
  if (v < (opts.min ?? 0)) bad(flag, `must be at least ${opts.min ?? 0}, got ${v}`);
  if (opts.max !== undefined && v > opts.max) bad(flag, `must be at most ${opts.max}, got ${v}`);
  return v;
}

function list(v: (number | string)[] | number | string | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v])
    .flatMap((x) => String(x).split(','))
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

export function parseMediaFlags(f: MediaFlags): MediaConfig {
  const type = f['endpoint-type'];
  const fmt = f['image-format'] ?? 'png';
  if (fmt !== 'png' && fmt !== 'jpeg') bad('image-format', `expected png or jpeg, got ${JSON.stringify(fmt)}`);
  const side = type === 'image_generation' ? DEFAULT_GENERATED_IMAGE_SIZE : 0;
  const image: ImageSettings = {
    width_mean: num('image-width-mean', f['image-width-mean'], side, { int: true, max: MAX_IMAGE_SIDE }),
    width_stddev: num('image-width-stddev', f['image-width-stddev'], 0),
    height_mean: num('image-height-mean', f['image-height-mean'], side, { int: true, max: MAX_IMAGE_SIDE }),
    height_stddev: num('image-height-stddev', f['image-height-stddev'], 0),
    format: fmt,
    batch_size: num('batch-size-image', f['batch-size-image'], 1, { int: true, max: 64 }),
  };
  if ((image.width_mean === 0) !== (image.height_mean === 0))
    bad(image.width_mean === 0 ? 'image-width-mean' : 'image-height-mean', 'give both --image-width-mean and --image-height-mean');

  const audioFormat = f['audio-format'] ?? 'wav';
  if (audioFormat !== 'wav') bad('audio-format', `only wav is supported, got ${JSON.stringify(audioFormat)}`);
  const files = list(f['audio-file']);
  for (const file of files) if (!fs.existsSync(file) || !fs.statSync(file).isFile()) bad('audio-file', `no such file: ${file}`);
  const rates = list(f['audio-sample-rates']).map((s) => Number(s));
  for (const r of rates) if (!(r > 0 && r <= 384)) bad('audio-sample-rates', `expected kHz in (0, 384], got ${r}`);
  const depths = list(f['audio-depths']).map((s) => Number(s));
  for (const d of depths) if (![8, 16, 24, 32].includes(d)) bad('audio-depths', `expected 8, 16, 24 or 32, got ${d}`);
  const dfltSeconds = type === 'transcriptions' && files.length === 0 ? DEFAULT_TRANSCRIPTION_SECONDS : 0;
  const audio: AudioSettings = {
    length_mean_s: num('audio-length-mean', f['audio-length-mean'], dfltSeconds, { max: MAX_AUDIO_SECONDS }),
    length_stddev_s: num('audio-length-stddev', f['audio-length-stddev'], 0),
    // Realtime's pcm16 input is 24 kHz: synthetic clips are made at that rate unless asked otherwise.
    sample_rates: (rates.length ? rates : [type === 'realtime' ? 24 : 16]).map((k) => Math.round(k * 1000)),
    depths: depths.length ? depths : [16],
    channels: num('audio-num-channels', f['audio-num-channels'], 1, { int: true, min: 1, max: 2 }),
    batch_size: num('batch-size-audio', f['batch-size-audio'], 1, { int: true, max: 64 }),
    files,
  };
  if (type === 'transcriptions' && audio.length_mean_s === 0 && files.length === 0)
    bad('audio-length-mean', 'transcriptions need audio: give --audio-length-mean > 0 or --audio-file');
  return { image, audio };
}

/** True when turns carry synthetic images (chat and Responses inputs). */
export function wantsImages(m: MediaConfig, endpointType: string): boolean {
  return m.image.width_mean > 0 && m.image.batch_size > 0 && (endpointType === 'chat' || endpointType === 'responses');
}

/** True when turns carry audio (chat `input_audio` parts, realtime input audio, or the transcription's file). */
export function wantsAudio(m: MediaConfig, endpointType: string): boolean {
  if (endpointType === 'transcriptions') return true;
  const audioInput = endpointType === 'chat' || endpointType === 'realtime';
  return (m.audio.length_mean_s > 0 || m.audio.files.length > 0) && m.audio.batch_size > 0 && audioInput;
}

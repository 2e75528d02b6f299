// Adds the run's media to every turn a source gives: synthetic images (chat/Responses) and audio
// clips (chat `input_audio`, transcriptions), seeded by --random-seed. Inputs come from small pools
// built before the run (encoding a large JPEG takes a good part of a second: never on the send
// path); turns draw from them with their own seeded stream. A turn that already has media (from its
// dataset line) keeps it.
import fs from 'node:fs';
import type { EndpointType } from '../endpoints/types.js';
import { InvalidFileError } from '../errors.js';
import type { AudioClip, TurnMedia } from '../model/media.js';
import { wantsAudio, wantsImages, type MediaConfig } from './media-config.js';
import { dataUrl, IMAGE_MIME, synthImage, synthWav, wavDuration } from './media-synth.js';
import { Rng } from '../model/rng.js';
import type { Conversation, ConversationSource } from './types.js';

/** Distinct synthetic images / clips per run. */
const POOL = 16;

function sideOf(rng: Rng, mean: number, stddev: number): number {
  return Math.max(1, Math.round(stddev === 0 ? mean : rng.normal(mean, stddev)));
}

/** A WAV file read once as a clip; not a PCM WAV: one line naming it, exit 2. */
export function readWavFile(file: string): AudioClip {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    throw new InvalidFileError(`${file}: cannot read the audio file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return { format: 'wav', data, duration_s: wavDuration(data) };
  } catch (err) {
    throw new InvalidFileError(`${file}: not a PCM WAV file (${(err as Error).message})`);
  }
}

export class MediaPool {
  private readonly images: string[] = [];
  private readonly clips: AudioClip[] = [];
  private readonly build: Rng;
  private readonly draw: Rng;

  constructor(
    private readonly m: MediaConfig,
    seed: number,
  ) {
    const root = new Rng(seed).fork('media');
    this.build = root.fork('build');
    this.draw = root.fork('draw');
    for (const f of m.audio.files) this.clips.push(readWavFile(f));
  }

  /** Builds the pools now (synthetic images and clips the run will draw). */
  fill(images: boolean, audio: boolean): void {
    for (let i = 0; images && i < POOL; i++) this.imageAt(i);
    for (let i = 0; audio && this.m.audio.files.length === 0 && i < POOL; i++) this.clipAt(i);
  }

  image(): string {
    return this.imageAt(this.draw.int(0, POOL - 1));
  }

  private imageAt(i: number): string {
    while (this.images.length <= i) {
      const { width_mean, width_stddev, height_mean, height_stddev, format } = this.m.image;
      const w = sideOf(this.build, width_mean, width_stddev);
      const h = sideOf(this.build, height_mean, height_stddev);
      this.images.push(dataUrl(synthImage(this.build, w, h, format), IMAGE_MIME[format]));
    }
    return this.images[i];
  }

  clip(): AudioClip {
    if (this.m.audio.files.length > 0) return this.clips[this.draw.int(0, this.clips.length - 1)];
    return this.clipAt(this.draw.int(0, POOL - 1));
  }

  private clipAt(i: number): AudioClip {
    while (this.clips.length <= i) {
      const a = this.m.audio;
      const raw = a.length_stddev_s === 0 ? a.length_mean_s : this.build.normal(a.length_mean_s, a.length_stddev_s);
      const seconds = Math.max(0.01, raw);
      this.clips.push(synthWav(this.build, seconds, this.build.pick(a.sample_rates), this.build.pick(a.depths), a.channels));
    }
    return this.clips[i];
  }
}

/** `source` with the run's media added to each turn; `source` itself when the run sends none. */
/** What the media of a run's turns read of it (config/types.ts RunConfig has these fields). */
export interface MediaSourceSettings {
  readonly media: MediaConfig;
  readonly endpoint_type: EndpointType;
  readonly random_seed: number;
}

export function withMedia(source: ConversationSource, cfg: MediaSourceSettings): ConversationSource {
  const images = wantsImages(cfg.media, cfg.endpoint_type);
  const audio = wantsAudio(cfg.media, cfg.endpoint_type);
  if (!images && !audio) return source;
  const pool = new MediaPool(cfg.media, cfg.random_seed);
  pool.fill(images, audio);
  const audioPerTurn = cfg.endpoint_type === 'transcriptions' ? 1 : cfg.media.audio.batch_size;
  const add = (conv: Conversation): Conversation => ({
    ...conv,
    turns: conv.turns.map((t) => {
      const media: TurnMedia = { ...t.media };
      if (images && !media.images) media.images = Array.from({ length: cfg.media.image.batch_size }, () => pool.image());
      if (audio && !media.audio) media.audio = Array.from({ length: audioPerTurn }, () => pool.clip());
      return { ...t, media };
    }),
  });
  return {
    kind: source.kind,
    size: source.size,
    hasTimestamps: source.hasTimestamps,
    ...(source.singleTurn !== undefined ? { singleTurn: source.singleTurn } : {}),
    next: () => add(source.next()),
  };
}

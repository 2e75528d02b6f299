// Synthetic, seeded media for request inputs: images (PNG via pngjs, JPEG via jpeg-js) as base64
// data URLs, and WAV clips (wavefile) of a given length. Same seed, same bytes.
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import wavefile from 'wavefile';
import type { AudioClip } from '../model/media.js';
import type { Rng } from '../model/rng.js';

export type ImageFormat = 'png' | 'jpeg';

/** RGBA pixels of smooth seeded gradients plus noise: compressible like a photo, not a flat colour. */
function pixels(rng: Rng, width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  const base = [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
  const fx = rng.next() * 4;
  const fy = rng.next() * 4;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const g = Math.sin((x / width) * fx * Math.PI) * 64 + Math.cos((y / height) * fy * Math.PI) * 64;
      // One draw per pixel: a byte of noise (±8) per channel.
      const r = rng.nextUint32();
      for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, base[c] + g + (((r >>> (8 * c)) & 15) - 8)));
      data[i + 3] = 255;
    }
  }
  return data;
}

/** An encoded image of exactly width × height pixels. */
export function synthImage(rng: Rng, width: number, height: number, format: ImageFormat): Buffer {
  const data = pixels(rng, width, height);
  if (format === 'jpeg') return jpeg.encode({ data, width, height }, 85).data;
  const png = new PNG({ width, height });
  data.copy(png.data);
  return PNG.sync.write(png);
}

export function dataUrl(bytes: Buffer, mime: string): string {
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

export const IMAGE_MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg' };

/** A mono or stereo PCM WAV clip of `seconds` (rounded to whole samples): a seeded tone under noise. */
export function synthWav(rng: Rng, seconds: number, sampleRate: number, bitDepth: number, channels: number): AudioClip {
  const frames = Math.max(1, Math.round(seconds * sampleRate));
  const max = 2 ** (bitDepth - 1) - 1;
  const hz = 110 + rng.next() * 770;
  const out: number[][] = [];
  for (let c = 0; c < channels; c++) {
    const s = new Array<number>(frames);
    for (let i = 0; i < frames; i++) {
      const v = 0.4 * Math.sin((2 * Math.PI * hz * i) / sampleRate) + 0.1 * (rng.next() * 2 - 1);
      // 8-bit WAV is unsigned (offset 128); the others are signed.
      s[i] = bitDepth === 8 ? Math.round(128 + v * 127) : Math.round(v * max);
    }
    out.push(s);
  }
  const wav = new wavefile.WaveFile();
  wav.fromScratch(channels, sampleRate, String(bitDepth), channels === 1 ? out[0] : out);
  return { format: 'wav', data: Buffer.from(wav.toBuffer()), duration_s: frames / sampleRate };
}

/** A WAV file's duration from its header (data bytes / (rate × block align)); throws when it is not a PCM WAV. */
export function wavDuration(bytes: Buffer): number {
  const wav = new wavefile.WaveFile(bytes);
  const fmt = wav.fmt as { sampleRate: number; blockAlign: number };
  const data = wav.data as { chunkSize: number };
  if (!fmt.sampleRate || !fmt.blockAlign) throw new Error('no sample rate or block alignment in the WAV header');
  return data.chunkSize / (fmt.sampleRate * fmt.blockAlign);
}

// Synthetic media: the decoded data URL has the requested size and format; the WAV header gives
// the requested duration; the same seed gives the same bytes; bad media flags are one-line errors.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { parseMediaFlags, type MediaFlags } from '../../../src/dataset/media-config.js';
import { MediaPool } from '../../../src/dataset/media-source.js';
import { synthWav } from '../../../src/dataset/media-synth.js';
import { Rng } from '../../../src/model/rng.js';
import { InvalidArgumentError, InvalidFileError } from '../../../src/errors.js';

function decodeDataUrl(url: string): { mime: string; bytes: Buffer } {
  const m = /^data:([^;]+);base64,(.+)$/.exec(url);
  if (!m) throw new Error(`not a base64 data URL: ${url.slice(0, 40)}`);
  return { mime: m[1], bytes: Buffer.from(m[2], 'base64') };
}

/** The RIFF/WAVE header read by hand (not through wavefile): sample rate, block align, data bytes. */
function wavHeader(b: Buffer): { rate: number; channels: number; bits: number; seconds: number } {
  expect(b.toString('ascii', 0, 4)).toBe('RIFF');
  expect(b.toString('ascii', 8, 12)).toBe('WAVE');
  let off = 12;
  let rate = 0;
  let align = 0;
  let channels = 0;
  let bits = 0;
  while (off + 8 <= b.length) {
    const id = b.toString('ascii', off, off + 4);
    const size = b.readUInt32LE(off + 4);
    if (id === 'fmt ') {
      channels = b.readUInt16LE(off + 10);
      rate = b.readUInt32LE(off + 12);
      align = b.readUInt16LE(off + 20);
      bits = b.readUInt16LE(off + 22);
    }
    if (id === 'data') return { rate, channels, bits, seconds: size / (rate * align) };
    off += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

const flags = (f: MediaFlags) => parseMediaFlags({ 'endpoint-type': 'chat', ...f });

describe('synthetic images', () => {
  it('PNG data URLs decode to the requested width and height', () => {
    const pool = new MediaPool(flags({ 'image-width-mean': 64, 'image-height-mean': 48 }), 7);
    for (let i = 0; i < 5; i++) {
      const { mime, bytes } = decodeDataUrl(pool.image());
      expect(mime).toBe('image/png');
      const png = PNG.sync.read(bytes);
      expect([png.width, png.height]).toEqual([64, 48]);
    }
  });

  it('JPEG data URLs decode as JPEG of the requested size', () => {
    const pool = new MediaPool(flags({ 'image-width-mean': 40, 'image-height-mean': 30, 'image-format': 'jpeg' }), 7);
    const { mime, bytes } = decodeDataUrl(pool.image());
    expect(mime).toBe('image/jpeg');
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]); // SOI marker
    const img = jpeg.decode(bytes);
    expect([img.width, img.height]).toEqual([40, 30]);
  });

  it('a stddev spreads the sizes; the same seed gives the same images', () => {
    const cfg = flags({ 'image-width-mean': 64, 'image-width-stddev': 16, 'image-height-mean': 64, 'image-height-stddev': 16 });
    const a = new MediaPool(cfg, 3);
    const b = new MediaPool(cfg, 3);
    const widths = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const u = a.image();
      expect(b.image()).toBe(u);
      widths.add(PNG.sync.read(decodeDataUrl(u).bytes).width);
    }
    expect(widths.size).toBeGreaterThan(1);
    expect(new MediaPool(cfg, 4).image()).not.toBe(new MediaPool(cfg, 3).image());
  });
});

describe('synthetic audio', () => {
  it('the WAV header gives the requested duration, rate, depth and channels', () => {
    for (const [seconds, rate, bits, ch] of [
      [2.5, 16000, 16, 1],
      [0.75, 44100, 24, 2],
      [1, 8000, 8, 1],
    ] as const) {
      const clip = synthWav(new Rng(1), seconds, rate, bits, ch);
      const h = wavHeader(clip.data);
      expect(h).toEqual({ rate, channels: ch, bits, seconds });
      expect(clip.duration_s).toBe(seconds);
    }
  });

  it('--audio-length-mean and --audio-sample-rates (kHz) reach the pool clips', () => {
    const pool = new MediaPool(flags({ 'audio-length-mean': 1.5, 'audio-sample-rates': ['22.05'] }), 1);
    const h = wavHeader(pool.clip().data);
    expect(h.rate).toBe(22050);
    expect(h.seconds).toBeCloseTo(1.5, 4);
  });

  it('an --audio-file is read and its duration comes from its header', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-media-'));
    const file = path.join(dir, 'a.wav');
    fs.writeFileSync(file, synthWav(new Rng(2), 3, 16000, 16, 1).data);
    const clip = new MediaPool(flags({ 'audio-file': [file] }), 1).clip();
    expect(clip.duration_s).toBe(3);
    fs.writeFileSync(file, 'not a wav');
    expect(() => new MediaPool(flags({ 'audio-file': [file] }), 1)).toThrow(InvalidFileError);
  });
});

describe('media flags', () => {
  it('a missing audio file names the flag', () => {
    expect(() => flags({ 'audio-file': ['/nonexistent/a.wav'] })).toThrow(InvalidArgumentError);
    expect(() => flags({ 'audio-file': ['/nonexistent/a.wav'] })).toThrow(/^--audio-file: no such file/);
  });
  it('bad values name their flag', () => {
    expect(() => flags({ 'image-format': 'gif' })).toThrow(/^--image-format:/);
    expect(() => flags({ 'image-width-mean': 10 })).toThrow(/^--image-height-mean:/);
    expect(() => flags({ 'audio-depths': ['12'] })).toThrow(/^--audio-depths:/);
    expect(() => flags({ 'audio-format': 'mp3' })).toThrow(/^--audio-format:/);
  });
  it('transcriptions get 5 s of audio by default; image generation 1024x1024', () => {
    expect(parseMediaFlags({ 'endpoint-type': 'transcriptions' }).audio.length_mean_s).toBe(5);
    const img = parseMediaFlags({ 'endpoint-type': 'image_generation' }).image;
    expect([img.width_mean, img.height_mean]).toEqual([1024, 1024]);
  });
});

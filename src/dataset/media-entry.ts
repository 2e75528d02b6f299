// The media fields of a single_turn line: "image" | "images" (a URL, a data URL, or a local file
// path, relative to the dataset file) and "audio" (a local WAV file). A local file that is missing
// is the dataset's error (one line, exit 2) while it loads, before any request.
import fs from 'node:fs';
import path from 'node:path';
import type { TurnMedia } from '../model/media.js';
import type { Fields } from './file.js';
import { kindOf } from './file.js';
import { dataUrl } from './media-synth.js';
import { readWavFile } from './media-source.js';

const MIME: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

function imageUrl(f: Fields, ref: string, baseDir: string): string {
  if (/^(https?:|data:)/i.test(ref)) return ref;
  const file = path.resolve(baseDir, ref);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) f.fail(`image file not found: ${ref}`);
  const mime = MIME[path.extname(file).toLowerCase()];
  if (!mime) f.fail(`image file ${ref}: expected .png, .jpg, .jpeg, .gif or .webp`);
  return dataUrl(fs.readFileSync(file), mime);
}

export function readEntryMedia(f: Fields, datasetFile: string): TurnMedia | undefined {
  const baseDir = path.dirname(datasetFile);
  const media: TurnMedia = {};
  const name = f.has('images') ? 'images' : f.has('image') ? 'image' : null;
  if (name !== null) {
    const v = f.obj[name];
    const refs = Array.isArray(v) ? v : [v];
    if (refs.length === 0 || !refs.every((r) => typeof r === 'string' && r !== ''))
      f.fail(`field "${name}" must be a non-empty string or list of strings, got ${kindOf(v)}`);
    media.images = (refs as string[]).map((r) => imageUrl(f, r, baseDir));
  }
  if (f.has('audio')) {
    const v = f.obj.audio;
    if (typeof v !== 'string' || v === '') f.fail(`field "audio" must be a WAV file path, got ${kindOf(v)}`);
    const file = path.resolve(baseDir, v);
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) f.fail(`audio file not found: ${v}`);
    media.audio = [readWavFile(file)];
  }
  return media.images || media.audio ? media : undefined;
}

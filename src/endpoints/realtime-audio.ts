// A turn's WAV clips as OpenAI Realtime input audio: the session's default input format, pcm16
// (16-bit little-endian mono at 24 kHz), base64 in `input_audio_buffer.append` events of 100 ms,
// each clip then committed (one user audio item per clip). Clips of another rate, depth or channel
// count are converted with wavefile (its resampler; channels averaged). Clips come from a small
// pool (dataset/media-source.ts), so each one's PCM is converted once and kept.
import wavefile from 'wavefile';
import type { AudioClip } from '../model/media.js';

/** The Realtime API's pcm16 input rate (Hz). */
export const REALTIME_SAMPLE_RATE = 24_000;
/** Audio per `input_audio_buffer.append` event (ms): each append is one sent packet of the round-trip metrics. */
export const APPEND_MS = 100;
const BYTES_PER_SAMPLE = 2;

const pcmCache = new WeakMap<Buffer, Buffer>();

/** A WAV clip as 16-bit little-endian mono PCM at 24 kHz. */
export function pcm16Mono24k(clip: AudioClip): Buffer {
  const cached = pcmCache.get(clip.data);
  if (cached) return cached;
  const wav = new wavefile.WaveFile(clip.data);
  // IMA ADPCM (4-bit) is decoded first; a-law, mu-law and the other PCM depths convert directly.
  if (wav.bitDepth === '4') wav.fromIMAADPCM();
  if (wav.bitDepth !== '16') wav.toBitDepth('16');
  if ((wav.fmt as { sampleRate: number }).sampleRate !== REALTIME_SAMPLE_RATE) wav.toSampleRate(REALTIME_SAMPLE_RATE);
  const raw = wav.getSamples(false, Int16Array) as unknown as Int16Array | Int16Array[];
  const channels = Array.isArray(raw) ? raw : [raw];
  const frames = channels[0]?.length ?? 0;
  const out = Buffer.alloc(frames * BYTES_PER_SAMPLE);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (const ch of channels) sum += ch[i];
    out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(sum / channels.length))), i * BYTES_PER_SAMPLE);
  }
  pcmCache.set(clip.data, out);
  return out;
}

/** The client events that send one clip: its 100 ms appends, then the commit. */
export function audioClipEvents(clip: AudioClip): Record<string, unknown>[] {
  const pcm = pcm16Mono24k(clip);
  const step = ((REALTIME_SAMPLE_RATE * APPEND_MS) / 1000) * BYTES_PER_SAMPLE;
  const events: Record<string, unknown>[] = [];
  for (let off = 0; off < pcm.length; off += step)
    events.push({ type: 'input_audio_buffer.append', audio: pcm.subarray(off, off + step).toString('base64') });
  events.push({ type: 'input_audio_buffer.commit' });
  return events;
}

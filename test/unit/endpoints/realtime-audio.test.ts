// --endpoint-type realtime with audio: a turn's WAV clips as 100 ms input_audio_buffer.append events
// of base64 pcm16 (24 kHz mono LE), a commit per clip, then response.create; clips of another rate,
// depth or channel count converted first.
import { describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { buildRunConfig } from '../../../src/config/validate.js';
import { parseMediaFlags, wantsAudio } from '../../../src/dataset/media-config.js';
import { synthWav } from '../../../src/dataset/media-synth.js';
import { Rng } from '../../../src/model/rng.js';
import { realtimeAdapter } from '../../../src/endpoints/realtime.js';
import { APPEND_MS, pcm16Mono24k, REALTIME_SAMPLE_RATE } from '../../../src/endpoints/realtime-audio.js';
import type { AudioClip } from '../../../src/model/media.js';
import type { Turn } from '../../../src/model/turn.js';

type Ev = { type: string; audio?: string; item?: unknown };

function events(turn: Turn): Ev[] {
  const cfg = buildRunConfig({ 'endpoint-type': 'realtime' });
  return (realtimeAdapter.buildBody(turn, cfg) as { events: Ev[] }).events;
}

function decodedAppends(evs: Ev[]): Buffer[] {
  return evs.filter((e) => e.type === 'input_audio_buffer.append').map((e) => Buffer.from(e.audio ?? '', 'base64'));
}

describe('realtime audio input', () => {
  it('a 1.25 s clip: text item, ceil(1.25 / 0.1) appends of pcm16 at 24 kHz, commit, then response.create', () => {
    const clip = synthWav(new Rng(3), 1.25, 24_000, 16, 1);
    const evs = events({ prompt: 'describe this', isl: 2, max_tokens: 4, media: { audio: [clip] } });
    const appends = Math.ceil(1.25 / (APPEND_MS / 1000));
    expect(evs.map((e) => e.type)).toEqual([
      'conversation.item.create',
      ...Array<string>(appends).fill('input_audio_buffer.append'),
      'input_audio_buffer.commit',
      'response.create',
    ]);
    const chunks = decodedAppends(evs);
    // Every append but the last is exactly 100 ms; together they are the clip, sample for sample.
    for (const c of chunks.slice(0, -1)) expect(c.length).toBe(REALTIME_SAMPLE_RATE * 0.1 * 2);
    const pcm = Buffer.concat(chunks);
    expect(pcm.length).toBe(Math.round(clip.duration_s * REALTIME_SAMPLE_RATE) * 2);
    expect(pcm.length).toBe(1.25 * 24_000 * 2);
    // Little-endian int16 of the WAV's own samples (its data chunk follows a 44-byte header).
    expect(pcm.readInt16LE(200)).toBe(clip.data.readInt16LE(44 + 200));
    expect(pcm.equals(clip.data.subarray(44, 44 + pcm.length))).toBe(true);
  });

  it('each clip is committed on its own; an empty prompt sends no text item', () => {
    const a = synthWav(new Rng(4), 0.3, 24_000, 16, 1);
    const b = synthWav(new Rng(5), 0.05, 24_000, 16, 1);
    const evs = events({ prompt: '', isl: 0, max_tokens: null, media: { audio: [a, b] } });
    expect(evs.map((e) => e.type)).toEqual([
      ...Array<string>(3).fill('input_audio_buffer.append'),
      'input_audio_buffer.commit',
      'input_audio_buffer.append',
      'input_audio_buffer.commit',
      'response.create',
    ]);
  });

  it('a 16 kHz stereo 8-bit clip is resampled to 24 kHz mono pcm16 of the same duration', () => {
    const clip: AudioClip = synthWav(new Rng(6), 0.5, 16_000, 8, 2);
    const pcm = pcm16Mono24k(clip);
    expect(Math.abs(pcm.length / 2 - 0.5 * REALTIME_SAMPLE_RATE)).toBeLessThanOrEqual(2);
    // A tone at 0.4 of full scale: the converted samples reach well beyond the 8-bit range and stay in int16's.
    let peak = 0;
    for (let i = 0; i < pcm.length; i += 2) peak = Math.max(peak, Math.abs(pcm.readInt16LE(i)));
    expect(peak).toBeGreaterThan(8_000);
    expect(peak).toBeLessThan(32_768);
  });

  it('a-law, IMA ADPCM and 32-bit float WAVs convert to pcm16 (ADPCM with its padded last block)', () => {
    for (const kind of ['alaw', 'adpcm', '32f'] as const) {
      const w = new wavefile.WaveFile();
      const tone = Array.from({ length: 8000 }, (_, i) => (kind === '32f' ? 0.3 : 9000) * Math.sin(i / 5));
      w.fromScratch(1, 8000, kind === '32f' ? '32f' : '16', tone);
      if (kind === 'alaw') w.toALaw();
      if (kind === 'adpcm') w.toIMAADPCM();
      const pcm = pcm16Mono24k({ format: 'wav', data: Buffer.from(w.toBuffer()), duration_s: 1 });
      const frames = pcm.length / 2;
      // ADPCM decodes whole blocks, the last one padded: never shorter than the tone.
      if (kind === 'adpcm') expect(frames).toBeGreaterThanOrEqual(REALTIME_SAMPLE_RATE * 0.99);
      else expect(Math.abs(frames - REALTIME_SAMPLE_RATE), kind).toBeLessThanOrEqual(REALTIME_SAMPLE_RATE * 0.01);
      let peak = 0;
      for (let i = 0; i < pcm.length; i += 2) peak = Math.max(peak, Math.abs(pcm.readInt16LE(i)));
      expect(peak, kind).toBeGreaterThan(7_000);
    }
  });

  it('realtime runs carry audio when asked, synthesized at 24 kHz by default', () => {
    const m = parseMediaFlags({ 'endpoint-type': 'realtime', 'audio-length-mean': 1 });
    expect(wantsAudio(m, 'realtime')).toBe(true);
    expect(m.audio.sample_rates).toEqual([24_000]);
    expect(wantsAudio(parseMediaFlags({ 'endpoint-type': 'realtime' }), 'realtime')).toBe(false);
    expect(parseMediaFlags({ 'endpoint-type': 'chat', 'audio-length-mean': 1 }).audio.sample_rates).toEqual([16_000]);
  });
});

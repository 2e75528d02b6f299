// Image and audio inputs end to end, on both transports: `servebench profile` as a real process
// against a mock process. Chat with synthetic images has the image metrics and no audio ones; chat
// with audio and transcriptions have audio_duration and RTFx = duration / latency on every record;
// transcriptions have no TTFT. A missing audio file or dataset image is one line, exit 2.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

const TRANSPORTS = ['undici', 'native'] as const;
let mock: SpawnedMock;

beforeAll(async () => {
  mock = await spawnMock(['--ttft-ms', '10', '--itl-ms', '20']);
});
afterAll(async () => {
  await mock?.stop();
});

async function profile(args: string[], transport: string): Promise<{ dir: string; summary: any; records: any[] }> {
  const dir = tmpDir();
  const out = await runCli([
    'profile',
    '--url',
    mock.url,
    '--model',
    'mock-model',
    '--ui',
    'none',
    '--transport',
    transport,
    '--request-count',
    '4',
    '--concurrency',
    '2',
    '--osl',
    '4',
    '--export-level',
    'records',
    '--artifact-dir',
    dir,
    ...args,
  ]);
  expect(out.code, out.stderr).toBe(0);
  const summary = readJson(path.join(dir, 'profile_export.json'));
  expect(summary.transport.name ?? summary.transport).toContain(transport);
  return { dir, summary, records: readJsonl(path.join(dir, 'records.jsonl')).filter((r) => r.phase === 'profiling') };
}

describe.each(TRANSPORTS)('media inputs over %s', (transport) => {
  it('chat with 2 synthetic images and a 0.5 s input_audio part per request: image and audio metrics beside TTFT', async () => {
    const { summary, records } = await profile(
      [
        '--image-width-mean',
        '32',
        '--image-height-mean',
        '24',
        '--batch-size-image',
        '2',
        '--image-format',
        'jpeg',
        '--audio-length-mean',
        '0.5',
      ],
      transport,
    );
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(r.metrics.num_images.value).toBe(2);
      const lat = r.metrics.request_latency.value; // ms
      expect(r.metrics.image_latency.value).toBeCloseTo(lat / 2, 4);
      expect(r.metrics.image_throughput.value).toBeCloseTo(2 / (lat / 1000), 3);
      expect(r.metrics.audio_duration.value).toBe(0.5);
      expect(r.metrics.rtfx.value).toBeCloseTo(0.5 / (lat / 1000), 3);
      expect(r.metrics.time_to_first_token.value).toBeGreaterThan(0);
      // Two base64 JPEGs and 16000 bytes of WAV travelled in the body.
      expect(r.bytes_sent).toBeGreaterThan(16000 * 1.33);
    }
    expect(summary.metrics.image_throughput.avg).toBeGreaterThan(0);
    expect(summary.metrics.video_inference_time).toBeUndefined();
  });

  it('transcriptions of 1.5 s WAV uploads: audio_duration, RTFx = duration / latency, no TTFT', async () => {
    const { summary, records } = await profile(['--endpoint-type', 'transcriptions', '--audio-length-mean', '1.5'], transport);
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(r.status, JSON.stringify(r.error)).toBe('ok');
      expect(r.metrics.audio_duration).toEqual({ value: 1.5, unit: 's' });
      const lat = r.metrics.request_latency.value;
      // The mock answers after TTFT + ITL per second of audio: 10 + 30 ms.
      expect(lat).toBeGreaterThanOrEqual(39);
      expect(r.metrics.rtfx.value).toBeCloseTo(1.5 / (lat / 1000), 3);
      expect(r.metrics.time_to_first_token).toBeUndefined();
      // The WAV (1.5 s of 16-bit 16 kHz mono: 48000 bytes) went as a multipart upload.
      expect(r.bytes_sent).toBeGreaterThan(48000);
      expect(r.metrics.output_sequence_length.value).toBeGreaterThan(0);
      // The upload is audio, not prompt text: no ISL.
      expect(r.metrics.input_sequence_length).toBeUndefined();
      // No max_tokens is asked of a transcription: no OSL mismatch.
      expect(r.metrics.osl_mismatch_diff_pct).toBeUndefined();
    }
    expect(summary.metrics.rtfx.avg).toBeGreaterThan(0);
    expect(summary.metrics.time_to_first_token).toBeUndefined();
    expect(summary.metrics.num_images).toBeUndefined();
  });
});

describe('bad media input', () => {
  it('a missing --audio-file: one line naming the flag, exit 2, nothing sent', async () => {
    const out = await runCli([
      'profile',
      '--url',
      mock.url,
      '--endpoint-type',
      'transcriptions',
      '--audio-file',
      '/nonexistent/x.wav',
      '--ui',
      'none',
    ]);
    expect(out.code).toBe(2);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/--audio-file: no such file: \/nonexistent\/x\.wav/);
  });

  it('a dataset line naming a missing image file: one line naming the file and line, exit 2', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'd.jsonl');
    fs.writeFileSync(file, '{"text":"a","image":"https://example.com/a.png"}\n{"text":"b","images":["missing.png"]}\n');
    const out = await runCli(['profile', '--url', mock.url, '--input-file', file, '--ui', 'none', '--artifact-dir', path.join(dir, 'out')]);
    expect(out.code).toBe(2);
    // (The line before it, if any, is the tokenizer notice.)
    expect(out.stderr.trim().split('\n').at(-1)).toBe(`servebench: ${file}:2: image file not found: missing.png`);
    expect(out.stderr).not.toMatch(/\n\s+at /);
  });

  it('dataset images (a URL and a local file) are sent as given and counted', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'd.jsonl');
    fs.writeFileSync(path.join(dir, 'p.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    fs.writeFileSync(file, '{"text":"a","images":["https://example.com/a.png","p.png"]}\n');
    const { records } = await profile(['--input-file', file], 'undici');
    for (const r of records) expect(r.metrics.num_images.value).toBe(2);
  });
});

// Image and video generation end to end, on both transports, against mock processes: image
// generation has num_images = n and the image metrics, no TTFT and no audio metrics; video
// generation has the server's inference_time_s and peak_memory_mb as its metrics, and a malformed
// body (the mock's --fail-mode malformed) is a parse_error record while the run goes on.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_VIDEO_BASE_MB } from '../../src/mock/media.js';
import { spawnMock, type SpawnedMock } from '../../src/mock/spawn.js';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

const TTFT_MS = 15;
let clean: SpawnedMock;
let faulty: SpawnedMock;

beforeAll(async () => {
  [clean, faulty] = await Promise.all([
    spawnMock(['--ttft-ms', String(TTFT_MS)]),
    spawnMock(['--ttft-ms', String(TTFT_MS), '--fail-every', '3', '--fail-mode', 'malformed']),
  ]);
});
afterAll(async () => {
  await Promise.all([clean?.stop(), faulty?.stop()]);
});

async function profile(url: string, args: string[], transport: string, count: number) {
  const dir = tmpDir();
  const out = await runCli([
    'profile',
    '--url',
    url,
    '--model',
    'mock-model',
    '--ui',
    'none',
    '--transport',
    transport,
    '--request-count',
    String(count),
    '--concurrency',
    '1',
    '--export-level',
    'records',
    '--artifact-dir',
    dir,
    ...args,
  ]);
  expect(out.code, out.stderr).toBe(0);
  return { summary: readJson(path.join(dir, 'profile_export.json')), records: readJsonl(path.join(dir, 'records.jsonl')) };
}

describe.each(['undici', 'native'] as const)('generation endpoints over %s', (transport) => {
  it('image_generation with --batch-size-image 3: num_images 3, image throughput and latency, no TTFT', async () => {
    const { summary, records } = await profile(clean.url, ['--endpoint-type', 'image_generation', '--batch-size-image', '3'], transport, 3);
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(r.streaming).toBe(false);
      expect(r.metrics.num_images.value).toBe(3);
      const lat = r.metrics.request_latency.value;
      expect(lat).toBeGreaterThanOrEqual(TTFT_MS - 1);
      expect(r.metrics.image_latency.value).toBeCloseTo(lat / 3, 4);
      expect(r.metrics.image_throughput.value).toBeCloseTo(3 / (lat / 1000), 3);
      // Images are not text: no OSL; the prompt is.
      expect(r.metrics.output_sequence_length).toBeUndefined();
      expect(r.metrics.input_sequence_length.value).toBeGreaterThan(0);
    }
    expect(summary.metrics.time_to_first_token).toBeUndefined();
    expect(summary.metrics.rtfx).toBeUndefined();
    expect(summary.metrics.image_throughput.avg).toBeGreaterThan(0);
  });

  it("video_generation: the server's inference time and peak memory; malformed bodies are parse_error records", async () => {
    const { summary, records } = await profile(
      faulty.url,
      ['--endpoint-type', 'video_generation', '--image-width-mean', '1280', '--image-height-mean', '720'],
      transport,
      6,
    );
    expect(records).toHaveLength(6);
    const ok = records.filter((r) => r.status === 'ok');
    const bad = records.filter((r) => r.status === 'error');
    expect(bad.length).toBe(2);
    for (const r of bad) {
      expect(r.error.type).toBe('parse_error');
      expect(r.metrics.video_inference_time).toBeUndefined();
    }
    expect(ok.length).toBe(4);
    for (const r of ok) {
      expect(r.metrics.video_inference_time).toEqual({ value: TTFT_MS, unit: 'ms' });
      expect(r.metrics.video_peak_memory.value).toBeCloseTo(MOCK_VIDEO_BASE_MB + (1280 * 720) / 1e6, 6);
      expect(r.metrics.num_images).toBeUndefined();
    }
    expect(summary.counts).toMatchObject({ succeeded: 4, errored: 2 });
    expect(summary.metrics.video_peak_memory.unit).toBe('MB');
    expect(summary.metrics.time_to_first_token).toBeUndefined();
  });
});

// `servebench profile --histogram-significant-digits` end to end: the built-in mock, the summary's
// precision, and histograms.json decodable by hdr-histogram-js with the summary's counts.
import fs from 'node:fs';
import path from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJson, runCli, tmpDir } from '../helpers/cli.js';

describe('profile writes histograms.json', () => {
  let dir: string;
  let result: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    dir = tmpDir();
    result = await runCli([
      'profile',
      '--mock-ttft-ms',
      '20',
      '--mock-itl-ms',
      '2',
      '--osl',
      '8',
      '--isl',
      '32',
      '--concurrency',
      '4',
      '--request-count',
      '16',
      '--histogram-significant-digits',
      '4',
      '--artifact-dir',
      dir,
      '--ui',
      'none',
    ]);
  });

  it('records the precision in profile_export.json and histograms.json', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(readJson(path.join(dir, 'profile_export.json')).histogram_significant_digits).toBe(4);
    expect(readJson(path.join(dir, 'histograms.json')).significant_digits).toBe(4);
  });

  it('holds one standard encoded histogram per distribution, with the export’s counts and percentiles', () => {
    const exp = readJson(path.join(dir, 'profile_export.json'));
    const doc = readJson(path.join(dir, 'histograms.json'));
    expect(Object.keys(doc.metrics)).toEqual(expect.arrayContaining(['time_to_first_token', 'request_latency', 'inter_token_latency']));
    for (const [tag, e] of Object.entries<{ unit: string; scale: number; encoded: string }>(doc.metrics)) {
      const js = hdr.decodeFromCompressedBase64(e.encoded);
      expect(js.numberOfSignificantValueDigits).toBe(4);
      expect(js.totalCount, tag).toBe(exp.metrics[tag].count);
    }
    // TTFT in base units (ns, scale 1); the export is in ms. The export's p50 is the bucket's
    // highest value clamped to the exact range, so decoded and exported agree within 10^-4.
    const ttft = hdr.decodeFromCompressedBase64(doc.metrics.time_to_first_token.encoded);
    expect(doc.metrics.time_to_first_token).toMatchObject({ unit: 'ns', scale: 1 });
    const p50ms = ttft.getValueAtPercentile(50) / 1e6;
    expect(Math.abs(p50ms - exp.metrics.time_to_first_token.p50) / exp.metrics.time_to_first_token.p50).toBeLessThan(1e-4);
  });

  it('a bad precision is bad input: one line, exit code 2, nothing run', async () => {
    const bad = tmpDir();
    const r = await runCli(['profile', '--histogram-significant-digits', '6', '--artifact-dir', bad, '--ui', 'none']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--histogram-significant-digits');
    expect(fs.existsSync(path.join(bad, 'histograms.json'))).toBe(false);
  });
});

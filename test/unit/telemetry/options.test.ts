import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors.js';
import { DEFAULT_DCGM_INTERVAL_MS, DEFAULT_DCGM_URL, parseGpuTelemetry, parseSampleInterval } from '../../../src/telemetry/options.js';

describe('parseGpuTelemetry', () => {
  it('is off without the flag', () => {
    expect(parseGpuTelemetry(undefined, undefined)).toBeNull();
    expect(parseGpuTelemetry([], 20)).toBeNull();
  });

  it('reads nvml, amdsmi, auto (also the bare flag) and dcgm URLs', () => {
    expect(parseGpuTelemetry(['nvml'], undefined)).toMatchObject({
      nvml: true,
      amdsmi: false,
      auto: false,
      dcgm_urls: [],
      sample_interval_ms: 50,
    });
    expect(parseGpuTelemetry([''], undefined)).toMatchObject({ auto: true });
    expect(parseGpuTelemetry(['amdsmi', 'auto'], 5)).toMatchObject({ amdsmi: true, auto: true, sample_interval_ms: 5 });
    expect(parseGpuTelemetry(['dcgm'], undefined)).toMatchObject({
      dcgm_urls: [DEFAULT_DCGM_URL],
      dcgm_interval_ms: DEFAULT_DCGM_INTERVAL_MS,
    });
    const c = parseGpuTelemetry(['dcgm=http://a:9400/metrics,http://b:9400/metrics', 'dcgm=http://a:9400/metrics'], 100)!;
    expect(c.dcgm_urls).toEqual(['http://a:9400/metrics', 'http://b:9400/metrics']);
    expect(c.dcgm_interval_ms).toBe(100);
  });

  it.each([['bogus'], ['dcgm='], ['dcgm=ftp://x/metrics'], ['dcgm=not a url']])('rejects %j with exit code 2', (v) => {
    expect(() => parseGpuTelemetry([v], undefined)).toThrow(InvalidArgumentError);
    try {
      parseGpuTelemetry([v], undefined);
    } catch (err) {
      expect((err as InvalidArgumentError).exitCode).toBe(2);
      expect((err as Error).message).toMatch(/^--gpu-telemetry: /);
    }
  });
});

describe('parseSampleInterval', () => {
  it('defaults to 50 ms and accepts integers >= 1', () => {
    expect(parseSampleInterval(undefined)).toBe(50);
    expect(parseSampleInterval(1)).toBe(1);
  });

  it.each([0, -5, 1.5, NaN, '10'])('rejects %j', (v) => {
    expect(() => parseSampleInterval(v)).toThrow(/^--gpu-sample-interval-ms: /);
  });

  it('is validated even without --gpu-telemetry', () => {
    expect(() => parseGpuTelemetry(undefined, 0)).toThrow(InvalidArgumentError);
  });
});

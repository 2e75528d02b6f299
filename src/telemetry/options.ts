// `--gpu-telemetry` and `--gpu-sample-interval-ms`: validated into a GpuTelemetryConfig.
import { badFlag as bad } from '../errors.js';
import type { GpuTelemetryConfig } from './types.js';

export const DEFAULT_SAMPLE_INTERVAL_MS = 50;
/** The native poller's bound (an hour); a longer interval would give no sample inside a run. */
export const MAX_SAMPLE_INTERVAL_MS = 3_600_000;
export const DEFAULT_DCGM_URL = 'http://localhost:9400/metrics';
/** DCGM exporter refreshes its values on its own collect interval; scraping far faster only re-reads them. */
export const DEFAULT_DCGM_INTERVAL_MS = 333;

/** The sampling interval: an integer >= 1 (ms); absent means the default. */
export function parseSampleInterval(v: unknown): number {
  if (v === undefined) return DEFAULT_SAMPLE_INTERVAL_MS;
  if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isInteger(v))
    bad('gpu-sample-interval-ms', `expected an integer, got ${String(v)}`);
  if (v < 1) bad('gpu-sample-interval-ms', `must be at least 1, got ${v}`);
  if (v > MAX_SAMPLE_INTERVAL_MS) bad('gpu-sample-interval-ms', `must be at most ${MAX_SAMPLE_INTERVAL_MS} (an hour), got ${v}`);
  return v;
}

function parseDcgmUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    bad('gpu-telemetry', `dcgm: not a URL: ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') bad('gpu-telemetry', `dcgm: only http:// and https:// URLs, got ${u.protocol}`);
  return u.toString();
}

/**
 * `--gpu-telemetry` values (the flag may repeat): nvml | amdsmi | auto | dcgm | dcgm=URL[,URL...].
 * An empty value (the bare flag) means auto. Returns null when the flag was not given.
 */
export function parseGpuTelemetry(values: readonly unknown[] | undefined, intervalFlag: unknown): GpuTelemetryConfig | null {
  const sample_interval_ms = parseSampleInterval(intervalFlag);
  if (values === undefined || values.length === 0) return null;
  const cfg: GpuTelemetryConfig = {
    nvml: false,
    amdsmi: false,
    auto: false,
    dcgm_urls: [],
    sample_interval_ms,
    dcgm_interval_ms: intervalFlag === undefined ? DEFAULT_DCGM_INTERVAL_MS : Math.max(sample_interval_ms, 10),
  };
  for (const raw of values) {
    const v = String(raw ?? '').trim();
    if (v === '' || v === 'auto') cfg.auto = true;
    else if (v === 'nvml') cfg.nvml = true;
    else if (v === 'amdsmi') cfg.amdsmi = true;
    else if (v === 'dcgm') cfg.dcgm_urls.push(DEFAULT_DCGM_URL);
    else if (v.startsWith('dcgm=')) {
      const urls = v
        .slice(5)
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (urls.length === 0) bad('gpu-telemetry', 'dcgm= needs at least one URL');
      for (const u of urls) cfg.dcgm_urls.push(parseDcgmUrl(u));
    } else bad('gpu-telemetry', `expected nvml, amdsmi, auto, dcgm or dcgm=URL[,URL...], got ${JSON.stringify(v)}`);
  }
  cfg.dcgm_urls = [...new Set(cfg.dcgm_urls)];
  return cfg;
}

// --server-metrics URL[,URL…], --no-server-metrics, --server-metrics-interval-ms.
import { badFlag as bad } from '../errors.js';

export const DEFAULT_SERVER_METRICS_INTERVAL_MS = 333;

export interface ServerMetricsConfig {
  /** false: --no-server-metrics. */
  readonly enabled: boolean;
  /** Endpoints named by --server-metrics, scraped besides the discovered ones. */
  readonly urls: readonly string[];
  readonly interval_ms: number;
}

/** `value`: the flag as yargs gives it (string(s); false for --no-server-metrics); `interval`: --server-metrics-interval-ms. */
export function parseServerMetricsFlags(value: unknown, interval: unknown): ServerMetricsConfig {
  let interval_ms = DEFAULT_SERVER_METRICS_INTERVAL_MS;
  if (interval !== undefined) {
    if (typeof interval !== 'number' || !Number.isFinite(interval) || interval < 10 || interval > 3_600_000) {
      bad('server-metrics-interval-ms', `expected a number of ms from 10 to 3600000, got ${String(interval)}`);
    }
    interval_ms = interval;
  }
  if (value === false) return { enabled: false, urls: [], interval_ms };
  const list = value === undefined || value === true ? [] : Array.isArray(value) ? value : [value];
  const urls: string[] = [];
  for (const item of list) {
    if (item === false) return { enabled: false, urls: [], interval_ms };
    for (const raw of String(item).split(',')) {
      const s = raw.trim();
      if (s === '') continue;
      let u: URL;
      try {
        u = new URL(s);
      } catch {
        bad('server-metrics', `not a URL: ${JSON.stringify(s.replace(/\/\/[^@/]*@/, '//'))}`);
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') bad('server-metrics', `only http:// and https:// URLs, got ${u.protocol}`);
      urls.push(u.toString());
    }
  }
  return { enabled: true, urls: [...new Set(urls)], interval_ms };
}

/** The endpoints tried without being asked: `<origin>/metrics` and TensorRT-LLM's `<origin>/prometheus/metrics`. */
export function discoveryUrls(baseUrl: string): string[] {
  const origin = new URL(baseUrl).origin;
  return [`${origin}/metrics`, `${origin}/prometheus/metrics`];
}

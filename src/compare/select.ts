// Which metrics `compare` shows (--metrics), each a metric tag and a statistic of its export entry,
// and which way is better: larger-is-better from the metric registry's flags.
import { InvalidArgumentError } from '../errors.js';
import type { MetricRegistry } from '../metrics/core/registry.js';
import { MetricFlag, type MetricDef } from '../metrics/core/types.js';

export type Stat = 'value' | 'avg' | 'min' | 'max' | 'std' | `p${string}`;

export interface MetricChoice {
  /** As the user wrote it, or tag_stat for the defaults. */
  name: string;
  tag: string;
  stat: Stat;
  def: MetricDef;
  largerIsBetter: boolean;
}

/** Short names people type for the common metrics. */
const ALIASES: Readonly<Record<string, string>> = {
  ttft: 'time_to_first_token',
  ttst: 'time_to_second_token',
  itl: 'inter_token_latency',
  tpot: 'time_per_output_token',
  latency: 'request_latency',
  e2e: 'request_latency',
  output_tps_per_user: 'output_token_throughput_per_user',
  throughput: 'output_token_throughput',
  error_rate: 'request_error_rate',
};

/** The default table: the latencies a performance team reads, then throughput and errors. */
export const DEFAULT_METRICS = [
  'ttft_avg',
  'ttft_p50',
  'ttft_p99',
  'itl_avg',
  'itl_p50',
  'itl_p99',
  'latency_avg',
  'latency_p50',
  'latency_p99',
  'output_token_throughput_per_user_p50',
  'output_token_throughput',
  'total_token_throughput',
  'request_throughput',
  'request_error_rate',
] as const;

const STAT = /^(.+)_(avg|min|max|std|p\d+(?:\.\d+)?)$/;

function resolveTag(name: string, registry: MetricRegistry): string | null {
  const tag = ALIASES[name] ?? name;
  return registry.has(tag) ? tag : null;
}

/** A name such as ttft_p99, inter_token_latency_avg or output_token_throughput; throws InvalidArgumentError. */
export function parseMetricName(raw: string, registry: MetricRegistry): MetricChoice {
  const name = raw.trim();
  let tag = resolveTag(name, registry);
  let stat: Stat | null = null;
  if (tag === null) {
    const m = STAT.exec(name);
    if (m) {
      tag = resolveTag(m[1], registry);
      stat = m[2] as Stat;
    }
  }
  if (tag === null) throw new InvalidArgumentError(`--metrics: unknown metric '${name}' (e.g. ttft_p99, itl_avg, output_token_throughput)`);
  const def = registry.getMetric(tag)!;
  const distribution = def.kind === 'record' || def.kind === 'time_weighted';
  if (stat === null) stat = distribution ? 'avg' : 'value';
  else if (!distribution)
    throw new InvalidArgumentError(`--metrics: '${name}': ${tag} is a single run-level value; use it without _${stat}`);
  return { name, tag, stat, def, largerIsBetter: (def.flags & MetricFlag.LARGER_IS_BETTER) !== 0 };
}

/** --metrics a,b,c (or the defaults when absent). Duplicates are dropped. */
export function chooseMetrics(list: string | undefined, registry: MetricRegistry): MetricChoice[] {
  const names = list === undefined ? [...DEFAULT_METRICS] : list.split(',').filter((s) => s.trim() !== '');
  if (names.length === 0) throw new InvalidArgumentError('--metrics: expected a comma-separated list of metrics, got none');
  const seen = new Set<string>();
  const out: MetricChoice[] = [];
  for (const n of names) {
    const c = parseMetricName(n, registry);
    const key = `${c.tag}:${c.stat}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

// Goodput metrics (AIPerf reference, "Goodput Metrics"): requests that met every SLO given with
// --goodput "time_to_first_token:200 inter_token_latency:20" (thresholds in each metric's display
// unit). A request meets an SLO when its value is ≤ the threshold, or ≥ for LARGER_IS_BETTER metrics;
// a request without a value for an SLO's metric, or that failed, is not good.
import { InvalidArgumentError } from '../../errors.js';
import { displayFactor } from '../core/units.js';
import type { MetricValue, ProcessedRecord } from '../../model/processed-record.js';
import type { MetricRegistry } from '../core/registry.js';
import { MetricFlag, type FoldSpec, type RunMetricDef } from '../core/types.js';
import { CountFold, NO_FOLD, foldOf, perSecond, runNumber, type NoFold } from '../core/helpers.js';
import type { ResolvedSlo } from '../core/options.js';

/** One objective as the user wrote it: tag and threshold in the metric's display unit. */
export interface SloSpec {
  tag: string;
  value: number;
}

/** Record metrics an SLO may name: every per-request metric computed on successful requests. */
export function goodputTags(registry: MetricRegistry): string[] {
  return registry
    .recordMetrics()
    .filter((d) => (d.flags & MetricFlag.ERROR_ONLY) === 0)
    .map((d) => d.tag);
}

/**
 * Parse `--goodput` ("tag:value" pairs separated by spaces or commas; several flag values are joined).
 * Throws InvalidArgumentError (one line, exit 2) naming the bad pair, with the valid tags.
 */
export function parseGoodputSpec(spec: string | readonly string[], registry: MetricRegistry): SloSpec[] {
  const text = typeof spec === 'string' ? spec : spec.join(' ');
  const pairs = text.split(/[\s,]+/).filter((p) => p !== '');
  const valid = goodputTags(registry);
  const fail = (msg: string): never => {
    throw new InvalidArgumentError(`--goodput: ${msg}; valid tags: ${valid.join(', ')}`);
  };
  if (pairs.length === 0) fail('expected at least one TAG:VALUE pair');
  const out: SloSpec[] = [];
  for (const pair of pairs) {
    const parts = pair.split(':');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') fail(`malformed pair '${pair}', expected TAG:VALUE`);
    const [tag, raw] = parts;
    if (!valid.includes(tag)) fail(`unknown metric tag '${tag}' in '${pair}'`);
    const value = Number(raw);
    if (!/^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) || !Number.isFinite(value)) {
      fail(`bad number '${raw}' in '${pair}', expected a non-negative number in the metric's display unit`);
    }
    if (out.some((s) => s.tag === tag)) fail(`'${tag}' is given twice`);
    out.push({ tag, value });
  }
  return out;
}

/** SLOs with thresholds in base units and their direction, ready for isGoodRequest. */
export function resolveSlos(slos: readonly SloSpec[], registry: MetricRegistry): ResolvedSlo[] {
  return slos.map((s) => {
    const def = registry.getMetric(s.tag);
    if (!def || def.kind !== 'record') throw new Error(`goodput: '${s.tag}' is not a record metric`);
    return {
      tag: s.tag,
      threshold: s.value / displayFactor(def.unit, def.display),
      largerIsBetter: (def.flags & MetricFlag.LARGER_IS_BETTER) !== 0,
    };
  });
}

function meets(v: MetricValue, slo: ResolvedSlo): boolean {
  // A list metric (inter_chunk_latency) meets the SLO only if every element does.
  const values = typeof v === 'number' ? [v] : v;
  return values.every((x) => (slo.largerIsBetter ? x >= slo.threshold : x <= slo.threshold));
}

/**
 * Whether a finished request met every SLO: it succeeded and each SLO's metric has a value that
 * meets the threshold. With no SLOs nothing is "good" (there is nothing to meet).
 */
export function isGoodRequest(record: Pick<ProcessedRecord, 'status' | 'metrics'>, slos: readonly ResolvedSlo[]): boolean {
  if (record.status !== 'ok' || slos.length === 0) return false;
  for (const slo of slos) {
    const v = record.metrics.get(slo.tag);
    if (v === undefined || !meets(v, slo)) return false;
  }
  return true;
}

/**
 * A ready-made predicate over finished records for code that judges requests as they complete
 * (e.g. a sweep stopping once a point misses its SLO): `--goodput` as parsed into the run config.
 */
export function goodRequestPredicate(
  slos: readonly SloSpec[],
  registry: MetricRegistry,
): (record: Pick<ProcessedRecord, 'status' | 'metrics'>) => boolean {
  const resolved = resolveSlos(slos, registry);
  return (record) => isGoodRequest(record, resolved);
}

const GOODPUT = MetricFlag.GOODPUT;

/** Records that met every SLO (hits); null without SLOs, so the metric has no value. */
const GOOD: FoldSpec<CountFold | NoFold> = {
  key: 'good_requests',
  create: (options) => {
    const slos = options.goodput ?? [];
    return slos.length === 0 ? NO_FOLD : new CountFold((r) => isGoodRequest(r, slos));
  },
};

export const goodRequestCount: RunMetricDef = {
  kind: 'aggregate',
  tag: 'good_request_count',
  header: 'Good Request Count',
  unit: 'requests',
  display: 'requests',
  flags: GOODPUT | MetricFlag.NO_CONSOLE,
  group: 'none',
  requires: [],
  fold: GOOD,
  compute: (run) => {
    const f = foldOf(run, GOOD);
    return f instanceof CountFold ? f.hits : undefined;
  },
};

export const goodRequestFraction: RunMetricDef = {
  kind: 'derived',
  tag: 'good_request_fraction',
  header: 'Good Request Fraction',
  unit: 'ratio',
  display: 'ratio',
  flags: GOODPUT | MetricFlag.LARGER_IS_BETTER | MetricFlag.NO_CONSOLE,
  group: 'none',
  requires: ['good_request_count', 'request_count', 'error_request_count'],
  // Errors are in the denominator: dropping traffic under load must not look "good".
  compute: (_run, v) => {
    const attempted = runNumber(v, 'request_count') + runNumber(v, 'error_request_count');
    return attempted > 0 ? runNumber(v, 'good_request_count') / attempted : 0;
  },
};

export const goodput: RunMetricDef = {
  kind: 'derived',
  tag: 'goodput',
  header: 'Goodput',
  unit: 'requests/s',
  display: 'requests/s',
  flags: GOODPUT | MetricFlag.LARGER_IS_BETTER,
  group: 'default',
  requires: ['good_request_count', 'benchmark_duration'],
  compute: (_run, v) => perSecond(runNumber(v, 'good_request_count'), runNumber(v, 'benchmark_duration')),
};

export const goodputRunMetrics: readonly RunMetricDef[] = [goodRequestCount, goodRequestFraction, goodput];

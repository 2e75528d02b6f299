// Speculative decoding metrics (AIPerf reference, "Speculative Decoding Metrics"). They read only the
// engine-neutral per-request record (model/spec-decode.ts SpecDecodeRecord, filled from whichever shape
// the server sends, see endpoints/spec-decode.ts); a request without verify steps has none and every
// metric here has no value. j = accepted drafts in a step, l = proposed drafts; the bonus token is the +1.
import type { ProcessedRecord } from '../../model/processed-record.js';
import { MetricFlag, type RecordMetricDef, type RunMetricDef } from '../core/types.js';
import { runNumber, totalOf } from '../core/helpers.js';

const BETTER = MetricFlag.LARGER_IS_BETTER;

export const acceptanceLength: RecordMetricDef = {
  kind: 'record',
  tag: 'spec_decode_acceptance_length',
  header: 'Acceptance Length',
  unit: 'ratio',
  display: 'ratio',
  flags: BETTER,
  group: 'spec_decode',
  requires: [],
  // Tokens emitted per verify step, bonus included: 1 + j̄.
  compute: (r) => (r.spec_decode ? 1 + r.spec_decode.accepted_draft_tokens / r.spec_decode.steps : undefined),
};

export const draftAcceptanceRate: RecordMetricDef = {
  kind: 'record',
  tag: 'spec_decode_draft_acceptance_rate',
  header: 'Draft Acceptance Rate',
  unit: 'percent',
  display: '%',
  flags: BETTER,
  group: 'spec_decode',
  requires: [],
  // Drafts only (no bonus token); no value when nothing was drafted.
  compute: (r) => {
    const s = r.spec_decode;
    return s && s.draft_tokens > 0 ? (100 * s.accepted_draft_tokens) / s.draft_tokens : undefined;
  },
};

export const acceptedPerVerified: RecordMetricDef = {
  kind: 'record',
  tag: 'spec_decode_accepted_per_verified',
  header: 'Accepted per Verified',
  unit: 'ratio',
  display: 'ratio',
  flags: BETTER,
  group: 'spec_decode',
  requires: [],
  // (j + 1) / (l + 1) summed over steps: emitted over verified tokens.
  compute: (r) => {
    const s = r.spec_decode;
    return s ? (s.accepted_draft_tokens + s.steps) / (s.draft_tokens + s.steps) : undefined;
  },
};

export const specDecodeSteps: RecordMetricDef = {
  kind: 'record',
  tag: 'spec_decode_steps',
  header: 'Spec Decode Steps',
  unit: 'count',
  display: 'count',
  flags: MetricFlag.NONE,
  group: 'spec_decode',
  requires: [],
  compute: (r) => r.spec_decode?.steps,
};

export const acceptedDraftTokens: RecordMetricDef = {
  kind: 'record',
  tag: 'spec_decode_accepted_draft_tokens',
  header: 'Accepted Draft Tokens',
  unit: 'tokens',
  display: 'tokens',
  flags: BETTER,
  group: 'none',
  requires: [],
  compute: (r) => r.spec_decode?.accepted_draft_tokens,
};

export const draftTokens: RecordMetricDef = {
  kind: 'record',
  tag: 'spec_decode_draft_tokens',
  header: 'Draft Tokens',
  unit: 'tokens',
  display: 'tokens',
  flags: MetricFlag.NONE,
  group: 'none',
  requires: [],
  compute: (r) => r.spec_decode?.draft_tokens,
};

export const totalSpecDecodeSteps = totalOf(specDecodeSteps, 'total_spec_decode_steps', 'Total Spec Decode Steps');
export const totalAcceptedDraftTokens = totalOf(acceptedDraftTokens, 'total_accepted_draft_tokens', 'Total Accepted Draft Tokens');
export const totalDraftTokens = totalOf(draftTokens, 'total_draft_tokens', 'Total Draft Tokens');

export const tokenWeightedAcceptanceLength: RunMetricDef = {
  kind: 'derived',
  tag: 'spec_decode_token_weighted_acceptance_length',
  header: 'Token-Weighted Acceptance Length',
  unit: 'ratio',
  display: 'ratio',
  flags: BETTER,
  group: 'spec_decode',
  requires: ['total_accepted_draft_tokens', 'total_spec_decode_steps'],
  // Every verify step weighs the same, whichever request it belongs to.
  compute: (_run, v) => {
    const steps = runNumber(v, 'total_spec_decode_steps');
    return steps > 0 ? 1 + runNumber(v, 'total_accepted_draft_tokens') / steps : undefined;
  },
};

export const overallDraftAcceptanceRate: RunMetricDef = {
  kind: 'derived',
  tag: 'spec_decode_overall_draft_acceptance_rate',
  header: 'Overall Draft Acceptance Rate',
  unit: 'percent',
  display: '%',
  flags: BETTER,
  group: 'spec_decode',
  requires: ['total_accepted_draft_tokens', 'total_draft_tokens'],
  compute: (_run, v) => {
    const drafted = runNumber(v, 'total_draft_tokens');
    return drafted > 0 ? (100 * runNumber(v, 'total_accepted_draft_tokens')) / drafted : undefined;
  },
};

/**
 * The pooled acceptance histogram (a reducer outside the registry, as in AIPerf): every successful
 * profiling request's {j: steps} summed, keys as strings. Its counts sum to total_spec_decode_steps.
 * Null when no request reported verify steps.
 */
export function poolAcceptanceHistogram(records: readonly ProcessedRecord[]): Record<string, number> | null {
  const pool = new AcceptancePool();
  for (const r of records) pool.add(r);
  return pool.result();
}

/** The pooled histogram, a record at a time. */
export class AcceptancePool {
  private readonly pooled: number[] = [];
  private any = false;

  add(r: ProcessedRecord): void {
    const s = r.metric_input.spec_decode;
    if (r.raw.credit.phase !== 'profiling' || r.status !== 'ok' || !s) return;
    this.any = true;
    s.histogram.forEach((n, j) => {
      while (this.pooled.length <= j) this.pooled.push(0);
      this.pooled[j] += n;
    });
  }

  result(): Record<string, number> | null {
    if (!this.any) return null;
    const out: Record<string, number> = {};
    this.pooled.forEach((n, j) => {
      if (n > 0) out[String(j)] = n;
    });
    return out;
  }
}

/** Buckets shown in the console: 0 .. CAP-1, then one ">=CAP" bucket; the JSON keeps them all. */
export const HISTOGRAM_CONSOLE_CAP = 8;

/** The one-line console row: % of verify steps per accepted-draft count, capped at HISTOGRAM_CONSOLE_CAP. */
export function formatAcceptanceHistogram(hist: Readonly<Record<string, number>>): string {
  const buckets = new Array<number>(HISTOGRAM_CONSOLE_CAP + 1).fill(0);
  let total = 0;
  for (const [k, n] of Object.entries(hist)) {
    buckets[Math.min(Number(k), HISTOGRAM_CONSOLE_CAP)] += n;
    total += n;
  }
  if (total === 0) return 'Accepted drafts per step: no steps';
  // Trailing empty buckets are left out, except that 0 always shows.
  let last = 0;
  buckets.forEach((n, j) => {
    if (n > 0) last = j;
  });
  const cells = buckets.slice(0, last + 1).map((n, j) => {
    const label = j === HISTOGRAM_CONSOLE_CAP ? `>=${HISTOGRAM_CONSOLE_CAP}` : String(j);
    return `${label}: ${((100 * n) / total).toFixed(1)}%`;
  });
  return `Accepted drafts per step (${total} steps): ${cells.join('  ')}`;
}

export const specDecodeRecordMetrics: readonly RecordMetricDef[] = [
  acceptanceLength,
  draftAcceptanceRate,
  acceptedPerVerified,
  specDecodeSteps,
  acceptedDraftTokens,
  draftTokens,
];

export const specDecodeRunMetrics: readonly RunMetricDef[] = [
  tokenWeightedAcceptanceLength,
  overallDraftAcceptanceRate,
  totalSpecDecodeSteps,
  totalAcceptedDraftTokens,
  totalDraftTokens,
];

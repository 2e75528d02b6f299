// Per-request speculative-decoding acceptance, read from whichever shape a server sends:
//
//  - servebench's extension (the built-in mock, `--spec-decode-draft-len`): a top-level
//      "spec_decode": {"draft_tokens": [l1, l2, ...], "accepted_tokens": [j1, j2, ...]}
//    on any chunk (or the whole body): the verify steps completed since the previous event, one
//    entry per step, l = drafts proposed and j = drafts accepted (0 ≤ j ≤ l). Chunks add up.
//  - vLLM (`--per-request-spec-decode-metrics summary|detailed`, vllm-project/vllm PR #48915): a
//    top-level "metrics": {"speculative_decoding": {num_spec_steps, num_accepted_draft_tokens,
//    num_draft_tokens, acceptance_histogram: [dense list] (or {"j": n}), ...}}, cumulative.
//  - SGLang (request field `return_spec_tokens_details: true`, sgl-project/sglang PR #33518):
//    "sglext": {"spec_tokens_details": {spec_verify_ct, spec_num_correct_drafts,
//    spec_num_proposed_drafts, spec_correct_drafts_histogram: [dense list], ...}} on a choice
//    (or at the top level), cumulative.
// Cumulative shapes: the last one of a response wins. A shape whose counts contradict each other
// (histogram not summing to the steps, accepted > drafted, negative counts) is ignored with a
// one-time warning.
import type { SpecDecodeRecord } from '../model/spec-decode.js';
import { warnOnce } from '../warnings.js';
import { MAX_USAGE_COUNT } from './usage.js';

type Obj = Record<string, unknown>;

export type SpecDecodeChunk = { kind: 'steps'; drafted: number[]; accepted: number[] } | { kind: 'totals'; record: SpecDecodeRecord };

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
// Up to MAX_USAGE_COUNT, as usage counts: a larger one is no real server's and would overflow the metrics.
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_USAGE_COUNT;

function reject(source: string, why: string): null {
  warnOnce(`spec_decode:${source}`, `ignoring the server's ${source} speculative-decoding stats: ${why} (warned once)`);
  return null;
}

function ourSteps(v: unknown): SpecDecodeChunk | null {
  if (!isObj(v)) return reject('spec_decode', 'not an object');
  const { draft_tokens: d, accepted_tokens: a } = v;
  if (!Array.isArray(d) || !Array.isArray(a) || d.length !== a.length) {
    return reject('spec_decode', 'draft_tokens and accepted_tokens must be arrays of equal length');
  }
  for (let i = 0; i < d.length; i++) {
    if (!isCount(d[i]) || !isCount(a[i]) || (a[i] as number) > (d[i] as number)) {
      return reject('spec_decode', `step ${i}: expected 0 ≤ accepted ≤ drafted integers`);
    }
  }
  return { kind: 'steps', drafted: d as number[], accepted: a as number[] };
}

/** A histogram as a dense list (index j) or an object with integer keys. */
function denseHistogram(h: unknown): number[] | null {
  if (Array.isArray(h)) return h.every(isCount) ? [...h] : null;
  if (!isObj(h)) return null;
  const out: number[] = [];
  for (const [k, n] of Object.entries(h)) {
    const j = Number(k);
    if (!Number.isInteger(j) || j < 0 || j > 4096 || !isCount(n)) return null;
    while (out.length <= j) out.push(0);
    out[j] += n;
  }
  return out;
}

function totals(source: string, steps: unknown, accepted: unknown, drafted: unknown, hist: unknown): SpecDecodeChunk | null {
  if (!isCount(steps) || !isCount(accepted) || !isCount(drafted))
    return reject(source, 'step and token counts must be non-negative integers');
  const histogram = denseHistogram(hist);
  if (!histogram) return reject(source, 'the acceptance histogram is missing or malformed');
  let sum = 0;
  let weighted = 0;
  histogram.forEach((n, j) => {
    sum += n;
    weighted += j * n;
  });
  if (sum !== steps || weighted !== accepted || accepted > drafted) {
    return reject(
      source,
      `inconsistent counts (histogram sums to ${sum} steps / ${weighted} accepted; reported ${steps} / ${accepted}, ${drafted} drafted)`,
    );
  }
  return { kind: 'totals', record: { steps, accepted_draft_tokens: accepted, draft_tokens: drafted, histogram } };
}

function sglang(ext: unknown): SpecDecodeChunk | null | undefined {
  if (!isObj(ext) || !isObj(ext.spec_tokens_details)) return undefined;
  const d = ext.spec_tokens_details;
  return totals(
    'sglext.spec_tokens_details',
    d.spec_verify_ct,
    d.spec_num_correct_drafts,
    d.spec_num_proposed_drafts,
    d.spec_correct_drafts_histogram,
  );
}

/** The speculative-decoding stats a payload carries, or null when it carries none (or unusable ones). */
export function specDecodeOfPayload(o: Obj): SpecDecodeChunk | null {
  if ('spec_decode' in o && o.spec_decode != null) return ourSteps(o.spec_decode);
  const m = o.metrics;
  if (isObj(m) && isObj(m.speculative_decoding)) {
    const s = m.speculative_decoding;
    return totals(
      'metrics.speculative_decoding',
      s.num_spec_steps,
      s.num_accepted_draft_tokens,
      s.num_draft_tokens,
      s.acceptance_histogram,
    );
  }
  const top = sglang(o.sglext);
  if (top !== undefined) return top;
  if (Array.isArray(o.choices)) {
    for (const c of o.choices) {
      const r = isObj(c) ? sglang(c.sglext) : undefined;
      if (r !== undefined) return r;
    }
  }
  return null;
}

/** Folds a response's chunks into one record: per-step chunks add up; a cumulative shape overrides them. */
export class SpecDecodeAccumulator {
  private drafted = 0;
  private accepted = 0;
  private histogram: number[] = [];
  private steps = 0;
  private last: SpecDecodeRecord | null = null;

  add(c: SpecDecodeChunk): void {
    if (c.kind === 'totals') {
      this.last = c.record;
      return;
    }
    for (let i = 0; i < c.drafted.length; i++) {
      const j = c.accepted[i];
      this.drafted += c.drafted[i];
      this.accepted += j;
      while (this.histogram.length <= j) this.histogram.push(0);
      this.histogram[j]++;
      this.steps++;
    }
  }

  /** Null when no verify step was reported (spec decode off): every spec-decode metric then has no value. */
  result(): SpecDecodeRecord | null {
    if (this.last) return this.last.steps > 0 ? this.last : null;
    if (this.steps === 0) return null;
    return { steps: this.steps, accepted_draft_tokens: this.accepted, draft_tokens: this.drafted, histogram: [...this.histogram] };
  }
}

// Conventions as registry overrides: each tool's definitions on hand-built and processed records,
// and the `--convention all` comparison.
import { beforeAll, describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { RecordProcessor } from '../../../src/records/process.js';
import type { MetricRecord, ProcessedRecord } from '../../../src/model/processed-record.js';
import type { RawRecord } from '../../../src/model/raw-record.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { computeRecordMetrics } from '../../../src/metrics/record-metrics.js';
import { summarize } from '../../../src/metrics/accumulate.js';
import { CONVENTIONS, comparedTags, comparisonRegistry, conventionDefs, registryFor } from '../../../src/metrics/conventions.js';
import { defaultMetricDefs, defaultRegistry } from '../../../src/metrics/catalogue.js';
import { findMetric } from '../../../src/metrics/core/summary.js';
import { buildProfileExport } from '../../../src/export/json.js';
import { renderConsole } from '../../../src/export/console.js';
import { MS, metricRecord, processed } from './fixtures.js';

const ns = (ms: number) => BigInt(Math.round(ms * MS));
const start = 1_000_000_000n;

/** A streaming record: role-only chunk at 5 ms, tokens at 20, 25, 30 ms, end at 40 ms, 3 local tokens, server says 4. */
function rec(patch: Partial<MetricRecord> = {}): MetricRecord {
  return {
    ...metricRecord({ start, tokens: [20, 25, 30], end: 40, output: 3, input: 100 }),
    first_choice_ns: start + ns(5),
    usage: { prompt_tokens: 120, completion_tokens: 4, total_tokens: 124, reasoning_tokens: null },
    ...patch,
  };
}

describe('registries', () => {
  it('a convention is the default declarations with its own substituted, nothing else changed', () => {
    for (const conv of Object.values(CONVENTIONS)) {
      const defs = conventionDefs(conv);
      expect(defs.length).toBe(defaultMetricDefs.length + conv.additions.length);
      const overridden = new Set(conv.overrides.map((d) => d.tag));
      for (const d of defaultMetricDefs) {
        const mine = defs.find((x) => x.tag === d.tag)!;
        if (overridden.has(d.tag)) {
          expect(mine).not.toBe(d);
          // Same tag, unit and console place: only the definition changes.
          expect([mine.unit, mine.display, mine.group, mine.kind]).toEqual([d.unit, d.display, d.group, d.kind]);
        } else expect(mine).toBe(d);
      }
    }
    expect(registryFor('aiperf')).toBe(defaultRegistry());
    expect(registryFor('all')).toBe(defaultRegistry());
    expect(registryFor(undefined)).toBe(defaultRegistry());
  });

  it('compares every tag some convention touches, in display order, EvalScope input throughput after total throughput', () => {
    const tags = comparedTags();
    expect(tags).toEqual([
      'time_to_first_token',
      'time_to_first_output_token',
      'request_latency',
      'inter_token_latency',
      'time_per_output_token',
      'output_sequence_length',
      'input_sequence_length',
      'output_token_throughput',
      'total_token_throughput',
      'input_token_throughput',
    ]);
  });

  it('the comparison registries hold only the compared tags and their requirements', () => {
    const reg = comparisonRegistry('evalscope');
    expect(reg.has('time_to_first_token')).toBe(true);
    expect(reg.has('request_latency')).toBe(true); // required by the TPOT formula
    expect(reg.has('http_req_total')).toBe(false);
    expect(comparisonRegistry('aiperf').has('time_per_output_token')).toBe(false); // AIPerf does not define it
  });
});

describe('per-record definitions', () => {
  const aiperf = computeRecordMetrics(rec(), registryFor('aiperf'));
  const guidellm = computeRecordMetrics(rec(), registryFor('guidellm'));
  const evalscope = computeRecordMetrics(rec(), registryFor('evalscope'));

  it('TTFT: first content token (AIPerf, GuideLLM) vs first event with choices, role-only included (EvalScope)', () => {
    expect(aiperf.get('time_to_first_token')).toBe(20 * MS);
    expect(guidellm.get('time_to_first_token')).toBe(20 * MS);
    expect(evalscope.get('time_to_first_token')).toBe(5 * MS);
    expect(computeRecordMetrics(rec({ first_choice_ns: null }), registryFor('evalscope')).has('time_to_first_token')).toBe(false);
  });

  it('request latency: AIPerf to the last content chunk; GuideLLM (request_end) and EvalScope (completed_time) to the last byte', () => {
    expect(aiperf.get('request_latency')).toBe(30 * MS);
    expect(guidellm.get('request_latency')).toBe(40 * MS);
    expect(evalscope.get('request_latency')).toBe(40 * MS);
  });

  it('ITL denominators: AIPerf (latency − TTFT)/(OSL − 1); GuideLLM (last − first token)/(OSL − 1); EvalScope (latency − its TTFT)/(server tokens − 1)', () => {
    expect(aiperf.get('inter_token_latency')).toBeCloseTo((10 * MS) / 2, 0);
    expect(guidellm.get('inter_token_latency')).toBeCloseTo((10 * MS) / 2, 0);
    expect(evalscope.get('inter_token_latency')).toBeCloseTo((35 * MS) / 3, 0);
  });

  it('TPOT: GuideLLM (last token − start)/OSL, first token included; EvalScope its decode time per token', () => {
    expect(guidellm.get('time_per_output_token')).toBeCloseTo((30 * MS) / 3, 0);
    expect(evalscope.get('time_per_output_token')).toBeCloseTo((35 * MS) / 3, 0);
  });

  it('EvalScope prefers the server usage counts, falling back to local tokenization', () => {
    expect(aiperf.get('output_sequence_length')).toBe(3);
    expect(evalscope.get('output_sequence_length')).toBe(4);
    expect(evalscope.get('input_sequence_length')).toBe(120);
    const noUsage = computeRecordMetrics(rec({ usage: null }), registryFor('evalscope'));
    expect(noUsage.get('output_sequence_length')).toBe(3);
    expect(noUsage.get('input_sequence_length')).toBe(100);
    // A malformed server count (negative) is not used.
    const bad = computeRecordMetrics(
      rec({ usage: { prompt_tokens: -1, completion_tokens: null, total_tokens: null, reasoning_tokens: null } }),
      registryFor('evalscope'),
    );
    expect(bad.get('input_sequence_length')).toBe(100);
  });
});

describe('run-level definitions', () => {
  // Two successes [0, 1000] and [500, 2000] ms (last content at 200 and 900 ms) and an error spanning [−1000, 3000] ms.
  const ok1 = processed({ start, tokens: [100, 200], end: 1000, input: 10, output: 2 }, { index: 0 });
  const ok2 = processed({ start: start + ns(500), tokens: [300, 400], end: 1500, input: 30, output: 4 }, { index: 1 });
  const err = processed({ start: start - ns(1000), tokens: [], end: 4000 }, { index: 2, status: 'error' });
  const recs = [ok1, ok2, err];

  it('output throughput window: AIPerf from the first request sent to the last content (1.9 s), EvalScope over successful ones to their last byte (2 s)', () => {
    const a = summarize(recs);
    const e = summarize(recs, { metricOptions: { convention: 'evalscope' } });
    // AIPerf: the error's start (−1000 ms) to ok2's last content chunk (500 + 400 ms).
    expect(findMetric(a, 'output_token_throughput')?.stats.avg).toBeCloseTo(6 / 1.9, 9);
    expect(findMetric(e, 'output_token_throughput')?.stats.avg).toBeCloseTo(6 / 2, 9);
    expect(findMetric(e, 'total_token_throughput')?.stats.avg).toBeCloseTo((40 + 6) / 2, 9);
  });

  it('EvalScope input throughput: total prompt tokens / total first-chunk latency', () => {
    const e = summarize(recs, { metricOptions: { convention: 'evalscope' } });
    // TTFTs (no role-only chunk here, so the first content chunk): 100 and 300 ms.
    expect(findMetric(e, 'input_token_throughput')?.stats.avg).toBeCloseTo(40 / 0.4, 9);
    expect(findMetric(summarize(recs), 'input_token_throughput')).toBeUndefined();
  });
});

describe('GuideLLM weighs ITL and TPOT by tokens', () => {
  // Decode spans 10 ms over 3 tokens (ITL 5 ms, 2 gaps) and 90 ms over 10 tokens (ITL 10 ms, 9 gaps).
  const recs = [
    processed({ start, tokens: [10, 15, 20], end: 25, output: 3 }, { index: 0 }),
    processed({ start, tokens: [10, ...Array.from({ length: 9 }, (_, i) => 20 + 10 * i)], end: 105, output: 10 }, { index: 1 }),
  ];
  it('the mean is the total span over the total tokens after the first, the count the token exposure', () => {
    // Records carry the metrics of the convention they were processed under.
    const asGuidellm = recs.map((r) => ({ ...r, metrics: computeRecordMetrics(r.metric_input, registryFor('guidellm')) }));
    const g = summarize(asGuidellm, { metricOptions: { convention: 'guidellm' } });
    const itl = findMetric(g, 'inter_token_latency')!;
    expect(itl.kind === 'distribution' && itl.stats.count).toBe(2 + 9);
    expect(itl.stats.avg).toBeCloseTo(((10 + 90) / 11) * MS, 0);
    const tpot = findMetric(g, 'time_per_output_token')!;
    expect(tpot.kind === 'distribution' && tpot.stats.count).toBe(3 + 10);
    expect(tpot.stats.avg).toBeCloseTo(((20 + 100) / 13) * MS, 0);
  });
  it('AIPerf keeps one observation per request', () => {
    const a = summarize(recs);
    const itl = findMetric(a, 'inter_token_latency')!;
    expect(itl.kind === 'distribution' && itl.stats.count).toBe(2);
    const tpot = findMetric(a, 'time_per_output_token')!;
    expect(tpot.kind === 'distribution' && tpot.stats.count).toBe(2);
    expect(tpot.stats.avg).toBeCloseTo(((20 / 3 + 100 / 10) / 2) * MS, 0);
  });
});

describe('--convention all', () => {
  // Records with a role-only chunk 15 ms ahead of the first token.
  const recs: ProcessedRecord[] = [0, 1, 2].map((i) => {
    const p = processed({ start, tokens: [20 + i, 30 + i], end: 50 + i, output: 2 }, { index: i });
    const mi = { ...p.metric_input, first_choice_ns: start + ns(5 + i) };
    return { ...p, metric_input: mi, metrics: computeRecordMetrics(mi) };
  });
  const s = summarize(recs, { metricOptions: { convention: 'all' } });

  it('keeps AIPerf definitions for the run and compares each tool', () => {
    expect(findMetric(s, 'time_to_first_token')?.stats.avg).toBeCloseTo(21 * MS, 0);
    const row = s.conventions!.rows.find((r) => r.tag === 'time_to_first_token')!;
    expect(row.values.aiperf?.stats.avg).toBeCloseTo(21 * MS, 0);
    expect(row.values.guidellm?.stats.avg).toBeCloseTo(21 * MS, 0);
    expect(row.values.evalscope?.stats.avg).toBeCloseTo(6 * MS, 0);
    // AIPerf does not define TPOT; EvalScope alone defines input throughput.
    const tpot = s.conventions!.rows.find((r) => r.tag === 'time_per_output_token')!;
    expect(tpot.values.aiperf).toBeNull();
    expect(tpot.values.guidellm).not.toBeNull();
  });

  it('writes a conventions section and a side-by-side console table', () => {
    const j = buildProfileExport(s, { config: {}, run: { start_ns: null, end_ns: null, wall_anchor: null } }) as Record<string, any>;
    expect(j.conventions.tools).toEqual(['aiperf', 'guidellm', 'evalscope']);
    const ttft = j.conventions.metrics.time_to_first_token;
    expect(ttft.unit).toBe('ms');
    expect(ttft.aiperf.avg - ttft.evalscope.avg).toBeCloseTo(15, 6);
    expect(j.conventions.metrics.time_per_output_token.aiperf).toBeNull();
    const out = renderConsole(s);
    const header = out.split('\n').find((l) => l.includes('AIPerf') && l.includes('EvalScope'))!;
    expect(
      header
        .split('│')
        .map((c) => c.trim())
        .filter(Boolean),
    ).toEqual(['Metric (avg)', 'AIPerf', 'GuideLLM', 'EvalScope']);
    const line = out.split('\n').find((l) => l.includes('Time to First Token (ms)') && l.includes('6.00'))!;
    expect(
      line
        .split('│')
        .map((c) => c.trim())
        .filter(Boolean),
    ).toEqual(['Time to First Token (ms)', '21.00', '21.00', '6.00']);
    expect(out.split('\n').find((l) => l.includes('Time Per Output Token (ms)') && l.includes('—'))).toBeDefined();
  });

  it('no conventions section otherwise', () => {
    expect(summarize(recs).conventions).toBeUndefined();
    expect(summarize(recs, { metricOptions: { convention: 'evalscope' } }).conventions).toBeUndefined();
  });
});

describe('the record processor under conventions', () => {
  let tk: TextTokenizer;
  beforeAll(async () => {
    tk = await loadTokenizer();
  });
  const MSn = 1_000_000n;
  const delta = (d: Record<string, string>) => JSON.stringify({ choices: [{ delta: d }] });
  function raw(turn: RawRecord['credit']['turn'], startMs: number, endMs: number, targetedMs: number | null): RawRecord {
    const events: [number, string][] = [
      [5, delta({ role: 'assistant', content: '' })],
      [40, delta({ content: ' the' })],
      [50, delta({ content: ' of' })],
    ];
    return {
      credit: {
        index: 0,
        phase: 'profiling',
        x_request_id: 'r',
        credit_issued_ns: BigInt(startMs) * MSn,
        targeted_start_ns: targetedMs === null ? null : BigInt(targetedMs) * MSn,
        turn,
      },
      start_ns: BigInt(startMs) * MSn,
      end_ns: BigInt(endMs) * MSn,
      http_status: 200,
      status: 'ok',
      error: null,
      streaming: true,
      event_data: events.map((e) => e[1]),
      event_ns: events.map((e) => BigInt(startMs + e[0]) * MSn),
      event_type: events.map(() => ''),
      body: null,
      bytes_sent: 1,
      bytes_received: 1,
    };
  }

  it('stamps the first event with choices; EvalScope TTFT counts the role-only chunk, AIPerf does not', () => {
    const turn = { prompt: 'hi', isl: 1, max_tokens: 2 };
    const a = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false }).process(raw(turn, 1000, 1100, null));
    const e = new RecordProcessor({
      adapter: chatAdapter,
      tokenizer: tk,
      useServerTokenCount: false,
      registry: registryFor('evalscope'),
    }).process(raw(turn, 1000, 1100, null));
    expect(a.metric_input.first_choice_ns).toBe(1005n * MSn);
    expect(a.metrics.get('time_to_first_token')).toBe(40e6);
    expect(e.metrics.get('time_to_first_token')).toBe(5e6);
  });

  it('`all`: the other conventions’ values ride along on the record', () => {
    const p = new RecordProcessor({
      adapter: chatAdapter,
      tokenizer: tk,
      useServerTokenCount: false,
      compareWith: new Map([['evalscope', comparisonRegistry('evalscope')]]),
    });
    const r = p.process(raw({ prompt: 'hi', isl: 1, max_tokens: 2 }, 1000, 1100, null));
    expect(r.metrics.get('time_to_first_token')).toBe(40e6);
    expect(r.convention_metrics?.get('evalscope')?.get('time_to_first_token')).toBe(5e6);
  });

  it('tracks the previous turn of a session for the predecessor delay', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false });
    const t = (k: number) => ({
      prompt: 'hi',
      isl: null,
      max_tokens: 2,
      session_id: 's1',
      turn_index: k,
      messages: [{ role: 'user' as const, content: 'hi' }],
    });
    const first = p.process(raw(t(0), 1000, 1100, 990));
    expect(first.metric_input.predecessor_end_ns).toBeNull();
    expect(first.metrics.get('turn_predecessor_delay')).toBe(0);
    // Turn 1 was due at 1050 ms, while turn 0 ran until 1100; it went at 1120.
    const second = p.process(raw(t(1), 1120, 1200, 1050));
    expect(second.metric_input.predecessor_end_ns).toBe(1100n * MSn);
    expect(second.metrics.get('request_dispatch_delay')).toBe(70e6);
    expect(second.metrics.get('turn_predecessor_delay')).toBe(50e6);
    expect(second.metrics.get('turn_scheduling_delay')).toBe(20e6);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { RecordProcessor } from '../../../src/records/process.js';
import type { RawRecord } from '../../../src/model/raw-record.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';

let tk: TextTokenizer;
beforeAll(async () => {
  tk = await loadTokenizer();
});

const MS = 1_000_000n;

function raw(events: string[], over: Partial<RawRecord> = {}): RawRecord {
  return {
    credit: {
      index: 0,
      phase: 'profiling',
      x_request_id: 'r',
      credit_issued_ns: 900n * MS,
      targeted_start_ns: null,
      turn: { prompt: 'hello world', isl: 2, max_tokens: 8 },
    },
    start_ns: 1000n * MS,
    end_ns: 1100n * MS,
    http_status: 200,
    status: 'ok',
    error: null,
    streaming: true,
    event_data: events,
    event_ns: events.map((_, i) => 1000n * MS + BigInt(10 * (i + 1)) * MS),
    event_type: events.map(() => ''),
    body: null,
    bytes_sent: 10,
    bytes_received: 100,
    ...over,
  };
}

const chunk = (content: string, usage?: object, extra: object = {}) =>
  JSON.stringify({ choices: [{ delta: { content } }], ...(usage ? { usage } : {}), ...extra });

// Continuous usage: the role chunk (0 tokens), a first content chunk carrying 3 tokens, then 1 each.
const continuous = [
  JSON.stringify({
    choices: [{ delta: { role: 'assistant', content: '' } }],
    usage: { prompt_tokens: 2, completion_tokens: 0, total_tokens: 2 },
  }),
  chunk(' the of and', { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 }),
  chunk(' the', { prompt_tokens: 2, completion_tokens: 4, total_tokens: 6 }),
  chunk(
    ' of',
    { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 },
    { spec_decode: { draft_tokens: [2, 2], accepted_tokens: [2, 0] } },
  ),
  JSON.stringify({
    choices: [],
    usage: { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7, prompt_tokens_details: { cached_tokens: 1 } },
  }),
  '[DONE]',
];

describe('RecordProcessor: catalogue inputs', () => {
  it('keeps the last usage and the requested OSL whatever the token source', () => {
    const rec = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false }).process(raw(continuous));
    expect(rec.metric_input.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 5, prompt_cache_read_tokens: 1 });
    expect(rec.metric_input.requested_osl).toBe(8);
    expect(rec.metrics.get('usage_prompt_cache_read_tokens')).toBe(1);
    expect(rec.metrics.get('osl_mismatch_diff_pct')).toBe(((5 - 8) / 8) * 100);
    // Without --per-chunk-usage the first-chunk count is not used.
    expect(rec.metric_input.first_chunk_tokens).toBeNull();
  });

  it('--per-chunk-usage: first content chunk count corrects the ITL divisor', () => {
    const p = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: true, perChunkUsage: true });
    const rec = p.process(raw(continuous));
    expect(rec.metric_input.first_chunk_tokens).toBe(3);
    // TTFT at 20 ms (the first content chunk), latency 40 ms (the last content chunk; the usage
    // chunk at 50 ms, [DONE] at 60 ms and the last byte at 100 ms are not part of it), OSL 5 → divisor 5 − 3.
    expect(rec.metric_input.last_content_ns).toBe(1040n * MS);
    expect(rec.metric_input.end_ns).toBe(1100n * MS);
    expect(rec.metrics.get('request_latency')).toBe(40 * 1e6);
    expect(rec.metrics.get('inter_token_latency')).toBe((20 * 1e6) / 2);
    const plain = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: true }).process(raw(continuous));
    expect(plain.metrics.get('inter_token_latency')).toBe((20 * 1e6) / 4);
  });

  it('a server that ignores continuous_usage_stats: divisor stays OSL − 1', () => {
    const events = [
      chunk(' the'),
      chunk(' of'),
      JSON.stringify({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 } }),
    ];
    const rec = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: true, perChunkUsage: true }).process(
      raw(events),
    );
    expect(rec.metric_input.first_chunk_tokens).toBeNull();
    // Content at 10 and 20 ms: (20 − 10) ms over OSL − 1 = 1.
    expect(rec.metrics.get('inter_token_latency')).toBe(10 * 1e6);
  });

  it('collects spec-decode steps into the per-request record', () => {
    const rec = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false }).process(raw(continuous));
    expect(rec.metric_input.spec_decode).toEqual({ steps: 2, accepted_draft_tokens: 2, draft_tokens: 4, histogram: [1, 0, 1] });
    expect(rec.metrics.get('spec_decode_acceptance_length')).toBe(2);
  });

  it('carries the transport trace through', () => {
    const trace = {
      connection_reused: true,
      connect_start_ns: null,
      dns_end_ns: null,
      connect_end_ns: null,
      send_start_ns: 1001n * MS,
      send_end_ns: 1002n * MS,
      first_byte_ns: 1005n * MS,
      bytes_sent: 500,
      bytes_received: 900,
      chunks_sent: 2,
      chunks_received: 6,
    };
    const rec = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false }).process(
      raw(continuous, { trace }),
    );
    expect(rec.metrics.get('http_req_total')).toBe(100e6);
    expect(rec.metrics.get('http_req_waiting')).toBe(3e6);
  });

  it('an error record keeps the prompt length for error_isl', () => {
    const rec = new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false }).process(
      raw([], { status: 'error', error: { type: 'http_5xx', message: 'x', http_status: 500 } }),
    );
    expect(rec.metrics.get('error_isl')).toBe(2);
    expect(rec.metrics.has('input_sequence_length')).toBe(false);
  });
});

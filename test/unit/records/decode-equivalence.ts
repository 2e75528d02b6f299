// Shared by the native-decode equivalence tests: SSE bodies run through both decoders (the TS
// adapter per payload vs the native decoder per response) into ProcessedRecords, compared.
import { expect } from 'vitest';
import type { EndpointAdapter } from '../../../src/endpoints/types.js';
import { RecordProcessor } from '../../../src/records/process.js';
import type { ProcessedRecord } from '../../../src/model/processed-record.js';
import type { RawRecord } from '../../../src/model/raw-record.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { frameSse, SseDecoder } from '../../../src/transport/sse.js';

export const MS = 1_000_000n;

export function baseRecord(over: Partial<RawRecord> = {}): RawRecord {
  return {
    credit: {
      index: 0,
      phase: 'profiling',
      x_request_id: 'r',
      credit_issued_ns: 900n * MS,
      targeted_start_ns: null,
      turn: { prompt: 'hello world', isl: 2, max_tokens: 3 },
    },
    start_ns: 1000n * MS,
    end_ns: 1100n * MS,
    http_status: 200,
    status: 'ok',
    error: null,
    streaming: true,
    event_data: [],
    event_ns: [],
    event_type: [],
    body: null,
    bytes_sent: 10,
    bytes_received: 100,
    ...over,
  };
}

/** What must be identical: everything a ProcessedRecord carries to the metrics and the export. */
export function comparable(r: ProcessedRecord): unknown {
  return {
    status: r.status,
    error: r.error,
    metric_input: { ...r.metric_input, token_ns: Array.from(r.metric_input.token_ns) },
    usage: r.usage,
    finish_reason: r.finish_reason,
    metrics: [...r.metrics],
    content: r.content,
  };
}

export interface Pair {
  ts: ProcessedRecord;
  native: ProcessedRecord;
  nativeRaw: RawRecord;
}

/** One body (as chunks) through both paths, with fresh processors for each. */
export function bothPaths(
  adapter: EndpointAdapter,
  tokenizer: TextTokenizer,
  chunks: Buffer[],
  opts: { keepPayloads?: boolean; useServerTokenCount?: boolean; perChunkUsage?: boolean } = {},
): Pair {
  const stamps = chunks.map((_, i) => 1000n * MS + BigInt(i + 1) * 1000n);
  const popts = { adapter, tokenizer, useServerTokenCount: opts.useServerTokenCount ?? false, perChunkUsage: opts.perChunkUsage };
  const f = frameSse(chunks, stamps);
  const tsRaw = baseRecord({ event_data: f.data, event_ns: Array.from(f.stamps), event_type: f.types });
  const d = new SseDecoder(adapter.decodeSpec).decode(chunks, stamps, opts.keepPayloads ?? false);
  const nativeRaw = baseRecord({ event_data: d.data, event_ns: Array.from(d.stamps), event_type: d.types, decoded: d.decoded });
  const ts = new RecordProcessor(popts).process(tsRaw);
  const native = new RecordProcessor(popts).process(nativeRaw);
  return { ts, native, nativeRaw };
}

export function expectSame(p: Pair, what: string): void {
  expect(comparable(p.native), what).toEqual(comparable(p.ts));
}

/** Splits a body at pseudo-random points (1..maxPieces pieces). */
export function chunked(body: Buffer, rand: () => number, maxPieces = 4): Buffer[] {
  const pieces = 1 + Math.floor(rand() * maxPieces);
  const cuts = new Set<number>();
  for (let i = 1; i < pieces; i++) cuts.add(Math.floor(rand() * body.length));
  const sorted = [...cuts].filter((c) => c > 0 && c < body.length).sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const c of sorted) {
    out.push(body.subarray(prev, c));
    prev = c;
  }
  out.push(body.subarray(prev));
  return out;
}

/** An SSE body of these payloads (each a `data:` line; a payload with LF spans data lines). */
export function sseBody(payloads: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [];
  for (const p of payloads) {
    const b = typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
    const lines: Buffer[] = [];
    let from = 0;
    for (let i = 0; i <= b.length; i++) {
      if (i === b.length || b[i] === 0x0a) {
        lines.push(Buffer.concat([Buffer.from('data: '), b.subarray(from, i), Buffer.from('\n')]));
        from = i + 1;
      }
    }
    parts.push(...lines, Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

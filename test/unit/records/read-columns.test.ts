// records.jsonl read back as columns: lines recordLine writes take the fast path, any other shape
// goes through JSON.parse, and both give what a JSON.parse of every line gives.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyRecordColumns, pushFast, readRecordColumns, type RecordColumns } from '../../../src/records/read.js';
import { recordLine, type RecordLineInput } from '../../../src/export/records.js';
import { tmpDir } from '../../helpers/cli.js';
import { rng } from '../../helpers/rng.js';

const units = (tag: string) =>
  tag.endsWith('_count') || tag.endsWith('_length') ? { unit: 'tokens', scale: 1 } : { unit: 'ms', scale: 1e-6 };

/** The columns as JSON.parse of each line gives them (what the reader did before its fast path). */
function reference(text: string, origin: number): RecordColumns {
  const c: RecordColumns = emptyRecordColumns();
  const val = (m: Record<string, { value: unknown }>, k: string) => {
    const v = m[k]?.value;
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const o = JSON.parse(line);
    c.phase.push(String(o.phase));
    c.status.push(String(o.status));
    c.errorType.push(o.error && typeof o.error.type === 'string' ? o.error.type : null);
    c.start_s.push((o.start_ns - origin) / 1e9);
    c.end_s.push((o.end_ns - origin) / 1e9);
    c.ttft_ms.push(val(o.metrics, 'time_to_first_token'));
    c.latency_ms.push(val(o.metrics, 'request_latency'));
    c.output_tokens.push(val(o.metrics, 'output_token_count'));
    c.input_tokens.push(val(o.metrics, 'input_sequence_length'));
  }
  return c;
}

function lineInput(i: number, r: () => number): RecordLineInput {
  const start = 33_000_000_000_000n + BigInt(i) * 1_000_003n;
  const failed = r() < 0.2;
  const metrics = new Map<string, number | number[]>();
  if (!failed || r() < 0.5) metrics.set('time_to_first_token', r() < 0.05 ? 0.0000001 : r() * 5e7);
  metrics.set(
    'inter_chunk_latency',
    Array.from({ length: 1 + Math.floor(r() * 40) }, () => r() * 2e6),
  );
  if (r() < 0.9) metrics.set('request_latency', r() * 1e9);
  if (r() < 0.9) metrics.set('output_token_count', Math.floor(r() * 500));
  if (r() < 0.1) metrics.set('time_to_second_token', NaN);
  metrics.set('input_sequence_length', Math.floor(r() * 4000));
  // Payload and id text that holds the fast path's keys, quotes, backslashes and non-ASCII.
  const tricky = `"metrics":{"time_to_first_token":{"value":9,"unit":"ms"}} \\ 東京 😀 ${i}`;
  return {
    raw: {
      credit: {
        x_request_id: i % 7 === 0 ? `id "${i}" \\ ${tricky}` : `r-${i}`,
        index: i,
        phase: i % 5 === 0 ? 'warmup' : 'profiling',
        credit_issued_ns: start - 10n,
        targeted_start_ns: i % 3 === 0 ? null : start - 5n,
        turn: { max_tokens: i % 4 === 0 ? null : 128 },
        ...(i % 6 === 0 ? { target: { url: 'http://h:1/v1', model: `m"${i}` } } : {}),
      },
      start_ns: start,
      end_ns: start + 123_456_789n,
      http_status: failed ? 500 : 200,
      bytes_sent: 100,
      bytes_received: 2000,
      streaming: true,
      event_ns: [start + 1n, start + 2n],
      event_data: [tricky, '[DONE]'],
      body: null,
    },
    metric_input: { last_content_ns: failed ? null : start + 100n },
    status: failed ? 'error' : 'ok',
    error: failed ? { type: i % 2 ? 'http_5xx' : 'sse-error', message: `boom ${tricky}`, http_status: 500 } : null,
    finish_reason: i % 3 === 0 ? null : i % 3 === 1 ? 'length' : tricky,
    metrics,
  } as unknown as RecordLineInput;
}

describe('readRecordColumns', () => {
  const dir = tmpDir('servebench-read-records-');

  it('reads recordLine lines, at both export levels, as JSON.parse of each line does', () => {
    const r = rng(11);
    for (const level of ['records', 'raw'] as const) {
      const text = Array.from({ length: 400 }, (_, i) => recordLine(lineInput(i, r), level, units)).join('\n') + '\n';
      const file = path.join(dir, `${level}.jsonl`);
      fs.writeFileSync(file, text);
      const got = readRecordColumns(file, 33_000_000_000_000);
      expect(got).toEqual(reference(text, 33_000_000_000_000));
      expect(got!.errorType).toContain('sse-error');
      // Every line took the fast path ('sse-error' is not \w+: that one's error type goes through JSON.parse).
      const fast = text
        .trim()
        .split('\n')
        .filter((l) => pushFast(emptyRecordColumns(), l, 0)).length;
      expect(fast).toBe(
        text
          .trim()
          .split('\n')
          .filter((l) => !l.includes('"type":"sse-error"')).length,
      );
      expect(got!.ttft_ms.some((v) => v === null)).toBe(true);
    }
  });

  it('reads lines in other shapes (keys reordered, spaces) through JSON.parse', () => {
    const lines = [
      '{"start_ns": 5000000000, "end_ns": 7000000000, "phase": "profiling", "status": "ok", "error": null, "metrics": {"request_latency": {"value": 2000}}}',
      '{"phase":"profiling","x_request_id":"a","start_ns":1,"end_ns":2,"status":"error","error":{"message":"x","type":"timeout"},"metrics":{}}',
    ];
    const text = lines.join('\n');
    const file = path.join(dir, 'other.jsonl');
    fs.writeFileSync(file, text);
    expect(readRecordColumns(file, 0)).toEqual(reference(text, 0));
    for (const l of lines) expect(pushFast(emptyRecordColumns(), l, 0)).toBe(false);
  });

  it('reads a file of many chunks, with characters split across chunk ends', () => {
    const r = rng(5);
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 3.5 * (1 << 20); i++) {
      const l = recordLine(lineInput(i, r), 'raw', units);
      lines.push(l);
      size += Buffer.byteLength(l) + 1;
    }
    const text = lines.join('\n');
    const file = path.join(dir, 'big.jsonl');
    fs.writeFileSync(file, text);
    expect(readRecordColumns(file, 0)).toEqual(reference(text, 0));
  });

  it('reads lines longer than a read chunk (a raw payload of megabytes), between short ones', () => {
    const r = rng(9);
    const lines: string[] = [];
    for (let i = 0; i < 12; i++) {
      const input = lineInput(i, r);
      // Lines of 0.2 to 2.6 MB: one spans up to 40 of the reader's 64 KiB chunks.
      if (i % 3 === 1) (input.raw as { event_data: string[] }).event_data = ['東京 😀 '.repeat(20_000 + 100_000 * (i % 4)), '[DONE]'];
      lines.push(recordLine(input, 'raw', units));
    }
    const text = lines.join('\n') + '\n';
    const file = path.join(dir, 'long-lines.jsonl');
    fs.writeFileSync(file, text);
    const got = readRecordColumns(file, 0);
    expect(got).toEqual(reference(text, 0));
    expect(got?.start_s.length).toBe(12);
  });

  it('names the file and line of a line that is not JSON; null for no file', () => {
    const r = rng(3);
    const file = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(
      file,
      recordLine(lineInput(1, r), 'records', units) + '\n' + recordLine(lineInput(2, r), 'records', units).slice(0, -40) + '\n',
    );
    expect(() => readRecordColumns(file, 0)).toThrow(/bad\.jsonl:2: not valid JSON/);
    expect(readRecordColumns(path.join(dir, 'absent.jsonl'), 0)).toBeNull();
  });
});

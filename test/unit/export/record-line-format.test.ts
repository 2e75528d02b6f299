// records.jsonl must not change by a byte: the line writer (export/records.ts, record-numbers.ts) is
// checked against the formatter it replaced (JSON.stringify of values rounded to 12 digits, kept
// below as the reference), on random and edge values and on varied records.
import { describe, expect, it } from 'vitest';
import { recordLine, type RecordLineInput, type UnitLookup } from '../../../src/export/records.js';
import { scaledList, scaledNumber } from '../../../src/export/record-numbers.js';
import { displayUnitOf } from '../../../src/metrics/catalogue.js';
import type { MetricValue } from '../../../src/model/processed-record.js';
import type { RecordError } from '../../../src/model/raw-record.js';
import { scrub } from '../../../src/secrets.js';

function refRound(v: number): number {
  return Math.abs(v) >= 1e-6 ? Number(v.toPrecision(12)) : v;
}

/** The formatter before this change, verbatim but for names. */
function refLine(rec: RecordLineInput, level: 'records' | 'raw', units: UnitLookup): string {
  const raw = rec.raw;
  const metrics: string[] = [];
  for (const [tag, value] of rec.metrics) {
    const u = units(tag);
    const scale = u?.scale ?? 1;
    const v = Array.isArray(value) ? value.map((x) => refRound(x * scale)) : refRound(value * scale);
    metrics.push(`${JSON.stringify(tag)}:{"value":${JSON.stringify(v)},"unit":${JSON.stringify(u?.unit ?? '')}}`);
  }
  const parts = [
    `"x_request_id":${JSON.stringify(raw.credit.x_request_id)}`,
    `"index":${raw.credit.index}`,
    `"phase":"${raw.credit.phase}"`,
    `"credit_issued_ns":${raw.credit.credit_issued_ns}`,
    `"targeted_start_ns":${raw.credit.targeted_start_ns ?? 'null'}`,
    `"start_ns":${raw.start_ns}`,
    `"end_ns":${raw.end_ns}`,
    `"last_content_ns":${rec.metric_input.last_content_ns ?? 'null'}`,
    `"status":"${rec.status}"`,
    `"error":${rec.error === null ? 'null' : JSON.stringify({ ...rec.error, message: scrub(rec.error.message) })}`,
    `"http_status":${raw.http_status ?? 'null'}`,
    `"bytes_sent":${raw.bytes_sent}`,
    `"bytes_received":${raw.bytes_received}`,
    `"streaming":${raw.streaming}`,
    `"max_tokens":${raw.credit.turn.max_tokens ?? 'null'}`,
    `"finish_reason":${rec.finish_reason === null ? 'null' : JSON.stringify(scrub(rec.finish_reason))}`,
    `"metrics":{${metrics.join(',')}}`,
  ];
  const t = raw.credit.target;
  if (t !== undefined)
    parts.splice(parts.length - 1, 0, `"url":${JSON.stringify(scrub(t.url))}`, `"model":${JSON.stringify(scrub(t.model))}`);
  if (level === 'raw') {
    parts.push(`"chunk_ns":[${raw.event_ns.join(',')}]`);
    if (raw.sent_ns) parts.push(`"sent_ns":[${raw.sent_ns.join(',')}]`);
    const payloads = raw.streaming ? raw.event_data : raw.body === null ? [] : [raw.body];
    parts.push(`"payloads":${JSON.stringify(payloads.map(scrub))}`);
  }
  return `{${parts.join(',')}}`;
}

let seed = 12345;
const rnd = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;

/** Values of every shape a metric takes: whole ns of any size, fractions, tiny, huge, negative. */
function values(): number[] {
  const out = [
    0,
    -0,
    1,
    -1,
    2,
    5,
    10,
    999_999,
    1_000_000,
    1_000_001,
    1e12 - 1,
    -(1e12 - 1),
    1e12,
    1e12 + 1,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
  ];
  out.push(
    1e-6,
    9.99e-7,
    1e-7,
    5e-324,
    1.5e-6,
    0.1,
    0.2 + 0.1,
    1 / 3,
    2 / 3,
    123.456,
    1e21,
    1.7976931348623157e308,
    -1e-9,
    0.5,
    99.9999999999999,
  );
  out.push(NaN, Infinity, -Infinity);
  for (let i = 0; i < 20_000; i++) {
    const mag = 10 ** Math.floor(rnd() * 16);
    out.push(Math.floor(rnd() * mag)); // whole ns, 1 to 16 digits
    out.push(-Math.floor(rnd() * mag));
    out.push(rnd() * mag); // fractions (throughputs, ratios)
    out.push((rnd() - 0.5) * 10 ** (rnd() * 40 - 20)); // tiny to huge, both signs
  }
  return out;
}

describe('record numbers', () => {
  it('scaledNumber writes what JSON.stringify(round(x * scale)) wrote, for every scale a unit has', () => {
    const xs = values();
    for (const scale of [1e-6, 1, 1e-9, 1e3, 100]) {
      const bad = xs.filter((x) => scaledNumber(x, scale) !== JSON.stringify(refRound(x * scale)));
      expect(bad.slice(0, 5), `scale ${scale}`).toEqual([]);
    }
  });

  it('scaledList writes the JSON array of rounded values', () => {
    const xs = values().slice(0, 5000);
    expect(scaledList(xs, 1e-6)).toBe(JSON.stringify(xs.map((x) => refRound(x * 1e-6))));
    expect(scaledList([7], 1)).toBe('[7]');
    expect(scaledList(new Float64Array([1_500_000, 2]), 1e-6)).toBe('[1.5,0.000002]');
  });
});

function record(i: number): RecordLineInput {
  const start = 10n ** 15n + BigInt(i) * 7_777_777n;
  const metrics = new Map<string, MetricValue>();
  const pick = values();
  const n = (): number => pick[Math.floor(rnd() * pick.length)];
  // Real tags (ms, tokens, tokens/s, %, bytes) and one the catalogue does not know (no unit, scale 1).
  metrics.set('time_to_first_token', Math.floor(rnd() * 1e9));
  metrics.set('request_latency', n());
  metrics.set('output_sequence_length', Math.floor(rnd() * 4096));
  metrics.set('output_token_throughput_per_user', rnd() * 1000);
  metrics.set(
    'inter_chunk_latency',
    Array.from({ length: 1 + Math.floor(rnd() * 200) }, () => (rnd() < 0.1 ? n() : Math.floor(rnd() * 3e6))),
  );
  metrics.set('not_a_catalogue_metric', n());
  const error: RecordError | null = i % 3 === 0 ? { type: 'http_5xx', message: `HTTP 500: "quoted" \\ ü ${i}`, http_status: 500 } : null;
  return {
    raw: {
      credit: {
        x_request_id: i % 5 === 0 ? `id "${i}" \u2028` : `r-${i}`,
        index: i,
        phase: i % 4 === 0 ? 'warmup' : 'profiling',
        credit_issued_ns: start - 10n,
        targeted_start_ns: i % 2 === 0 ? null : start - 5n,
        turn: { max_tokens: i % 2 === 0 ? null : 128 },
        ...(i % 7 === 0 ? { target: { url: `http://h${i}:8000/v1`, model: `m-"${i}"` } } : {}),
      },
      start_ns: start,
      end_ns: start + 123_456_789n,
      http_status: i % 6 === 0 ? null : 200,
      bytes_sent: 300 + i,
      bytes_received: 40_000 + i,
      streaming: i % 8 !== 1,
      event_ns: [start + 1n, start + 2n],
      event_data: ['{"a":1}', '[DONE]'],
      body: i % 8 === 1 ? '{"body":"x"}' : null,
      ...(i % 9 === 0 ? { sent_ns: [start, start + 3n] } : {}),
    },
    metric_input: { last_content_ns: i % 10 === 0 ? null : start + 100n },
    status: error ? 'error' : i % 11 === 0 ? 'cancelled' : 'ok',
    error,
    finish_reason: [null, 'stop', 'length', 'end_turn', 'odd "quoted" \\ ü \u2028'][i % 5],
    metrics: i % 13 === 0 ? new Map() : metrics,
  };
}

describe('recordLine', () => {
  it('is byte for byte the previous formatter, at both levels, for varied records', () => {
    const units: UnitLookup = (t) => displayUnitOf(t);
    for (let i = 0; i < 400; i++) {
      const rec = record(i);
      for (const level of ['records', 'raw'] as const) expect(recordLine(rec, level, units)).toBe(refLine(rec, level, units));
    }
  });

  it('a lookup that names other units gets its own formats', () => {
    const rec = record(1);
    const sec: UnitLookup = () => ({ unit: 's', scale: 1e-9 });
    expect(recordLine(rec, 'records', sec)).toBe(refLine(rec, 'records', sec));
    expect(recordLine(rec, 'records', displayUnitOf)).toBe(refLine(rec, 'records', displayUnitOf));
  });
});

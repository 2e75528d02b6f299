import { describe, expect, it } from 'vitest';
import { computeRecordMetrics } from '../../../../src/metrics/record-metrics.js';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { tracePhases } from '../../../../src/metrics/families/http-trace.js';
import { findMetric } from '../../../../src/metrics/core/summary.js';
import { PERCENTILES } from '../../../../src/metrics/core/stats.js';
import { renderConsole } from '../../../../src/export/console.js';
import type { HttpTrace } from '../../../../src/model/raw-record.js';
import { captureWarnings } from '../../../helpers/warnings.js';
import { catalogueProcessed, catalogueRecord } from '../catalogue-fixtures.js';
import { MS } from '../fixtures.js';

const warnings = captureWarnings();

describe('network-adjusted latencies', () => {
  // TTFTs 10, 20, 30, 40 ms; latencies (to the last content chunk) 100 ms more; last byte 10 ms after that.
  const records = [10, 20, 30, 40].map((t, i) => catalogueProcessed({ tokens: [t, t + 100], end: t + 110 }, {}, { index: i }));

  it('shift avg, min, max and every percentile by the RTT; std and count unchanged; raw metrics kept', () => {
    const s = summarize(records, { metricOptions: { network_rtt_ns: 5 * MS } });
    for (const [src, adj] of [
      ['time_to_first_token', 'network_adjusted_time_to_first_token'],
      ['time_to_first_output_token', 'network_adjusted_time_to_first_output_token'],
      ['request_latency', 'network_adjusted_request_latency'],
    ]) {
      const a = findMetric(s, src);
      const b = findMetric(s, adj);
      if (a?.kind !== 'distribution' || b?.kind !== 'distribution') throw new Error(`missing ${src}/${adj}`);
      expect(b.stats.avg).toBeCloseTo(a.stats.avg - 5 * MS, 3);
      expect(b.stats.min).toBeCloseTo(a.stats.min - 5 * MS, 3);
      expect(b.stats.max).toBeCloseTo(a.stats.max - 5 * MS, 3);
      for (const p of PERCENTILES) expect(b.stats[`p${p}`]).toBeCloseTo(a.stats[`p${p}`] - 5 * MS, 3);
      expect(b.stats.std).toBe(a.stats.std);
      expect(b.stats.count).toBe(a.stats.count);
      expect(b.display).toBe('ms');
    }
    expect(findMetric(s, 'network_rtt')?.kind === 'single' && findMetric(s, 'network_rtt')!.stats.avg).toBe(5 * MS);
    // Adjusted rows sit right after their source.
    const tags = s.metrics.map((m) => m.tag);
    expect(tags.indexOf('network_adjusted_time_to_first_token')).toBe(tags.indexOf('time_to_first_token') + 1);
    // Intra-stream gaps are not adjusted.
    expect(tags.some((t) => t.startsWith('network_adjusted_inter'))).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('clamps at 0 and warns when the RTT exceeds some latencies', () => {
    const s = summarize(records, { metricOptions: { network_rtt_ns: 25 * MS } });
    const b = findMetric(s, 'network_adjusted_time_to_first_token');
    if (b?.kind !== 'distribution') throw new Error('missing');
    expect(b.stats.min).toBe(0);
    expect(b.stats.max).toBeCloseTo(15 * MS, 3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('network_adjusted_time_to_first_token');
    expect(warnings[0]).not.toContain('network_adjusted_request_latency');
  });

  it('no RTT: no adjusted metrics', () => {
    const s = summarize(records);
    expect(s.metrics.some((m) => m.tag.startsWith('network_'))).toBe(false);
  });
});

describe('HTTP trace phases', () => {
  const T = 1_000_000_000n;
  const ms = (x: number) => T + BigInt(Math.round(x * MS));
  const fresh: HttpTrace = {
    connection_reused: false,
    connect_start_ns: ms(1),
    dns_end_ns: ms(3),
    connect_end_ns: ms(6),
    send_start_ns: ms(6.5),
    send_end_ns: ms(7),
    first_byte_ns: ms(40),
    bytes_sent: 900,
    bytes_received: 5000,
    chunks_sent: 2,
    chunks_received: 12,
  };

  it('a fresh connection: blocked, dns, connecting, sending, waiting, receiving tile the request', () => {
    const r = catalogueRecord({ start: T, tokens: [45], end: 100 }, { trace: fresh });
    const m = computeRecordMetrics(r);
    expect(m.get('http_req_blocked')).toBe(1 * MS);
    expect(m.get('http_req_dns_lookup')).toBe(2 * MS);
    // Connecting runs to the moment the request can be written on the new connection.
    expect(m.get('http_req_connecting')).toBe(3.5 * MS);
    expect(m.get('http_req_sending')).toBe(0.5 * MS);
    expect(m.get('http_req_waiting')).toBe(33 * MS);
    expect(m.get('http_req_receiving')).toBe(60 * MS);
    // The trace runs to the last byte (end_ns); request_latency ends at the content chunk at 45 ms.
    expect(m.get('http_req_total')).toBe(100 * MS);
    expect(m.get('request_latency')).toBe(45 * MS);
    expect(m.get('http_req_duration')).toBe(93.5 * MS);
    expect(m.get('http_req_connection_overhead')).toBe(6.5 * MS);
    expect(m.get('http_req_connection_reused')).toBe(0);
    expect(m.get('http_req_data_sent')).toBe(900);
    expect(m.get('http_req_data_received')).toBe(5000);
    expect(m.get('http_req_chunks_sent')).toBe(2);
    expect(m.get('http_req_chunks_received')).toBe(12);
    const p = tracePhases(r)!;
    expect(p.blocked + p.dns + p.connecting + p.sending + p.waiting + p.receiving).toBe(p.total);
  });

  it('a reused connection has no dns or connecting; blocked runs to the send', () => {
    const reused: HttpTrace = { ...fresh, connection_reused: true, connect_start_ns: null, dns_end_ns: null, connect_end_ns: null };
    const m = computeRecordMetrics(catalogueRecord({ start: T, tokens: [45], end: 100 }, { trace: reused }));
    expect(m.get('http_req_blocked')).toBe(6.5 * MS);
    expect(m.get('http_req_dns_lookup')).toBe(0);
    expect(m.get('http_req_connecting')).toBe(0);
    expect(m.get('http_req_connection_reused')).toBe(1);
    expect(m.get('http_req_total')).toBe(100 * MS);
  });

  it('out-of-order stamps never make a phase negative, and the sum still equals the total', () => {
    const odd: HttpTrace = { ...fresh, dns_end_ns: ms(0.5), first_byte_ns: ms(5) };
    const p = tracePhases(catalogueRecord({ start: T, tokens: [45], end: 100 }, { trace: odd }))!;
    for (const v of Object.values(p)) expect(v).toBeGreaterThanOrEqual(0);
    expect(p.blocked + p.dns + p.connecting + p.sending + p.waiting + p.receiving).toBe(p.total);
  });

  it('no trace, or no response stamps: no phase values', () => {
    expect(computeRecordMetrics(catalogueRecord({ tokens: [1] })).has('http_req_total')).toBe(false);
    const partial = computeRecordMetrics(catalogueRecord({ tokens: [1] }, { trace: { ...fresh, first_byte_ns: null } }));
    expect(partial.has('http_req_waiting')).toBe(false);
    expect(partial.get('http_req_data_sent')).toBe(900);
  });

  it('the console shows the trace table only when asked; chunk counts never', () => {
    const s = summarize([catalogueProcessed({ start: T, tokens: [45], end: 100 }, { trace: fresh })]);
    expect(renderConsole(s)).not.toContain('HTTP Trace Metrics');
    const shown = renderConsole(s, { showTraceTiming: true });
    expect(shown).toContain('HTTP Trace Metrics');
    expect(shown).toContain('HTTP Waiting (TTFB) (ms)');
    expect(shown).not.toContain('HTTP Chunks');
    expect(shown.indexOf('HTTP Trace Metrics')).toBeGreaterThan(shown.indexOf('LLM Metrics'));
  });
});

describe('ITL with --per-chunk-usage', () => {
  // TTFT 50 ms, latency 150 ms (the last content chunk; the last byte at 160 ms): a 100 ms decode window; OSL 21.
  const spec = { tokens: [50, 100, 150], end: 160, output: 21 };

  it('default: one token assumed in the first chunk', () => {
    expect(computeRecordMetrics(catalogueRecord(spec)).get('inter_token_latency')).toBe((100 * MS) / 20);
  });

  it('the server-reported first-chunk count replaces the assumed 1', () => {
    const m = computeRecordMetrics(catalogueRecord(spec, { first_chunk_tokens: 5 }));
    expect(m.get('inter_token_latency')).toBe((100 * MS) / 16);
    expect(m.get('output_token_throughput_per_user')).toBeCloseTo(160, 9);
    expect(warnings).toEqual([]);
  });

  it('a count inconsistent with OSL degrades to OSL − 1 with one warning', () => {
    for (const n of [21, 30, 0]) {
      expect(computeRecordMetrics(catalogueRecord(spec, { first_chunk_tokens: n })).get('inter_token_latency')).toBe((100 * MS) / 20);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('--per-chunk-usage');
  });
});

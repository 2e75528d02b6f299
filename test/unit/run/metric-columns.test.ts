// A batch's metrics cross back from a record worker as typed columns (run/pipeline/metric-columns.ts): each
// record's metrics read back (RecordMetrics, a Map's reads) with the same tags, order and values, after a
// real structured clone.
import { describe, expect, it } from 'vitest';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { MetricColumnsWriter, RecordMetrics, internTags, type MetricColumns } from '../../../src/run/pipeline/metric-columns.js';
import type { MetricValue } from '../../../src/model/processed-record.js';

/** Through a MessagePort, as postMessage clones a worker's result. */
function cloned(c: MetricColumns): MetricColumns {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(c);
  const got = receiveMessageOnPort(port2)?.message as MetricColumns;
  port1.close();
  return got;
}

describe('metric columns', () => {
  it('give back each record its own metrics: scalars, lists, edge values, empty rows, tags in each record’s order', () => {
    let seed = 3;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const tags = ['time_to_first_token', 'inter_chunk_latency', 'output_sequence_length', 'error_isl', 'x'];
    const edge = [0, -0, 1e-300, -5e-324, 2 ** 53 + 2, 1.7976931348623157e308, 1 / 3, -123.5];
    const maps: (Map<string, MetricValue> | null)[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 17 === 0) {
        maps.push(i % 34 === 0 ? null : new Map());
        continue;
      }
      const m = new Map<string, MetricValue>();
      // Tags in a different order per record, some absent.
      for (const t of [...tags].sort(() => rnd() - 0.5)) {
        if (rnd() < 0.2) continue;
        m.set(
          t,
          t === 'inter_chunk_latency'
            ? Array.from({ length: 1 + Math.floor(rnd() * 150) }, () => (rnd() < 0.1 ? edge[Math.floor(rnd() * edge.length)] : rnd() * 1e7))
            : edge[i % edge.length],
        );
      }
      maps.push(m);
    }
    const w = new MetricColumnsWriter();
    for (const m of maps) w.add(m);
    const batch = internTags(cloned(w.finish()));
    maps.forEach((m, i) => {
      const want = m ?? new Map<string, MetricValue>();
      const got = new RecordMetrics(batch, i);
      expect(got.size).toBe(want.size);
      expect([...got.keys()]).toEqual([...want.keys()]);
      expect([...got]).toStrictEqual([...want]);
      expect([...got.values()]).toStrictEqual([...want.values()]);
      const seen: [string, MetricValue][] = [];
      got.forEach((v, k) => seen.push([k, v]));
      expect(seen).toStrictEqual([...want]);
      for (const t of [...tags, 'never']) {
        expect(got.has(t), `record ${i} has ${t}`).toBe(want.has(t));
        expect(got.get(t), `record ${i} ${t}`).toStrictEqual(want.get(t));
      }
    });
    // -0 survives (Object.is).
    const z = new MetricColumnsWriter();
    z.add(new Map([['a', -0]]));
    expect(Object.is(new RecordMetrics(cloned(z.finish()), 0).get('a'), -0)).toBe(true);
  });
});

// A batch's metrics cross back from a record worker as typed columns (run/metric-columns.ts): each
// record's Map comes back with the same tags, order and values, after a real structured clone.
import { describe, expect, it } from 'vitest';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { MetricColumnsWriter, metricsAt, type MetricColumns } from '../../../src/run/metric-columns.js';
import type { MetricValue } from '../../../src/records/types.js';

/** Through a MessagePort, as postMessage clones a worker's result. */
function cloned(c: MetricColumns): MetricColumns {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(c);
  const got = receiveMessageOnPort(port2)?.message as MetricColumns;
  port1.close();
  return got;
}

describe('metric columns', () => {
  it('give back each record its own Map: scalars, lists, edge values, empty rows, tags in each record’s order', () => {
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
    const c = cloned(w.finish());
    maps.forEach((m, i) => {
      const got = metricsAt(c, i);
      expect([...got.keys()]).toEqual([...(m ?? new Map<string, MetricValue>()).keys()]);
      for (const [t, v] of m ?? []) expect(got.get(t), `record ${i} ${t}`).toStrictEqual(v);
    });
    // -0 survives (Object.is).
    const z = new MetricColumnsWriter();
    z.add(new Map([['a', -0]]));
    expect(Object.is(metricsAt(cloned(z.finish()), 0).get('a'), -0)).toBe(true);
  });
});

// Each server's documented metric names (fixture scrapes in test/fixtures/server-metrics/) mapped to
// the common concepts. Two scrapes a second apart: the first with every value halved, so counters
// and histograms have a known increase over [0 s, 1 s]; gauges are read over [1 s, 2 s] at the full value.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpointVendor, readConcepts, type ConceptSummary } from '../../../src/server-metrics/concepts.js';
import { SeriesTable } from '../../../src/server-metrics/series.js';

const S = 1_000_000_000n;

function load(vendor: string): SeriesTable {
  const text = fs.readFileSync(new URL(`../../fixtures/server-metrics/${vendor}.prom`, import.meta.url), 'utf8');
  const half = text
    .split('\n')
    .map((l) => (l.startsWith('#') || l.trim() === '' ? l : l.replace(/ (\S+)$/, (_, v: string) => ` ${Number(v) / 2}`)))
    .join('\n');
  const t = new SeriesTable();
  t.addText(0n, half);
  t.addText(S, text);
  t.addText(2n * S, text);
  return t;
}

function concepts(vendor: string): Map<string, ConceptSummary> {
  const t = load(vendor);
  const out = new Map<string, ConceptSummary>();
  for (const c of readConcepts(t, { start_ns: 0n, end_ns: S }))
    if (c.counter || c.histogram || c.value !== undefined) out.set(c.concept, c);
  for (const c of readConcepts(t, { start_ns: S, end_ns: 2n * S })) if (c.gauge) out.set(c.concept, c);
  return out;
}

type Expect = Record<string, number>;
const HIST = { ttft: 0.04, itl: 0.005, e2e_latency: 0.5 };
const EXPECTED: Record<string, Expect> = {
  vllm: {
    requests_running: 4,
    requests_waiting: 2,
    kv_cache_usage: 25,
    prefix_cache_hit_rate: 10,
    preemptions: 0.5,
    prompt_tokens: 2500,
    generation_tokens: 1000,
    ...HIST,
    queue_time: 0.15,
  },
  sglang: {
    requests_running: 4,
    requests_waiting: 2,
    kv_cache_usage: 28,
    prefix_cache_hit_rate: 50,
    prompt_tokens: 8128902 / 2,
    generation_tokens: 7557572 / 2,
    requests_finished: 50,
    ...HIST,
  },
  trtllm: { kv_cache_usage: 25, prefix_cache_hit_rate: 50, requests_finished: 77.5, ...HIST, queue_time: 0.15 },
  llamacpp: { requests_running: 4, requests_waiting: 2, kv_cache_usage: 25, prompt_tokens: 2500, generation_tokens: 1000 },
  tgi: {
    requests_running: 4,
    requests_waiting: 2,
    prompt_tokens: 2500,
    generation_tokens: 1000,
    requests_finished: 50,
    itl: 0.005,
    e2e_latency: 0.5,
    queue_time: 0.15,
  },
  dynamo: {
    requests_running: 4,
    requests_waiting: 2,
    kv_cache_usage: 25,
    prefix_cache_hit_rate: 50,
    prompt_tokens: 2500,
    generation_tokens: 1000,
    requests_finished: 50,
    ...HIST,
  },
};

function valueOf(c: ConceptSummary): number {
  if (c.gauge) return c.gauge.avg;
  if (c.counter) return c.counter.increase;
  if (c.histogram) return c.histogram.p50!.value;
  return c.value!;
}

describe('vendor mapping from fixture scrapes', () => {
  for (const [vendor, expected] of Object.entries(EXPECTED)) {
    it(`${vendor}: detected, and every documented concept read`, () => {
      expect(endpointVendor(load(vendor))).toBe(vendor);
      const got = concepts(vendor);
      expect([...got.keys()].sort()).toEqual(Object.keys(expected).sort());
      for (const [id, v] of Object.entries(expected)) {
        expect(valueOf(got.get(id)!), `${vendor} ${id}`).toBeCloseTo(v, 6);
        expect(got.get(id)!.vendor).toBe(vendor);
      }
    });
  }

  it('states the bucket each histogram percentile fell in', () => {
    const ttft = concepts('vllm').get('ttft')!.histogram!;
    expect(ttft.p50!.bucket).toEqual([0.02, 0.04]);
    expect(ttft.count).toBe(10);
    expect(ttft.mean).toBeCloseTo(0.04, 9);
  });
});

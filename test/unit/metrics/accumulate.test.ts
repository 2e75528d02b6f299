// The summary built a record at a time (src/metrics/accumulate.ts): what a run knows only at its
// end (the measurement window, the network RTT) may come at finish() and gives the summary it gives
// up front; and a record added is let go: nothing of it but numbers stays, whatever the options.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SummaryAccumulator, summarize } from '../../../src/metrics/accumulate.js';
import { computeRecordMetrics } from '../../../src/metrics/record-metrics.js';
import { registryFor } from '../../../src/metrics/conventions.js';
import type { MetricOptions } from '../../../src/metrics/core/options.js';
import type { MetricsSummary } from '../../../src/metrics/core/summary.js';
import type { ProcessedRecord } from '../../../src/model/processed-record.js';
import { MS, processed } from './fixtures.js';

const T0 = 100_000_000_000n;
const at = (ms: number) => T0 + BigInt(Math.round(ms * MS));

/** Records of every status and phase, spread over 3 s, with block hashes and replay targets on some. */
function records(n: number, convention: 'aiperf' | 'guidellm' = 'aiperf'): ProcessedRecord[] {
  const out: ProcessedRecord[] = [];
  for (let i = 0; i < n; i++) {
    const status = i % 11 === 3 ? 'error' : i % 13 === 5 ? 'cancelled' : 'ok';
    const phase = i % 17 === 0 ? 'warmup' : 'profiling';
    const tokens = Array.from({ length: 2 + (i % 7) }, (_, k) => 50 + k * (5 + (i % 5)));
    const r = processed(
      {
        start: at((i * 3000) / n),
        tokens: status === 'ok' ? tokens : [],
        end: 100 + (i % 9) * 10,
        input: 10 + (i % 4),
        output: tokens.length,
      },
      { status, phase, index: i },
    );
    if (convention !== 'aiperf') r.metrics = computeRecordMetrics(r.metric_input, registryFor(convention));
    if (i % 3 === 0) r.raw.credit.turn.hash_ids = [i % 5, (i + 1) % 5, 100 + i];
    if (i % 4 === 0) {
      r.raw.credit.targeted_start_ns = r.raw.start_ns - BigInt((i % 6) * 1000);
      r.raw.credit.trace_timestamp_ms = i;
    }
    out.push(r);
  }
  return out;
}

/** The summary as the exports show it: the metric results and counts (histograms are native objects). */
function shown(s: MetricsSummary) {
  return { metrics: s.metrics, counts: s.counts, conventions: s.conventions, pooled: s.pooled_spec_decode_acceptance_histogram };
}

/** Adds the records in a frame of its own: a suspended async test would keep its last loop value alive. */
function feed(acc: SummaryAccumulator, recs: ProcessedRecord[]): void {
  for (const r of recs) acc.add(r);
}

describe('SummaryAccumulator', () => {
  it('takes the window and the network RTT at finish, as summarize takes them up front', () => {
    const recs = records(400, 'guidellm');
    const window = { start_ns: at(800), end_ns: at(2200) };
    const options: MetricOptions = {
      convention: 'guidellm',
      goodput: [{ tag: 'time_to_first_token', threshold: 60 * MS, largerIsBetter: false }],
    };
    const upFront = summarize(recs, { metricOptions: { ...options, measurement_window: window, network_rtt_ns: 2 * MS } });
    const acc = new SummaryAccumulator({ metricOptions: options });
    for (const r of recs) acc.add(r);
    const atEnd = acc.finish({ measurement_window: window, network_rtt_ns: 2 * MS });
    expect(shown(atEnd)).toEqual(shown(upFront));
    // The window mattered: without it the event-level distributions hold more values.
    const open = summarize(recs, { metricOptions: options });
    const count = (s: MetricsSummary) => {
      const m = s.metrics.find((x) => x.tag === 'time_to_first_token');
      return m?.kind === 'distribution' ? m.stats.count : -1;
    };
    expect(count(open)).toBeGreaterThan(count(atEnd));
    expect(count(atEnd)).toBeGreaterThan(0);
  });

  it('gives the same comparison under --convention all, record by record', () => {
    const recs = records(200);
    const all = summarize(recs, { metricOptions: { convention: 'all' } });
    expect(all.conventions?.rows.length).toBeGreaterThan(0);
    const acc = new SummaryAccumulator({ metricOptions: { convention: 'all' } });
    for (const r of recs) acc.add(r);
    expect(shown(acc.finish())).toEqual(shown(all));
  });

  // A run adds its records as they finish and drops them: a one-hour run must not hold them all.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;

  const cases: [string, SummaryAccumulator, ProcessedRecord[]][] = [
    ['default options', new SummaryAccumulator(), records(300)],
    ['guidellm, window at the end', new SummaryAccumulator({ metricOptions: { convention: 'guidellm' } }), records(300, 'guidellm')],
    [
      'convention all, goodput SLOs',
      new SummaryAccumulator({
        metricOptions: { convention: 'all', goodput: [{ tag: 'request_latency', threshold: 200 * MS, largerIsBetter: false }] },
      }),
      records(300),
    ],
  ];
  for (const [name, acc, recs] of cases) {
    it(`keeps no record once added (${name})`, async () => {
      const refs = recs.map((r) => new WeakRef(r));
      const metricRefs = recs.map((r) => new WeakRef(r.metrics));
      feed(acc, recs.splice(0));
      // WeakRefs hold their targets until the current job ends. In CI one full GC once left one
      // record of 300 (cause not found); so up to three turns with a GC each, while a record still
      // referenced survives any number of them (the control below).
      for (let turn = 0; turn < 3 && refs.some((r) => r.deref() !== undefined); turn++) {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
      }
      expect(refs.map((r, i) => (r.deref() === undefined ? -1 : i)).filter((i) => i >= 0)).toEqual([]);
      expect(metricRefs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
      // And the summary is still whole.
      const s = acc.finish({ measurement_window: { start_ns: at(500), end_ns: null } });
      expect(s.counts.issued).toBeGreaterThan(250);
      expect(s.metrics.find((m) => m.tag === 'request_latency')).toBeDefined();
    });
  }

  it('a control: a record still referenced is not collected (the check above can fail)', async () => {
    const kept = records(10);
    const refs = kept.map((r) => new WeakRef(r));
    const acc = new SummaryAccumulator();
    for (const r of kept) acc.add(r);
    for (let turn = 0; turn < 3; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(10);
    expect(kept).toHaveLength(10);
  });
});

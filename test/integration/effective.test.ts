// The worked example of AIPerf's "Effective vs Active Metrics" brief
// (https://docs.nvidia.com/aiperf/reference/effective-vs-active-metrics)
// against the built-in mock: TTFT 100 ms, ITL 20 ms, 16 concurrent, 200 requests, ISL 200, OSL 100.
// The brief's run took 27.06 s and reported (avg): effective decode concurrency 14.63, effective
// prefill throughput 1,477.97 tok/s, effective decode throughput 726.33 tok/s, active prefill
// throughput 28,140.81 tok/s.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJson, readJsonl, runCli, tmpDir } from '../helpers/cli.js';

describe('the worked example of the time-weighted brief', () => {
  let dir: string;
  let result: Awaited<ReturnType<typeof runCli>>;
  let metrics: Record<string, { unit: string; avg: number; p50: number; p90: number; p99: number; max: number }>;
  let records: any[];

  beforeAll(async () => {
    dir = tmpDir();
    // ~27 s of requests (13 rounds of ~2.08 s), plus start-up.
    result = await runCli(
      [
        'profile',
        '--mock-ttft-ms',
        '100',
        '--mock-itl-ms',
        '20',
        '--concurrency',
        '16',
        '--request-count',
        '200',
        '--isl',
        '200',
        '--osl',
        '100',
        '--artifact-dir',
        dir,
        '--ui',
        'none',
      ],
      { timeoutMs: 120_000 },
    );
    metrics = readJson(path.join(dir, 'profile_export.json')).metrics;
    records = readJsonl(path.join(dir, 'records.jsonl')).filter((r) => r.phase === 'profiling');
  }, 150_000);

  it('runs and exports the Effective and Active metrics', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(records).toHaveLength(200);
    const out = result.stdout;
    expect(out.indexOf('Effective Metrics')).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('Effective Metrics')).toBeLessThan(out.indexOf('Active Metrics'));
    expect(out.indexOf('Active Metrics')).toBeLessThan(out.indexOf('Time to First Token (ms)'));
    expect(metrics.effective_decode_throughput).toMatchObject({ unit: 'tokens/s' });
    expect(Object.keys(metrics.active_prefill_throughput)).toEqual(['unit', 'avg', 'p50', 'p90', 'p95', 'p99', 'max']);
  });

  // The Effective averages are fixed amounts of work over the window: 200 × 1.98 s of decode,
  // 200 × 200 prompt tokens, 200 × 99 decode tokens (the first token is prefill's). Only the window
  // varies: each of the 13 rounds adds the client's dispatch time and the mock's timer lateness on
  // this 2-core machine (we measured 27.27 s with the machine busy, against the brief's 27.06 s;
  // an idle one gets closer). ±5 % covers a window up to ~1.4 s longer or shorter.
  it('effective decode concurrency, prefill and decode throughput match the brief within 5 %', () => {
    expect(metrics.effective_decode_concurrency.avg).toBeGreaterThan(14.63 * 0.95);
    expect(metrics.effective_decode_concurrency.avg).toBeLessThan(14.63 * 1.05);
    expect(metrics.effective_prefill_throughput.avg).toBeGreaterThan(1477.97 * 0.95);
    expect(metrics.effective_prefill_throughput.avg).toBeLessThan(1477.97 * 1.05);
    expect(metrics.effective_decode_throughput.avg).toBeGreaterThan(726.33 * 0.95);
    expect(metrics.effective_decode_throughput.avg).toBeLessThan(726.33 * 1.05);
    // As in the brief: 16 decoding most of the time, and no prefill at all for most of the run.
    expect(metrics.effective_decode_concurrency.p50).toBe(16);
    expect(metrics.effective_prefill_throughput.p50).toBe(0);
  });

  it("the Effective throughputs are the run's token totals over its window, exactly", () => {
    // Window: first credit to the last response (the end of the last request_latency: the last
    // content chunk), from the records themselves.
    const ns = (v: number | string) => Number(v);
    const t0 = Math.min(...records.map((r) => ns(r.credit_issued_ns)));
    const t1 = Math.max(...records.map((r) => ns(r.last_content_ns)));
    const seconds = (t1 - t0) / 1e9;
    const isl = records.reduce((n, r) => n + r.metrics.input_sequence_length.value, 0);
    const decoded = records.reduce((n, r) => n + r.metrics.output_sequence_length.value - 1, 0);
    expect(metrics.effective_prefill_throughput.avg).toBeCloseTo(isl / seconds, 3);
    expect(metrics.effective_decode_throughput.avg).toBeCloseTo(decoded / seconds, 3);
  });

  // Active prefill throughput is the prompt tokens over the time at least one request was in
  // prefill, so it measures how many prefills overlap. The brief's 28.1k tok/s is ~14 of the 16
  // (each 200 tokens / ~0.1 s) in lock step. Here the 16 closed-loop workers drift apart round after
  // round (each round's dispatch and the mock's timers add a few ms to some workers, never taking
  // them back: we saw the starts of a round spread over 4 ms in round 1 and 200 ms by round 11), so
  // fewer prefills overlap and the figure is lower (13.0k, 8.9× the Effective figure, with the
  // machine busy). We check it against the records exactly, and against the brief only for what
  // survives the drift: well above the Effective figure (3×; fully random starts would give ~2×),
  // at most 16 × 2,000 tok/s, and a peak near the brief's in the first round, whose 16 requests all
  // start together (≥ 0.8 × 28.1k: at least ~12 prefills overlapping).
  it('active prefill throughput: the prompt tokens over the union of the prefill intervals', () => {
    const intervals = records
      .map((r) => [Number(r.start_ns), Number(r.start_ns) + r.metrics.time_to_first_token.value * 1e6] as const)
      .sort((a, b) => a[0] - b[0]);
    let busy = 0;
    let [lo, hi] = intervals[0];
    for (const [s, e] of intervals.slice(1)) {
      if (s > hi) {
        busy += hi - lo;
        [lo, hi] = [s, e];
      } else hi = Math.max(hi, e);
    }
    busy += hi - lo;
    const isl = records.reduce((n, r) => n + r.metrics.input_sequence_length.value, 0);
    // TTFT is exported in ms with full precision; 0.1 % covers rounding of the ns stamps in JSON.
    expect(metrics.active_prefill_throughput.avg / (isl / (busy / 1e9))).toBeCloseTo(1, 3);
    expect(metrics.active_prefill_throughput.avg).toBeGreaterThan(3 * metrics.effective_prefill_throughput.avg);
    expect(metrics.active_prefill_throughput.max).toBeLessThanOrEqual(16 * 2000 * 1.01);
    expect(metrics.active_prefill_throughput.max).toBeGreaterThan(28_140.81 * 0.8);
  });

  it('effective_latency >= request_latency on every record', () => {
    for (const r of records) {
      expect(r.metrics.effective_latency.value).toBeGreaterThanOrEqual(r.metrics.request_latency.value);
      // The difference is the credit's wait before the request was sent: start - credit issued.
      const wait = (Number(r.start_ns) - Number(r.credit_issued_ns)) / 1e6;
      expect(r.metrics.effective_latency.value - r.metrics.request_latency.value).toBeCloseTo(wait, 3);
    }
  });
});

// Golden tests of the native sweep line (native/timeline/timeline.cc through src/metrics/core/timeline.ts): small
// schedules computed by hand below, then randomised agreement with the plain JS sweep
// (bench/timeline-js.js), and bad arguments.
import { describe, expect, it } from 'vitest';
import {
  timeline,
  TIMELINE_ROWS,
  type TimelineColumns,
  type TimelineRow,
  type TimelineRowStats,
} from '../../../src/metrics/core/timeline.js';
import { NativeArgumentError } from '../../../src/errors.js';
import { native } from '../../../src/native.js';
import { jsTimeline } from '../../../bench/timeline-js.js';
import { rng } from '../../helpers/rng.js';

const S = 1e9; // the sweep works in ns; schedules are written in seconds

interface Req {
  s: number;
  g: number | null; // first token; null: none
  e: number;
  isl: number | null;
  osl: number | null;
}

function columns(reqs: Req[]): TimelineColumns {
  const col = (f: (r: Req) => number) => Float64Array.from(reqs, f);
  return {
    start: col((r) => r.s * S),
    generationStart: col((r) => (r.g === null ? NaN : r.g * S)),
    end: col((r) => r.e * S),
    isl: col((r) => r.isl ?? NaN),
    osl: col((r) => r.osl ?? NaN),
  };
}

type Expect = [avg: number, p50: number, p90: number, p95: number, p99: number, max: number];

function expectRow(row: TimelineRowStats, want: Expect, name: string) {
  const got = [row.avg, row.p50, row.p90, row.p95, row.p99, row.max];
  // Averages divide by the window; percentiles and maxima are attained values, so exact.
  expect(got[0], `${name} avg`).toBeCloseTo(want[0], 9);
  expect(got.slice(1), `${name} p50..max`).toEqual(want.slice(1));
}

describe('timeline: overlapping requests, a gap, zero-length phases, no first token', () => {
  // Window [0, 12] s.
  //   R1: start 0, first token 1, end 5, ISL 100, OSL 41: prefill 100/1 = 100 tok/s on [0, 1),
  //       decode (41 - 1)/4 = 10 tok/s on [1, 5); holds 100 tokens, then 141.
  //   R2: start 2 = first token (zero-length prefill: no prefill rate), end 4, ISL 50, OSL 21:
  //       decode 20/2 = 10 tok/s on [2, 4); holds 71.
  //   R3: start 0.5, no first token, end 6, ISL 275, OSL 0: in prefill for its whole life,
  //       275/5.5 = 50 tok/s on [0.5, 6), no decode; holds 275.
  //   R4: start 7, first token 7.5 = end (zero-length decode), ISL 200, OSL 1: prefill 400 tok/s on
  //       [7, 7.5), no decode; holds 200.
  // Segments (Δ in s; c/dc/pc concurrency, dt/pt decode/prefill tok/s, per-user, tokens in flight):
  //   #  span        Δ    c dc pc  dt   pt  total dpu  ppu  tif
  //   1  [0, 0.5)    0.5  1  0  1   0  100   100   0  100   100
  //   2  [0.5, 1)    0.5  2  0  2   0  150   150   0   75   375
  //   3  [1, 2)      1    2  1  1  10   50    60  10   50   416
  //   4  [2, 4)      2    3  2  1  20   50    70  10   50   487
  //   5  [4, 5)      1    2  1  1  10   50    60  10   50   416
  //   6  [5, 6)      1    1  0  1   0   50    50   0   50   275
  //   7  [6, 7)      1    0  0  0   0    0     0   0    0     0   (gap)
  //   8  [7, 7.5)    0.5  1  0  1   0  400   400   0  400   200
  //   9  [7.5, 12)   4.5  0  0  0   0    0     0   0    0     0
  // A percentile is the smallest value v with time(value <= v) >= q * (total time); with 12 s
  // the targets are 6, 10.8, 11.4 and 11.88 s.
  const reqs: Req[] = [
    { s: 0, g: 1, e: 5, isl: 100, osl: 41 },
    { s: 2, g: 2, e: 4, isl: 50, osl: 21 },
    { s: 0.5, g: null, e: 6, isl: 275, osl: 0 },
    { s: 7, g: 7.5, e: 7.5, isl: 200, osl: 1 },
  ];
  const r = timeline(columns(reqs), 0, 12 * S);
  const row = (name: TimelineRow) => r.rows[name];

  it('counts requests and segments', () => {
    expect(r.requests).toBe(4);
    expect(r.segments).toBe(9);
    expect(r.window_ns).toBe(12 * S);
  });

  it('concurrencies', () => {
    // c: Σ cΔ = .5 + 1 + 2 + 6 + 2 + 1 + .5 = 13 → 13/12. Time at 0: 5.5, at <=1: 7.5, <=2: 10, <=3: 12.
    expectRow(row('concurrency'), [13 / 12, 1, 3, 3, 3, 3], 'concurrency');
    // dc: Σ = 1 + 4 + 1 = 6 → 0.5. Time at 0: 8, <=1: 10, <=2: 12 (10 < 10.8 → p90 = 2).
    expectRow(row('decode_concurrency'), [0.5, 0, 2, 2, 2, 2], 'decode_concurrency');
    // pc: Σ = .5 + 1 + 1 + 2 + 1 + 1 + .5 = 7. Time at 0: 5.5 (< 6), <=1: 11.5, <=2: 12.
    expectRow(row('prefill_concurrency'), [7 / 12, 1, 1, 1, 2, 2], 'prefill_concurrency');
  });

  it('throughputs', () => {
    // dt: Σ = 10 + 40 + 10 = 60 → 5. Time at 0: 8, <=10: 10, <=20: 12.
    expectRow(row('decode_throughput'), [5, 0, 20, 20, 20, 20], 'decode_throughput');
    // pt: Σ = 50 + 75 + 50 + 100 + 50 + 50 + 200 = 575 = ISL of R1 + R3 + R4 (R2's prefill has no
    // length). Time at 0: 5.5, <=50: 10.5, <=100: 11, <=150: 11.5, <=400: 12.
    expectRow(row('prefill_throughput'), [575 / 12, 50, 100, 150, 400, 400], 'prefill_throughput');
    // total: Σ = 635. Time at 0: 5.5, <=50: 6.5, <=60: 8.5, <=70: 10.5, <=100: 11, <=150: 11.5.
    expectRow(row('total_throughput'), [635 / 12, 50, 100, 150, 400, 400], 'total_throughput');
  });

  it('per-user throughputs', () => {
    // dpu: 10 on segments 3-5 (4 s) → Σ 40. Time at 0: 8 (>= 6).
    expectRow(row('decode_throughput_per_user'), [40 / 12, 0, 10, 10, 10, 10], 'decode_throughput_per_user');
    // ppu: Σ = 50 + 37.5 + 50 + 100 + 50 + 50 + 200 = 537.5. Time at 0: 5.5, <=50: 10.5, <=75: 11,
    // <=100: 11.5, <=400: 12.
    expectRow(row('prefill_throughput_per_user'), [537.5 / 12, 50, 75, 100, 400, 400], 'prefill_throughput_per_user');
  });

  it('tokens in flight (ISL while in prefill, ISL + OSL while in decode)', () => {
    // Σ = 50 + 187.5 + 416 + 974 + 416 + 275 + 100 = 2418.5. Time at 0: 5.5, <=100: 6, <=200: 6.5,
    // <=275: 7.5, <=375: 8, <=416: 10, <=487: 12. p50 lands exactly on 6 s: at or below 100 for
    // exactly half the time, so p50 = 100.
    expectRow(row('tokens_in_flight'), [2418.5 / 12, 100, 487, 487, 487, 487], 'tokens_in_flight');
  });

  it('active rows average over the time their phase has a request in flight', () => {
    // Decode active on segments 3-5: 4 s; values 10 (2 s), 20 (2 s). p50 target 2 s: exactly the
    // time at 10, so p50 = 10.
    expect(row('active_decode_throughput').weight_ns).toBe(4 * S);
    expectRow(row('active_decode_throughput'), [15, 10, 20, 20, 20, 20], 'active_decode_throughput');
    expectRow(row('active_decode_throughput_per_user'), [10, 10, 10, 10, 10, 10], 'active_decode_throughput_per_user');
    // Prefill active on segments 1-6 and 8: 6.5 s; targets 3.25, 5.85, 6.175, 6.435 s.
    // pt: 50 (5 s), 100 (.5), 150 (.5), 400 (.5) → Σ 575.
    expect(row('active_prefill_throughput').weight_ns).toBe(6.5 * S);
    expectRow(row('active_prefill_throughput'), [575 / 6.5, 50, 150, 400, 400, 400], 'active_prefill_throughput');
    // ppu: 50 (5 s), 75 (.5), 100 (.5), 400 (.5) → Σ 537.5.
    expectRow(row('active_prefill_throughput_per_user'), [537.5 / 6.5, 50, 100, 400, 400, 400], 'active_prefill_throughput_per_user');
    // Any request in flight: the same 6.5 s; total 50 (1 s), 60 (2), 70 (2), 100, 150, 400 (.5 each).
    expect(row('active_total_throughput').weight_ns).toBe(6.5 * S);
    expectRow(row('active_total_throughput'), [635 / 6.5, 70, 150, 400, 400, 400], 'active_total_throughput');
  });

  it('effective rows weigh over the whole window', () => {
    for (const name of TIMELINE_ROWS.filter((n) => !n.startsWith('active_'))) expect(r.rows[name].weight_ns).toBe(12 * S);
  });

  it('does not depend on the order of the requests', () => {
    const shuffled = timeline(columns([reqs[2], reqs[0], reqs[3], reqs[1]]), 0, 12 * S);
    for (const name of TIMELINE_ROWS) {
      expect(shuffled.rows[name].avg).toBeCloseTo(r.rows[name].avg, 9);
      expect(shuffled.rows[name].p90).toBe(r.rows[name].p90);
    }
  });
});

describe('timeline: requests clipped by the window', () => {
  // Window [10, 20] s.
  //   R1: start 5, first token 12, end 15, ISL 700, OSL 31: prefill 700/7 = 100 tok/s (the whole
  //       phase, not its clipped part), counted on [10, 12); decode 30/3 = 10 tok/s on [12, 15).
  //   R2: start 18, first token 19, end 25, ISL 100, OSL 61: prefill 100 tok/s on [18, 19);
  //       decode 60/6 = 10 tok/s, counted on [19, 20).
  //   R3: [0, 8] and R4: [3, 10] end before the window (R4 exactly at its start): ignored.
  //   R5: start 8, first token 9, end 16, ISL 50, OSL 71: already in decode at 10; 70/7 = 10 tok/s
  //       on [10, 16); holds 121.
  //   R6: starts at 20, the window's end: ignored.
  // Segments:
  //   [10, 12) 2 s: R1 P, R5 D   c 2, dc 1, pc 1, dt 10, pt 100, tif 700 + 121 = 821
  //   [12, 15) 3 s: R1 D, R5 D   c 2, dc 2, dt 20, tif 731 + 121 = 852
  //   [15, 16) 1 s: R5 D         c 1, dc 1, dt 10, tif 121
  //   [16, 18) 2 s: idle
  //   [18, 19) 1 s: R2 P         c 1, pc 1, pt 100, tif 100
  //   [19, 20) 1 s: R2 D         c 1, dc 1, dt 10, tif 161
  const r = timeline(
    columns([
      { s: 5, g: 12, e: 15, isl: 700, osl: 31 },
      { s: 18, g: 19, e: 25, isl: 100, osl: 61 },
      { s: 0, g: 2, e: 8, isl: 10, osl: 10 },
      { s: 3, g: 4, e: 10, isl: 10, osl: 10 },
      { s: 8, g: 9, e: 16, isl: 50, osl: 71 },
      { s: 20, g: 21, e: 22, isl: 10, osl: 10 },
    ]),
    10 * S,
    20 * S,
  );

  it('keeps only the requests inside the window', () => {
    expect(r.requests).toBe(3);
    expect(r.segments).toBe(6);
  });

  it('integrates only the clipped parts, at the unclipped rates', () => {
    // c: Σ = 4 + 6 + 1 + 1 + 1 = 13 → 1.3; time at 0: 2, <=1: 5 (= 5: p50 = 1), <=2: 10.
    expectRow(r.rows.concurrency, [1.3, 1, 2, 2, 2, 2], 'concurrency');
    // dc: Σ = 2 + 6 + 1 + 1 = 10 → 1; time at 0: 3, <=1: 7, <=2: 10.
    expectRow(r.rows.decode_concurrency, [1, 1, 2, 2, 2, 2], 'decode_concurrency');
    // dt: Σ = 20 + 60 + 10 + 10 = 100 → 10.
    expectRow(r.rows.decode_throughput, [10, 10, 20, 20, 20, 20], 'decode_throughput');
    // pt: Σ = 200 + 100 = 300 → 30; time at 0: 7.
    expectRow(r.rows.prefill_throughput, [30, 0, 100, 100, 100, 100], 'prefill_throughput');
    // tif: Σ = 1642 + 2556 + 121 + 100 + 161 = 4580; time at 0: 2, <=100: 3, <=121: 4, <=161: 5.
    expectRow(r.rows.tokens_in_flight, [458, 161, 852, 852, 852, 852], 'tokens_in_flight');
    // Active: decode on [10, 16) and [19, 20) = 7 s; prefill on [10, 12) and [18, 19) = 3 s.
    expectRow(r.rows.active_decode_throughput, [100 / 7, 10, 20, 20, 20, 20], 'active_decode_throughput');
    expectRow(r.rows.active_prefill_throughput, [100, 100, 100, 100, 100, 100], 'active_prefill_throughput');
  });
});

describe('timeline: edge cases', () => {
  it('no requests: the curves are 0 over the window, and no phase is ever active', () => {
    const r = timeline(columns([]), 0, 5 * S);
    expect(r.requests).toBe(0);
    expectRow(r.rows.concurrency, [0, 0, 0, 0, 0, 0], 'concurrency');
    expect(r.rows.active_decode_throughput.weight_ns).toBe(0);
    expect(r.rows.active_decode_throughput.avg).toBeNaN();
  });

  it('an empty window has no value anywhere', () => {
    const r = timeline(columns([{ s: 1, g: 2, e: 3, isl: 1, osl: 2 }]), 2 * S, 2 * S);
    expect(r.requests).toBe(0);
    for (const name of TIMELINE_ROWS) expect(r.rows[name].avg).toBeNaN();
  });

  it('unknown token counts add no rate and no tokens, but the request is still in flight', () => {
    const r = timeline(columns([{ s: 0, g: 1, e: 2, isl: null, osl: null }]), 0, 2 * S);
    expect(r.rows.concurrency.avg).toBe(1);
    expect(r.rows.prefill_concurrency.avg).toBe(0.5);
    expect(r.rows.decode_throughput.max).toBe(0);
    expect(r.rows.prefill_throughput.max).toBe(0);
    expect(r.rows.tokens_in_flight.max).toBe(0);
  });

  it('accepts fractional ns (the non-integer key path) with the same results', () => {
    // The same two requests, shifted by half a ns: averages and percentiles do not move.
    const base = { s: 0, g: 1, e: 3, isl: 100, osl: 21 };
    const a = timeline(columns([base, { ...base, s: 2, g: 2.5, e: 4 }]), 0, 5 * S);
    const half = (c: Float64Array) => c.map((x) => x + 0.5);
    const cols = columns([base, { ...base, s: 2, g: 2.5, e: 4 }]);
    const b = timeline(
      { ...cols, start: half(cols.start), generationStart: half(cols.generationStart), end: half(cols.end) },
      0.5,
      5 * S + 0.5,
    );
    for (const name of TIMELINE_ROWS) {
      expect(b.rows[name].avg).toBeCloseTo(a.rows[name].avg, 6);
      expect(b.rows[name].p99).toBeCloseTo(a.rows[name].p99, 6);
    }
  });

  it('percentiles inside one histogram bucket stay within 2^-12 below the exact value', () => {
    // Decode rates 1000, 1000.1 and 1000.2 tok/s (within one bucket of width 2^-12 ≈ 0.024 %),
    // each alone in flight for 1 s: the exact p50 is 1000.1 and p99 1000.2.
    const one = (t: number, rate: number): Req => ({ s: t, g: t, e: t + 1, isl: 0, osl: rate + 1 });
    const r = timeline(columns([one(0, 1000), one(1, 1000.1), one(2, 1000.2)]), 0, 3 * S);
    const { p50, p99, max } = r.rows.decode_throughput;
    expect(max).toBeCloseTo(1000.2, 6);
    for (const [got, exact] of [
      [p50, 1000.1],
      [p99, 1000.2],
    ]) {
      expect(got).toBeLessThanOrEqual(exact + 1e-9);
      expect(got).toBeGreaterThanOrEqual(exact * (1 - 2 ** -12));
    }
  });
});

/** n requests from `slots` closed-loop slots, integer ns, some without a first token or counts. */
function randomRun(n: number, slots: number, seed: number): { cols: TimelineColumns; end: number } {
  const r = rng(seed);
  const reqs: Req[] = [];
  const free = new Array<number>(slots).fill(0);
  for (let i = 0; i < n; i++) {
    const k = i % slots;
    const s = free[k] + Math.floor(r() * 5e6);
    const ttft = Math.floor(r() * 2e8);
    const e = s + ttft + Math.floor(r() * 2e9);
    free[k] = e;
    const noToken = r() < 0.05;
    reqs.push({ s, g: noToken ? null : s + ttft, e, isl: r() < 0.02 ? null : Math.floor(r() * 2000), osl: Math.floor(r() * 500) });
  }
  const end = Math.max(...free);
  const cols: TimelineColumns = {
    start: Float64Array.from(reqs, (q) => q.s),
    generationStart: Float64Array.from(reqs, (q) => (q.g === null ? NaN : q.g)),
    end: Float64Array.from(reqs, (q) => q.e),
    isl: Float64Array.from(reqs, (q) => q.isl ?? NaN),
    osl: Float64Array.from(reqs, (q) => q.osl ?? NaN),
  };
  return { cols, end };
}

function expectAgreement(cols: TimelineColumns, w0: number, w1: number) {
  const got = timeline(cols, w0, w1);
  const want = jsTimeline(cols, w0, w1);
  expect(got.requests).toBe(want.requests);
  expect(got.segments).toBe(want.segments);
  for (const name of TIMELINE_ROWS) {
    const g = got.rows[name];
    const w = want.rows[name];
    expect(g.weight_ns, `${name} weight`).toBeCloseTo(w.weight_ns, 0);
    // Sums in a different order: relative 1e-9. Percentiles: the native ones are at most one
    // histogram bucket (2^-12 relative) below the exact ones, never above.
    expect(Math.abs(g.avg - w.avg), `${name} avg`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(w.avg)));
    expect(Math.abs(g.max - w.max), `${name} max`).toBeLessThanOrEqual(1e-9 * Math.max(1, w.max));
    for (const p of ['p50', 'p90', 'p95', 'p99'] as const) {
      expect(g[p], `${name} ${p}`).toBeLessThanOrEqual(w[p] + 1e-9 * Math.max(1, w[p]));
      expect(g[p], `${name} ${p}`).toBeGreaterThanOrEqual(w[p] * (1 - 2 ** -12) - 1e-9);
    }
  }
}

describe('timeline agrees with a plain JS sweep', () => {
  it('on small random runs, clipped and not', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { cols, end } = randomRun(40, 4, seed);
      expectAgreement(cols, 0, end);
      expectAgreement(cols, end * 0.3, end * 0.7);
    }
  });

  it('on 100,000 requests (the two-thread sort and split sweep)', () => {
    const { cols, end } = randomRun(100_000, 256, 7);
    expectAgreement(cols, 0, end);
  });
});

describe('timeline: bad arguments', () => {
  const ok = columns([{ s: 0, g: 1, e: 2, isl: 1, osl: 2 }]);

  it('the wrapper refuses wrong column types, lengths and windows with a coded TypeError', () => {
    const cases: [TimelineColumns, number, number][] = [
      [{ ...ok, start: [0] as unknown as Float64Array }, 0, 1],
      [{ ...ok, osl: new Float32Array(1) as unknown as Float64Array }, 0, 1],
      [{ ...ok, end: new Float64Array(2) }, 0, 1],
      [ok, 1, 0],
      [ok, NaN, 1],
      [ok, 0, Infinity],
    ];
    for (const [cols, w0, w1] of cases) {
      expect(() => timeline(cols, w0, w1)).toThrow(NativeArgumentError);
      try {
        timeline(cols, w0, w1);
      } catch (err) {
        expect(err).toBeInstanceOf(TypeError);
        expect((err as NativeArgumentError).code).toBe('SB_NATIVE_BAD_ARG');
      }
    }
  });

  it('a request that breaks start <= first token <= end, or a bad count, is named', () => {
    const bad: Req[] = [
      { s: 2, g: null, e: 1, isl: 1, osl: 1 },
      { s: 0, g: 3, e: 2, isl: 1, osl: 1 },
      { s: 1, g: 0.5, e: 2, isl: 1, osl: 1 },
      { s: 0, g: 1, e: 2, isl: -1, osl: 1 },
      { s: 0, g: 1, e: 2, isl: 1, osl: Infinity },
      { s: NaN, g: 1, e: 2, isl: 1, osl: 1 },
    ];
    for (const b of bad) {
      const cols = columns([{ s: 0, g: 1, e: 2, isl: 1, osl: 2 }, b]);
      expect(() => timeline(cols, 0, 10 * S)).toThrow(/request 1:/);
      expect(() => timeline(cols, 0, 10 * S)).toThrow(NativeArgumentError);
    }
  });

  it('the addon itself guards: wrong arity, types, lengths and detached buffers throw, never crash', () => {
    const f = new Float64Array(1);
    const calls: (() => unknown)[] = [
      () => (native.timeline as unknown as () => unknown)(),
      () => native.timeline(f, f, f, f, [1] as unknown as Float64Array, 0, 1),
      () => native.timeline(f, f, f, f, new Float64Array(3), 0, 1),
      () => native.timeline(f, f, f, f, f, '0' as unknown as number, 1),
      () => native.timeline(f, f, f, f, f, 1, 0),
      () => {
        const d = new Float64Array(1);
        structuredClone(d.buffer, { transfer: [d.buffer] });
        return native.timeline(f, f, d, f, f, 0, 1);
      },
    ];
    for (const call of calls) {
      let caught: unknown;
      try {
        call();
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(TypeError);
      expect((caught as { code?: string }).code).toBe('SB_NATIVE_BAD_ARG');
    }
  });
});

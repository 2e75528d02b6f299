// Sharded runs (issue 18): the partition rules over counts, datasets, arrival rates and traces, for
// 1 to 7 shards. Each shard's part is computed on its own, as a shard process would; together the
// parts must be exactly the unsharded run's: no draw twice, none left out, nothing moved in time.
import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { globalDraw, partition, shareOf } from '../../../src/load/shard-plan.js';
import { parseShardFlags, type ShardConfig } from '../../../src/config/shard.js';
import { Rng } from '../../../src/model/rng.js';
import { IndexSampler, type SamplingStrategy } from '../../../src/dataset/sampling.js';
import { IndexedSource } from '../../../src/dataset/source.js';
import { shardSource } from '../../../src/dataset/shard-source.js';
import type { Conversation } from '../../../src/dataset/types.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { RateSchedule } from '../../../src/load/pacer.js';
import { buildPlan } from '../../../src/load/plan.js';
import { planReplay } from '../../../src/load/replay.js';
import { arrivalSchedule, shardReplay } from '../../../src/load/shard-plan.js';
import { singleTurnSource, turn } from './fakes.js';

const COUNTS = [1, 2, 3, 4, 5, 6, 7];
const shard = (index: number, count: number): ShardConfig => ({ index, count, start_at_unix_ms: null, start_at_max_late_s: 60 });

function indexed(size: number, strategy: SamplingStrategy, seed: number): IndexedSource {
  return new IndexedSource({
    kind: 'single_turn',
    hasTimestamps: false,
    sampler: new IndexSampler(size, strategy, new Rng(seed)),
    build: (i) => ({ id: `e${i}`, turns: [turn(`prompt ${i}`)] }),
    cache: true,
  });
}

describe('shareOf', () => {
  it('splits every total among 1-7 shards: the parts sum to it and differ by at most one, the first shards taking the remainder', () => {
    for (const n of COUNTS) {
      for (let total = 0; total <= 60; total++) {
        const parts = Array.from({ length: n }, (_, i) => shareOf(total, i, n));
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
        expect([...parts].sort((a, b) => b - a)).toEqual(parts);
      }
    }
  });
});

describe('dataset draws', () => {
  for (const strategy of ['sequential', 'random', 'shuffle'] as const) {
    it(`${strategy}: the shards' draws interleave into exactly the unsharded draws (1-7 shards)`, () => {
      const total = 53;
      const whole = indexed(20, strategy, 7);
      const expected = Array.from({ length: total }, () => whole.next().id);
      for (const n of COUNTS) {
        const got: string[] = new Array<string>(total);
        for (let i = 0; i < n; i++) {
          const src = shardSource(indexed(20, strategy, 7), shard(i, n));
          const k = shareOf(total, i, n);
          for (let j = 0; j < k; j++) got[globalDraw(j, i, n)] = src.next().id;
        }
        expect(got).toEqual(expected);
      }
    });
  }

  it('sequential request counts: each entry index is sent once by exactly one shard, none skipped', () => {
    for (const n of COUNTS) {
      const seen = new Map<string, number>();
      for (let i = 0; i < n; i++) {
        const src = shardSource(indexed(600, 'sequential', 1), shard(i, n));
        for (let j = 0; j < shareOf(600, i, n); j++) {
          const id = src.next().id;
          expect(seen.has(id), `${id} sent twice with ${n} shards`).toBe(false);
          seen.set(id, i);
        }
      }
      expect([...seen.keys()].sort()).toEqual(Array.from({ length: 600 }, (_, i) => `e${i}`).sort());
    }
  });

  it('an endless source (no skip()) is split the same way, drawing and dropping the others', () => {
    let k = 0;
    const endless = () => ({
      kind: 'synthetic',
      size: null,
      hasTimestamps: false,
      next: (): Conversation => ({ id: `s${k++}`, turns: [] }),
    });
    for (const n of COUNTS) {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        k = 0;
        const src = shardSource(endless(), shard(i, n));
        for (let j = 0; j < 4; j++) ids.push(src.next().id);
      }
      expect(ids.sort()).toEqual(Array.from({ length: 4 * n }, (_, i) => `s${i}`).sort());
    }
  });
});

describe('arrival rates', () => {
  for (const pattern of ['constant', 'poisson', 'gamma'] as const) {
    it(`${pattern}: each shard sends every N-th arrival of the one schedule, at its original time`, () => {
      const spec = { pattern, rate: 250, smoothness: 3, rampNs: 2e8, seed: '42/profiling' };
      const whole = new RateSchedule(spec);
      const total = 97;
      const expected = Array.from({ length: total }, (_, j) => whole.targetNs(j));
      for (const n of COUNTS) {
        const got = new Array<number>(total);
        for (let i = 0; i < n; i++) {
          const s = arrivalSchedule({ ...spec, shard: { index: i, count: n } });
          for (let j = 0; j < shareOf(total, i, n); j++) got[globalDraw(j, i, n)] = s.targetNs(j);
        }
        expect(got).toEqual(expected);
        // Per shard the rate is the run's divided by N.
        if (n > 1 && pattern === 'constant') {
          const s = arrivalSchedule({ ...spec, rampNs: null, shard: { index: 0, count: n } });
          expect(s.targetNs(2) - s.targetNs(1)).toBeCloseTo((n * 1e9) / 250, 3);
        }
      }
    });
  }
});

describe('fixed-schedule traces', () => {
  it('each shard replays its own entries at their original offsets; together exactly the trace', () => {
    const convs: Conversation[] = Array.from({ length: 41 }, (_, i) => ({
      id: `t${i}`,
      turns: [turn(`p${i}`, { timestamp_ms: 1000 + ((i * 37) % 41) * 13 })],
    }));
    const plan = planReplay(convs, { startOffsetMs: null, endOffsetMs: null, autoOffset: true });
    const all = plan.schedule.entries.map((e) => `${e.conversation.id}@${e.offsetNs}`);
    for (const n of COUNTS) {
      const parts = Array.from({ length: n }, (_, i) => shardReplay(plan.schedule, shard(i, n)));
      for (const p of parts) {
        // Each shard's part is in time order and has the trace's zero.
        expect(p.zeroMs).toBe(plan.schedule.zeroMs);
        const offs = p.entries.map((e) => e.offsetNs);
        expect([...offs].sort((a, b) => a - b)).toEqual(offs);
      }
      const union = parts.flatMap((p) => p.entries.map((e) => `${e.conversation.id}@${e.offsetNs}`));
      expect(new Set(union).size).toBe(union.length);
      expect(union.sort()).toEqual([...all].sort());
    }
  });

  it('a shard left with no entry is bad input', () => {
    const plan = planReplay([{ id: 'a', turns: [turn('a', { timestamp_ms: 0 })] }], {
      startOffsetMs: null,
      endOffsetMs: null,
      autoOffset: true,
    });
    expect(() => shardReplay(plan.schedule, shard(1, 2))).toThrow(InvalidArgumentError);
  });

  it('partition() is round robin', () => {
    expect(partition([0, 1, 2, 3, 4, 5, 6], 1, 3)).toEqual([1, 4]);
  });
});

describe('the plan of a shard', () => {
  const cfg = (extra: Record<string, unknown>) => buildRunConfig({ concurrency: '12', 'request-count': 600, ...extra }, {});

  it('splits concurrency and the request count with deterministic remainders', () => {
    for (const n of COUNTS) {
      const parts = Array.from(
        { length: n },
        (_, i) => buildPlan(cfg({ 'shard-index': i, 'shard-count': n }), singleTurnSource()).plan.profiling,
      );
      const conc = parts.map((p) => (p.mode.kind === 'concurrency' ? p.mode.concurrency : -1));
      expect(conc.reduce((a, b) => a + b, 0)).toBe(12);
      expect(parts.map((p) => p.requestCount ?? 0).reduce((a, b) => a + b, 0)).toBe(600);
      // The same shard gets the same part every time.
      const again = buildPlan(cfg({ 'shard-index': n - 1, 'shard-count': n }), singleTurnSource()).plan.profiling;
      expect(again.requestCount).toBe(parts[n - 1].requestCount);
    }
  });

  it('keeps the duration whole: shards run side by side', () => {
    const p = buildPlan(
      cfg({ 'shard-index': 1, 'shard-count': 3, 'benchmark-duration': 10, 'request-count': undefined }),
      singleTurnSource(),
    );
    expect(p.plan.profiling.durationNs).toBe(10e9);
  });

  it('a concurrency or request count below the shard count is bad input', () => {
    expect(() => buildPlan(cfg({ 'shard-index': 0, 'shard-count': 13 }), singleTurnSource())).toThrow(/--concurrency 12/);
  });
});

describe('parseShardFlags', () => {
  const now = Date.parse('2026-12-01T20:00:00Z');
  it('reads the index from JOB_COMPLETION_INDEX when --shard-index is absent', () => {
    expect(parseShardFlags({ 'shard-count': 4 }, { JOB_COMPLETION_INDEX: '3' }, now)?.index).toBe(3);
    expect(parseShardFlags({ 'shard-count': 4, 'shard-index': 1 }, { JOB_COMPLETION_INDEX: '3' }, now)?.index).toBe(1);
  });
  it('takes ISO 8601 with a zone and epoch seconds', () => {
    expect(parseShardFlags({ 'start-at': '2026-12-01T20:00:05Z' }, {}, now)?.start_at_unix_ms).toBe(now + 5000);
    expect(parseShardFlags({ 'start-at': String(now / 1000 + 5) }, {}, now)?.start_at_unix_ms).toBe(now + 5000);
  });
  it.each([
    [{ 'shard-count': 3, 'shard-index': 3 }, /--shard-index: must be below --shard-count 3, got 3/],
    [{ 'shard-count': 0, 'shard-index': 0 }, /--shard-count: must be at least 1, got 0/],
    [{ 'shard-count': 2 }, /--shard-index: is required/],
    [{ 'shard-index': 1 }, /--shard-count: is required/],
    [{ 'start-at': '2026-12-01T19:58:00Z' }, /--start-at: .* 120.0 s in the past \(more than --start-at-max-late 60 s\)/],
    [{ 'start-at': '2026-12-01 20:00' }, /--start-at: expected ISO 8601 with a time zone/],
  ])('bad input %j is one line naming the flag', (flags, msg) => {
    expect(() => parseShardFlags(flags, {}, now)).toThrow(msg);
    expect(() => parseShardFlags(flags, {}, now)).toThrow(InvalidArgumentError);
  });
});

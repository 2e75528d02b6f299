// Fixed-schedule planning: time order, offsets, and the mode a source gets.
import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import type { Conversation } from '../../../src/dataset/types.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { buildPlan, resolveFixedSchedule } from '../../../src/load/plan.js';
import { planReplay, readAll } from '../../../src/load/replay.js';
import { listSource, singleTurnSource, turn } from './fakes.js';

const at = (id: string, ts: number | null): Conversation => ({ id, turns: [turn(id, { timestamp_ms: ts })] });
const none = { startOffsetMs: null, endOffsetMs: null, autoOffset: false };

describe('planReplay', () => {
  it('puts conversations in time order (stable on ties) and counts the ones out of order', () => {
    const p = planReplay([at('a', 100), at('b', 50), at('c', 100), at('d', 20), at('e', 300)], none);
    expect(p.schedule.entries.map((e) => e.conversation.id)).toEqual(['d', 'b', 'a', 'c', 'e']);
    expect(p.schedule.entries.map((e) => e.offsetNs)).toEqual([20e6, 50e6, 100e6, 100e6, 300e6]);
    expect(p.outOfOrder).toBe(2);
    expect(p.skipped).toBe(0);
  });

  it('auto offset starts at the first timestamp', () => {
    const p = planReplay([at('a', 1_700_000_000_500), at('b', 1_700_000_000_000)], { ...none, autoOffset: true });
    expect(p.schedule.zeroMs).toBe(1_700_000_000_000);
    expect(p.schedule.entries.map((e) => e.offsetNs)).toEqual([0, 500e6]);
  });

  it('start and end offsets keep the entries between them, inclusive, and shift the zero to the start', () => {
    const p = planReplay([at('a', 0), at('b', 100), at('c', 200), at('d', 300)], {
      startOffsetMs: 100,
      endOffsetMs: 200,
      autoOffset: false,
    });
    expect(p.schedule.entries.map((e) => [e.conversation.id, e.offsetNs])).toEqual([
      ['b', 0],
      ['c', 100e6],
    ]);
    expect(p.skipped).toBe(2);
    expect(p.schedule.endOffsetMs).toBe(200);
  });

  it('a conversation without a timestamp goes at the zero, counted', () => {
    const p = planReplay([at('a', 40), at('b', null)], none);
    expect(p.missingTimestamp).toBe(1);
    expect(p.schedule.entries[0].conversation.id).toBe('b');
  });

  it('reads exactly the source size; an endless source cannot be replayed', () => {
    const convs = [at('a', 1), at('b', 2), at('c', 3)];
    expect(readAll(listSource(convs, true)).map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(() => readAll(singleTurnSource())).toThrow(/--fixed-schedule: needs a finite dataset/);
  });
});

describe('the load mode a run gets', () => {
  const trace = listSource([at('a', 0), at('b', 10)], true);

  it('a source with timestamps is replayed by default; --no-fixed-schedule keeps the load mode', () => {
    expect(resolveFixedSchedule(buildRunConfig({}, {}), trace)).toBe(true);
    expect(resolveFixedSchedule(buildRunConfig({ 'fixed-schedule': false }, {}), trace)).toBe(false);
    expect(resolveFixedSchedule(buildRunConfig({}, {}), singleTurnSource())).toBe(false);
    expect(buildPlan(buildRunConfig({ 'fixed-schedule': false, 'request-rate': '5' }, {}), trace).mode).toBe('rate');
  });

  it('--fixed-schedule on a source without timestamps, or a rate with a timestamped source, is bad input', () => {
    expect(() => resolveFixedSchedule(buildRunConfig({ 'fixed-schedule': true }, {}), singleTurnSource())).toThrow(
      /^--fixed-schedule: the test dataset has no timestamps/,
    );
    expect(() => resolveFixedSchedule(buildRunConfig({ 'request-rate': '5' }, {}), trace)).toThrow(InvalidArgumentError);
    expect(() => resolveFixedSchedule(buildRunConfig({ 'request-rate': '5' }, {}), trace)).toThrow(/--no-fixed-schedule/);
  });

  it('a replay plan: no connection limit unless --concurrency caps it; offsets that leave nothing are bad input', () => {
    const p = buildPlan(buildRunConfig({}, {}), trace);
    expect(p.mode).toBe('fixed_schedule');
    expect(p.connections).toBeNull();
    expect(p.replay!.schedule.entries).toHaveLength(2);
    expect(buildPlan(buildRunConfig({ concurrency: '3' }, {}), trace).connections).toBe(3);
    expect(() => buildPlan(buildRunConfig({ 'fixed-schedule-start-offset': 500 }, {}), trace)).toThrow(/no conversation of the trace/);
    expect(() => buildPlan(buildRunConfig({ 'cooldown-duration': 2 }, {}), trace)).toThrow(
      /^--cooldown-duration: a fixed-schedule replay ends with its trace/,
    );
  });

  it('warmup takes its own rate or concurrency, else the profiling load', () => {
    const src = singleTurnSource();
    const w = (f: object) => buildPlan(buildRunConfig({ 'warmup-request-count': 3, ...f }, {}), src).plan.warmup!.mode;
    expect(w({})).toMatchObject({ kind: 'concurrency', concurrency: 8 });
    expect(w({ 'warmup-concurrency': 2 })).toMatchObject({ kind: 'concurrency', concurrency: 2 });
    expect(w({ 'request-rate': '9' })).toMatchObject({ kind: 'rate', arrival: { rate: 9 } });
    expect(w({ 'warmup-request-rate': 4, 'warmup-concurrency': 2 })).toMatchObject({ kind: 'rate', arrival: { rate: 4 }, cap: 2 });
    const d = buildPlan(buildRunConfig({ 'warmup-duration': 1.5 }, {}), src).plan.warmup!;
    expect(d).toMatchObject({ phase: 'warmup', requestCount: null, durationNs: 1.5e9 });
  });

  it('grace, cancellation and cooldown reach the plan', () => {
    const p = buildPlan(
      buildRunConfig(
        {
          'benchmark-grace-period': 'inf',
          'request-cancellation-rate': 0.2,
          'request-cancellation-delay': 0.5,
          'cooldown-duration': 2,
          'random-seed': 7,
        },
        {},
      ),
      singleTurnSource(),
    ).plan;
    expect(p.graceNs).toBeNull();
    expect(p.cancellation).toEqual({ rate: 0.2, delayNs: 5e8, seed: 7 });
    expect(p.profiling.cooldownNs).toBe(2e9);
  });
});

// --stages: the piecewise-linear target as pure functions, from tables; the pacer's schedule
// under stages; and the flag's parsing and conflicts.
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors.js';
import { pace, RateSchedule, timeForCount } from '../../../src/load/pacer.js';
import {
  parseStages,
  slotActiveFromNs,
  stageConcurrencyAt,
  stageCountAt,
  stageTimeForCount,
  stageValueAt,
  stagesDurationNs,
  type Stage,
} from '../../../src/load/stages.js';
import { parseLoadFlags } from '../../../src/load/config.js';

const S = 1e9;
// k6's example shape: up to 10 over 30 s, up to 50 over 60 s, down to 0 over 30 s.
const K6: Stage[] = [
  { durationNs: 30 * S, target: 10 },
  { durationNs: 60 * S, target: 50 },
  { durationNs: 30 * S, target: 0 },
];

describe('parseStages', () => {
  it.each([
    ['30s:10,60s:50,30s:0', K6],
    [
      '500ms:2, 1m:4',
      [
        { durationNs: 0.5 * S, target: 2 },
        { durationNs: 60 * S, target: 4 },
      ],
    ],
    ['2:1.5', [{ durationNs: 2 * S, target: 1.5 }]],
    ['1h:3', [{ durationNs: 3600 * S, target: 3 }]],
  ])('%s', (text, stages) => {
    expect(parseStages(text, 'rate')).toEqual(stages);
  });

  it.each([
    ['', /expected DURATION:TARGET/],
    ['30s', /expected DURATION:TARGET \(e\.g\. 30s:10\), got "30s"/],
    ['30s:10,,', /expected DURATION:TARGET/],
    ['0s:10', /must last longer than 0/],
    ['10s:-1', /got "10s:-1"/],
    ['10s:0,5s:0', /every target is 0/],
    ['10x:3', /got "10x:3"/],
  ])('%j is bad input', (text, msg) => {
    expect(() => parseStages(text, 'rate')).toThrow(InvalidArgumentError);
    expect(() => parseStages(text, 'rate')).toThrow(msg);
  });

  it('a concurrency target must be an integer', () => {
    expect(() => parseStages('10s:2.5', 'concurrency')).toThrow(/must be an integer/);
  });
});

describe('the piecewise-linear target', () => {
  it.each([
    // [elapsed s, value, count due by then]
    [0, 0, 0],
    [15, 5, 37.5],
    [30, 10, 150],
    [60, 30, 150 + 600],
    [90, 50, 150 + 1800],
    [105, 25, 1950 + 562.5],
    [120, 0, 1950 + 750],
    [200, 0, 2700],
  ])('at %d s: value %d, %d requests due', (t, value, count) => {
    expect(stageValueAt(t * S, K6)).toBeCloseTo(value, 9);
    expect(stageCountAt(t * S, K6)).toBeCloseTo(count, 6);
  });

  it('stageTimeForCount inverts stageCountAt, and the stages end with Infinity', () => {
    for (const n of [0, 1, 37.5, 100, 150, 151, 750, 1950, 2000, 2512.5, 2699.9]) {
      const t = stageTimeForCount(n, K6);
      expect(stageCountAt(t, K6)).toBeCloseTo(n, 6);
    }
    expect(stageTimeForCount(2700.5, K6)).toBe(Infinity);
    expect(stagesDurationNs(K6)).toBe(120 * S);
  });

  it('a zero-rate stage is skipped, not waited through by the count', () => {
    const pause: Stage[] = [
      { durationNs: S, target: 10 },
      { durationNs: S, target: 0 },
      { durationNs: S, target: 0 },
      { durationNs: S, target: 10 },
    ];
    // 5 due in the first second, 5 in the second, none in the third, 5 in the fourth.
    expect(stageTimeForCount(5, pause)).toBeCloseTo(S, 0);
    expect(stageTimeForCount(10, pause)).toBeCloseTo(2 * S, 0);
    expect(stageTimeForCount(10.5, pause)).toBeGreaterThan(3 * S);
  });

  it('generalises the linear ramp: one rising stage then a flat one is timeForCount', () => {
    const ramp: Stage[] = [
      { durationNs: 10 * S, target: 20 },
      { durationNs: 1000 * S, target: 20 },
    ];
    for (const n of [0, 1, 50, 99, 100, 101, 5000]) expect(stageTimeForCount(n, ramp)).toBeCloseTo(timeForCount(n, 20, 10 * S), -1);
  });
});

describe('the pacer under stages', () => {
  it('sends each request at its stage time and stops at the end of the stages', () => {
    const sched = new RateSchedule({ pattern: 'constant', rate: 50, smoothness: 1, rampNs: null, seed: 1, stages: K6 });
    const bounds = { count: null, durationNs: stagesDurationNs(K6) };
    const rows: [number, number, string][] = [
      // [elapsed s, sent so far, decision]
      [0, 0, 'send'],
      [0, 1, 'wait'],
      [30, 150, 'send'],
      [30, 151, 'wait'],
      [118, 2699, 'wait'],
      [119.99, 2699, 'send'],
      // 2700 requests are due over the stages (0..2699): the next one's target is their end.
      [119.99, 2700, 'stop'],
    ];
    for (const [t, sent, action] of rows) expect(pace(sched, t * S, sent, bounds).action, `${t} s, ${sent} sent`).toBe(action);
    // Request 150's target is the end of stage 1 (150 due by 30 s).
    expect(sched.targetNs(150)).toBeCloseTo(30 * S, -3);
    // Gaps shrink as the rate rises: 1/10 s at the end of stage 1, 1/50 s at the peak.
    expect((sched.targetNs(151) - sched.targetNs(150)) / S).toBeCloseTo(0.1, 2);
    expect((sched.targetNs(1951) - sched.targetNs(1950)) / S).toBeCloseTo(0.02, 3);
  });
});

describe('a concurrency target', () => {
  it.each([
    // [elapsed s, slots allowed]
    [0, 0],
    [2.9, 0],
    [3, 1],
    [30, 10],
    [89.9, 49],
    [90, 50],
    [119.5, 0],
  ])('at %d s: %d in flight', (t, n) => {
    expect(stageConcurrencyAt(t * S, K6)).toBe(n);
  });

  it.each([
    // [slot, from s, opens at s | null]
    [0, 0, 3],
    [9, 0, 30],
    [10, 0, 31.5],
    [49, 0, 90],
    [0, 50, 50],
    [49, 90.5, null],
    [0, 119, 119],
    [0, 119.5, null],
  ])('slot %d from %d s opens at %s s', (k, from, at) => {
    const got = slotActiveFromNs(k, from * S, K6);
    if (at === null) expect(got).toBeNull();
    else expect(got! / S).toBeCloseTo(at, 6);
  });
});

describe('--stages flags', () => {
  it('a rate target is open loop; --concurrency caps it', () => {
    const { load, concurrency } = parseLoadFlags({ stages: '30s:10,60s:50,30s:0', concurrency: '8' });
    expect(load.stages).toEqual({ target: 'rate', stages: K6 });
    expect(load.concurrency_cap).toBe(8);
    expect(concurrency).toBe(8);
  });

  it('a concurrency target sets the concurrency to its peak', () => {
    const { load, concurrency } = parseLoadFlags({ stages: '10s:4,10s:2', 'stages-target': 'concurrency' });
    expect(load.stages?.target).toBe('concurrency');
    expect(concurrency).toBe(4);
  });

  it.each([
    [{ stages: '10s:4', 'request-rate': '5' }, /^--stages: sets the load over time; it cannot be combined with --request-rate$/],
    [{ stages: '10s:4', 'stages-target': 'concurrency', concurrency: '3' }, /--stages: .* --concurrency$/],
    [{ stages: '10s:4', concurrency: '1,2' }, /--stages: .*--concurrency$/],
    [{ stages: '10s:4', 'benchmark-duration': 5 }, /--stages: set the run's duration \(the stages' sum\)/],
    [{ stages: '10s:4', 'cooldown-duration': 5 }, /--stages: end the run with their last stage/],
    [{ stages: '10s:4', 'request-rate-ramp-duration': 5 }, /--request-rate-ramp-duration$/],
    [{ stages: '10s:4', profile: 'sweep' }, /--profile$/],
    [{ 'stages-target': 'rate' }, /^--stages-target: needs --stages$/],
    [{ stages: '10s:4', 'stages-target': 'users' }, /^--stages-target: expected one of rate, concurrency, got "users"$/],
  ])('%j is bad input', (flags, msg) => {
    expect(() => parseLoadFlags(flags)).toThrow(InvalidArgumentError);
    expect(() => parseLoadFlags(flags)).toThrow(msg);
  });
});

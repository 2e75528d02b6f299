// The 16-core prediction of the end-to-end bench (bench/scale-model.js): each bound, which one
// limits, and the inputs it refuses.
import { describe, expect, it } from 'vitest';
import { ASSUMPTIONS, bestIoThreads, predict } from '../../../bench/scale-model.js';

describe('bench/scale-model.js predict', () => {
  it('the JS thread bounds events/s at 1e6 / main_us however many cores and I/O threads', () => {
    const split = { main_us: 5, io_us: 4, other_us: 1 };
    const p = predict(split, { cores: 16, ioThreads: 4 });
    expect(p.bounds.main).toBeCloseTo(200_000, 6);
    expect(p.bounds.io).toBeCloseTo(1_000_000, 6); // 4 threads × 1e6 / 4 µs
    expect(p.bounds.cores).toBeCloseTo(3_000_000, 6); // 15 cores × 1e6 / (4 + 1) µs
    expect(p.limit).toBe('main');
    expect(p.events_per_s).toBe(p.bounds.main);
    expect(predict(split, { cores: 64, ioThreads: 32 }).events_per_s).toBeCloseTo(200_000, 6);
  });

  it('with one I/O thread and a cheap JS thread the I/O thread limits, and more of them lift it', () => {
    const split = { main_us: 0.5, io_us: 4, other_us: 1 };
    const one = predict(split, { cores: 16, ioThreads: 1 });
    expect(one.limit).toBe('io');
    expect(one.events_per_s).toBeCloseTo(250_000, 6);
    const two = predict(split, { cores: 16, ioThreads: 2 });
    expect(two.limit).toBe('io');
    expect(two.events_per_s).toBeCloseTo(500_000, 6);
    const eight = predict(split, { cores: 16, ioThreads: 8 });
    expect(eight.limit).toBe('main'); // 8 × 250k = 2M > 1e6 / 0.5 µs = 2M: a tie names the JS thread
    expect(eight.events_per_s).toBeCloseTo(2_000_000, 6);
  });

  it('the shared cores limit when I/O and the other threads together need more than cores − 1', () => {
    const split = { main_us: 0.2, io_us: 2, other_us: 10 };
    const p = predict(split, { cores: 4, ioThreads: 3 });
    expect(p.bounds.cores).toBeCloseTo(250_000, 6); // 3 cores × 1e6 / 12 µs
    expect(p.limit).toBe('cores');
    expect(p.events_per_s).toBeCloseTo(250_000, 6);
  });

  it('a kind that spent nothing sets no bound', () => {
    const p = predict({ main_us: 2, io_us: 0, other_us: 0 }, { cores: 16, ioThreads: 2 });
    expect(p.bounds.io).toBe(Infinity);
    expect(p.bounds.cores).toBe(Infinity);
    expect(p.events_per_s).toBeCloseTo(500_000, 6);
  });

  it('refuses what it cannot model', () => {
    expect(() => predict({ main_us: NaN, io_us: 1, other_us: 1 })).toThrow(RangeError);
    expect(() => predict({ main_us: -1, io_us: 1, other_us: 1 })).toThrow(/main_us/);
    expect(() => predict({ main_us: 0, io_us: 0, other_us: 0 })).toThrow(/nothing to predict/);
    expect(() => predict({ main_us: 1, io_us: 1, other_us: 1 }, { cores: 16, ioThreads: 16 })).toThrow(/ioThreads/);
    expect(() => predict({ main_us: 1, io_us: 1, other_us: 1 }, { cores: 16, ioThreads: 0 })).toThrow(/ioThreads/);
    expect(() => predict({ main_us: 1, io_us: 1, other_us: 1 }, { cores: 1 })).toThrow(/cores/);
  });

  it('names its assumptions in one line', () => {
    expect(ASSUMPTIONS).not.toMatch(/\n/);
    expect(ASSUMPTIONS).toMatch(/JS thread/);
  });
});

describe('bench/scale-model.js bestIoThreads', () => {
  it('picks the fewest I/O threads that reach the best prediction', () => {
    // I/O bound N × 250k; the JS thread caps at 1M: 4 threads reach it, more add nothing.
    const b = bestIoThreads({ main_us: 1, io_us: 4, other_us: 0.5 }, { cores: 16 });
    expect(b.ioThreads).toBe(4);
    expect(b.events_per_s).toBeCloseTo(1_000_000, 6);
    expect(b.limit).toBe('main');
  });

  it('stops where the shared cores limit', () => {
    // cores bound: 7 × 1e6 / 7 µs = 1M; I/O alone would reach it with 4 threads (4 × 1e6 / 4 µs).
    const b = bestIoThreads({ main_us: 0.1, io_us: 4, other_us: 3 }, { cores: 8 });
    expect(b.events_per_s).toBeCloseTo(1_000_000, 6);
    expect(b.ioThreads).toBe(4);
    expect(b.limit).toBe('io');
  });
});

import { describe, expect, it } from 'vitest';
import { SubmitColumns } from '../../../src/transport/submit-columns.js';

describe('SubmitColumns', () => {
  it('gives views of the asked length, every timeout set, and keeps them for the same length', () => {
    const c = new SubmitColumns(1500);
    const a = c.take(3);
    for (const col of [a.ids, a.ends, a.streaming, a.timeouts, a.targets]) expect(col.length).toBe(3);
    expect([...a.timeouts]).toEqual([1500, 1500, 1500]);
    a.ids.set([7, 8, 9]);
    const b = c.take(3);
    expect(b).toBe(a);
    expect([...c.take(2).ids]).toEqual([7, 8]);
  });

  it('grows past its first capacity with every timeout still set', () => {
    const c = new SubmitColumns(42);
    const v = c.take(1000);
    expect(v.ids.length).toBe(1000);
    expect(v.timeouts.every((t) => t === 42)).toBe(true);
    expect(v.targets.length).toBe(1000);
  });
});
